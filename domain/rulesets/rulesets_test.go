package rulesets_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
