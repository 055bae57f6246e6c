package rulesets_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"

	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/silvergold"
)

func TestAll(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rulesets.All() {
		info := r.Info()
		assert.Equal(t, r.Name(), info.Name)
		assert.False(t, seen[r.Name()], "%s listed twice", r.Name())
		seen[r.Name()] = true
		assert.NotEmpty(t, info.Title)
		assert.NotEmpty(t, info.Modes)
		assert.LessOrEqual(t, info.MinPlayers, info.MaxPlayers)
	}
	assert.True(t, seen[silvergold.RulesetName])

	mine := silvergold.NewRules()
	replaced := false
	for _, r := range rulesets.All(mine) {
		replaced = replaced || r == mine
	}
	assert.True(t, replaced, "a ruleset given stands in for the one of its name")
}

func TestWithCatalog(t *testing.T) {
	house := bytes.Replace(silvergold.Standard().Content, []byte("\ncatalog standard\n"), []byte("\ncatalog house\n"), 1)
	rs, err := rulesets.WithCatalog(rulesets.Default, house)
	require.NoError(t, err)
	assert.Len(t, rs, len(rulesets.All()), "every ruleset is still played")
	c, ok := rulesets.Named(rs, rulesets.Default).(domain.Cataloger)
	require.True(t, ok)
	assert.Equal(t, []string{"house", "standard"}, c.CatalogNames())
	assert.Equal(t, []string{"standard"}, rulesets.Named(rulesets.All(), rulesets.Default).(domain.Cataloger).CatalogNames(), "All is unchanged")

	_, err = rulesets.WithCatalog(rulesets.Default, []byte("not a catalog"))
	assert.Error(t, err, "content the ruleset cannot read")
	_, err = rulesets.WithCatalog("chess", house)
	assert.EqualError(t, err, `the ruleset "chess" takes no catalog file`)
	assert.Nil(t, rulesets.Named(rulesets.All(), "chess"))
}
