package pgtest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestDatabase(t *testing.T) {
	connect := func(url string) *pgx.Conn {
		c, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	a, b := pgtest.Database(t), pgtest.Database(t)
	if a == b {
		t.Fatalf("two tests share database %s", a)
	}
	if _, err := connect(a).Exec(t.Context(), `CREATE TABLE only_in_a (x int)`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := connect(b).QueryRow(t.Context(), `SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a table of one database is seen in another: %d %v", n, err)
	}
	var listen string
	if err := connect(a).QueryRow(t.Context(), `SHOW listen_addresses`).Scan(&listen); err != nil || listen != "" {
		t.Fatalf("the test server listens on %q (%v); want only its Unix socket", listen, err)
	}
}
