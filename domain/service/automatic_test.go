package service_test

import (
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest/handgame"
)

// tallyRules is the hidden-hand game with a step nobody chooses: after every
// card played, the server tallies it ({"type":"tally"}, SystemActor only).
type tallyRules struct{ handgame.Rules }

const tallyName = "tally-test-game"

func (tallyRules) Name() string { return tallyName }

func (r tallyRules) Info() domain.RulesetInfo {
	i := r.Rules.Info()
	i.Name = tallyName
	return i
}

func (r tallyRules) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	g, cat, err := r.Rules.Create(req)
	return &tallyGame{Game: g.(*handgame.Game)}, cat, err
}

func (r tallyRules) Restore(state []byte, cat domain.CatalogBlob) (domain.Game, error) {
	var s struct {
		Inner   json.RawMessage `json:"inner"`
		Tallies int             `json:"tallies"`
	}
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, err
	}
	g, err := r.Rules.Restore(s.Inner, cat)
	if err != nil {
		return nil, err
	}
	return &tallyGame{Game: g.(*handgame.Game), Tallies: s.Tallies}, nil
}

func (r tallyRules) Replay(req domain.CreateRequest, cat domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	g0, _, err := r.Create(req)
	if err != nil {
		return nil, 0, err
	}
	g := g0.(*tallyGame)
	for i, m := range moves {
		if _, err := g.Apply(m.Actor, m.Move); err != nil {
			return g, i + 1, err
		}
	}
	return g, 0, nil
}

type tallyGame struct {
	*handgame.Game
	Tallies int
	tallied bool
}

var _ domain.Automatic = (*tallyGame)(nil)

func (g *tallyGame) Due() ([]byte, bool) {
	return []byte(`{"type":"tally"}`), g.Tallies < len(g.Game.Played)
}

func (g *tallyGame) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	g.tallied = false
	if string(move) != `{"type":"tally"}` {
		if actor.IsSystem() {
			return domain.Logged{}, domain.Fail(domain.Forbidden, "hand.forbidden.host")
		}
		if _, due := g.Due(); due {
			return domain.Logged{}, domain.Refuse("turn", "hand.refuse.turn", "seat", -1)
		}
		return g.Game.Apply(actor, move)
	}
	if _, due := g.Due(); !actor.IsSystem() || !due {
		return domain.Logged{}, domain.Fail(domain.Forbidden, "hand.forbidden.host")
	}
	g.Tallies++
	g.tallied = true
	return domain.Logged{Move: move}, nil
}

func (g *tallyGame) Events() []domain.Event {
	if g.tallied {
		return []domain.Event{{Type: "tallied", Data: domain.MustJSON(map[string]int{"tallies": g.Tallies})}}
	}
	return g.Game.Events()
}

func (g *tallyGame) Snapshot() ([]byte, error) {
	inner, err := g.Game.Snapshot()
	return domain.MustJSON(map[string]any{"inner": json.RawMessage(inner), "tallies": g.Tallies}), err
}
