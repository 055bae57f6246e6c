// Package rulesets is the list of games the server plays, kept in one place
// for the server, the offline verifier, the scripts and the tests. Adding a
// game is one line here, its entry in All (with the import Go asks for): the
// game's folder holds everything else, its part of the HTTP contract
// (openapi.yaml, which go generate ./... bundles into the served one, see
// scripts/specbundle) included. scripts/specbundle's
// TestFifthGameIsOneRegistration holds this to be so.
package rulesets

import (
	"fmt"

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

// Default is the ruleset of a request or a score sheet that names none, and
// the one an operator's catalog file (treasury serve --catalog) is for.
const Default = silvergold.RulesetName

// Named returns the ruleset of that name in rs, nil when there is none.
func Named(rs []domain.Ruleset, name string) domain.Ruleset {
	for _, r := range rs {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

// WithCatalog returns every ruleset, the one named name offering also the
// catalog content holds. A ruleset that takes no catalog file, or content it
// cannot read, is an error.
func WithCatalog(name string, content []byte) ([]domain.Ruleset, error) {
	all := All()
	x, ok := Named(all, name).(domain.CatalogExtender)
	if !ok {
		return nil, fmt.Errorf("the ruleset %q takes no catalog file", name)
	}
	r, err := x.WithCatalog(content)
	if err != nil {
		return nil, err
	}
	return All(r), nil
}
