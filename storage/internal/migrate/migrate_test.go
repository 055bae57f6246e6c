package migrate_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/storage/internal/migrate"
)

var d = migrate.Dialect{Store: "test"}

func TestLoad(t *testing.T) {
	file := &fstest.MapFile{Data: []byte(`SELECT 1`)}
	t.Run("orders by number and allows skipped numbers", func(t *testing.T) {
		s, err := migrate.Load(d, fstest.MapFS{"m/10_c.sql": file, "m/0002_b.sql": file, "m/9_a.sql": file, "m/notes.txt": file}, "m")
		require.NoError(t, err)
		assert.Equal(t, []string{"0002_b.sql", "9_a.sql", "10_c.sql"}, s.Names())
		assert.Equal(t, 10, s.Latest())
	})
	for _, c := range []struct {
		name string
		fs   fstest.MapFS
		want string
	}{
		{"two files of one version", fstest.MapFS{"m/0001_a.sql": file, "m/1_b.sql": file}, "test: migration 1_b.sql: version 1 is taken by 0001_a.sql"},
		{"a name without a number", fstest.MapFS{"m/init.sql": file}, "test: migration init.sql: name must start with a positive number and '_'"},
		{"version zero", fstest.MapFS{"m/0000_a.sql": file}, "test: migration 0000_a.sql: name must start with a positive number and '_'"},
		{"no file", fstest.MapFS{}, "test: no migrations embedded"},
	} {
		t.Run("refuses "+c.name, func(t *testing.T) {
			_, err := migrate.Load(d, c.fs, "m")
			assert.EqualError(t, err, c.want)
		})
	}
}
