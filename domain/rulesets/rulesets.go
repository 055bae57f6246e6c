// Package rulesets is the list of games the server plays, kept in one place
// for the server, the offline verifier and the tests. Adding a game is adding
// its package here (and its schemas to openapi.yaml).
package rulesets

import (
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// All returns every ruleset, each with its standard catalogs, in name order.
// A ruleset in replace stands in for the one of the same name (Silver & Gold
// with an operator's extra catalogs, say).
func All(replace ...domain.Ruleset) []domain.Ruleset {
	all := []domain.Ruleset{
		colorfultreasure.NewRules(),
		luckytreasurehunter.NewRules(),
		silvergold.NewRules(),
	}
	for i, r := range all {
		for _, x := range replace {
			if x.Name() == r.Name() {
				all[i] = x
			}
		}
	}
	return all
}
