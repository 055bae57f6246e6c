package colorfultreasure

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

func TestStandardCatalog(t *testing.T) {
	c, err := ParseCatalog(standardWonders)
	require.NoError(t, err)
	assert.Equal(t, "standard", c.Name)
	assert.Len(t, c.Wonders, NumWonders)
	assert.Len(t, c.Hash, 64)
	keys := 0
	var colours [NumKinds]int
	for _, w := range c.Wonders {
		if w.Lock == Key {
			keys++
		}
		for _, k := range w.Colours {
			colours[k]++
		}
		assert.Len(t, w.Cards(false), 5)
		assert.Len(t, w.Cards(true), 4)
	}
	assert.Equal(t, 5, keys)
	for _, k := range Colours {
		assert.Equal(t, 6, colours[k], "%s", k)
	}
}

func TestParseCatalogErrors(t *testing.T) {
	good := string(standardWonders)
	cases := []struct {
		name, from, to, want string
	}{
		{"no catalog line", "catalog standard", "", "must begin"},
		{"unknown line", "wonder petra ", "temple petra ", `"temple" is not a wonder line`},
		{"lock", "petra           key ", "petra           lock", "petra: \"lock\" is neither key nor chest"},
		{"colour", "petra           key    red", "petra           key    pink", "petra: \"pink\" is not a gem colour"},
		{"same colour twice", "red    blue   purple", "red    red    purple", "petra: red twice"},
		{"two gems only", "petra           key    red    blue   purple", "petra key red blue", "petra: write"},
		{"duplicate id", "wonder angkor-wat", "wonder petra", "petra: a second wonder"},
		{"six keys", "angkor-wat      chest", "angkor-wat      key  ", "6 wonders have a key"},
		{"colour counts", "angkor-wat      chest  red    yellow green", "angkor-wat      chest  red    yellow blue", "green is on 5 wonders"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, good, tc.from)
			_, err := ParseCatalog([]byte(strings.Replace(good, tc.from, tc.to, 1)))
			require.Error(t, err)
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
			assert.Contains(t, domain.ErrorReason(err), tc.want)
		})
	}
	_, err := ParseCatalog([]byte(strings.Replace(good, "wonder angkor-wat      chest  red    yellow green\n", "", 1)))
	assert.Contains(t, domain.ErrorReason(err), "9 wonders")
}

func TestOtherCatalog(t *testing.T) {
	other := strings.Replace(string(standardWonders), "catalog standard", "catalog travel", 1)
	other = strings.Replace(other, "wonder petra ", "wonder al-khazneh ", 1)
	c, err := ParseCatalog([]byte(other))
	require.NoError(t, err)
	r := NewRules(c)
	assert.Equal(t, []string{"standard", "travel"}, r.CatalogNames())
	g, blob, err := r.Create(domain.CreateRequest{Mode: "digital", Players: []string{"A", "B"}, Seed: "s", Catalog: "travel"})
	require.NoError(t, err)
	assert.Equal(t, c.Hash, blob.Hash)
	view, _ := g.AppendView(nil, domain.Public)
	assert.Contains(t, string(view), "al-khazneh")
	info, b, err := r.CatalogView("travel")
	require.NoError(t, err)
	assert.Equal(t, c.Hash, info.Hash)
	assert.Contains(t, string(b), `"ruleset":"colorful-treasure"`)
	_, _, err = r.CatalogView("nope")
	assert.Equal(t, domain.NotFound, domain.ErrorCode(err))
	// A stored game restores with the catalog it was created with, even one
	// this server no longer offers.
	snap, _ := g.Snapshot()
	g2, err := NewRules().Restore(snap, blob)
	require.NoError(t, err)
	v2, _ := g2.AppendView(nil, domain.Public)
	assert.Equal(t, string(view), string(v2))
}
