package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// created is the answer to POST /v1/games, as far as these tests read it.
type created struct {
	Game struct {
		ID       string           `json:"id"`
		Awaiting []map[string]any `json:"awaiting"`
		State    json.RawMessage  `json:"state"`
	} `json:"game"`
	Credentials struct {
		Host  string   `json:"host"`
		Seats []string `json:"seats"`
	} `json:"credentials"`
}

func newGame(t *testing.T, s *server, ruleset, mode string, players int) created {
	t.Helper()
	var ps []map[string]string
	for i := range players {
		ps = append(ps, map[string]string{"name": []string{"Ann", "Ben", "Cleo", "Dan"}[i]})
	}
	r := s.Do(t, "POST", "/v1/games", map[string]any{"ruleset": ruleset, "mode": mode, "players": ps, "seed": "table-language"})
	wantStatus(t, r, 201)
	return decode[created](t, r.Body)
}

// TestMoveOfAnotherRuleset: a Silver & Gold move sent to a Colorful Treasure
// game is told as one, naming both games, not as a field of the wrong type.
func TestMoveOfAnotherRuleset(t *testing.T) {
	s := newServer(t)
	g := newGame(t, s, "colorful-treasure", "digital", 2)
	r := s.Do(t, "POST", "/v1/games/"+g.Game.ID+"/moves", map[string]any{"type": "keep", "seat": 0, "cards": []string{"grey-01", "grey-02"}},
		cred(g.Credentials.Seats[0]))
	p := wantProblem(t, r, 400, "invalid")
	assert.Contains(t, p.Detail, "Silver & Gold")
	assert.Contains(t, p.Detail, "Colorful Treasure")
	assert.Contains(t, p.Detail, "flip, collect")
	assert.NotContains(t, p.Detail, "wrong type")
}

// TestCatalogNamedByRuleset: "standard" is a catalog of two rulesets, so
// asking without the ruleset says which; each view's catalog href reads
// the game's own catalog.
func TestCatalogNamedByRuleset(t *testing.T) {
	s := newServer(t)
	p := wantProblem(t, s.Do(t, "GET", "/v1/catalogs/standard", nil), 400, "invalid")
	assert.Contains(t, p.Detail, "colorful-treasure")
	assert.Contains(t, p.Detail, "silver-and-gold")
	for _, rs := range []string{"silver-and-gold", "colorful-treasure"} {
		g := newGame(t, s, rs, "digital", 2)
		var st struct {
			Catalog struct{ Name, Hash, Href string } `json:"catalog"`
		}
		require.NoError(t, json.Unmarshal(g.Game.State, &st))
		require.NotEmpty(t, st.Catalog.Href, "%s: the view's catalog has an href", rs)
		r := s.Do(t, "GET", st.Catalog.Href, nil)
		wantStatus(t, r, 200)
		var c struct{ Ruleset, Hash string }
		require.NoError(t, json.Unmarshal(r.Body, &c))
		assert.Equal(t, rs, c.Ruleset)
		assert.Equal(t, st.Catalog.Hash, c.Hash)
		assert.Contains(t, r.Header.Get("Cache-Control"), "immutable")
	}
}

// TestTheMiddleIsNull: Lucky Treasure Hunter's state and events name the
// middle's owner null, and a steal that says so is taken as the listing's.
func TestTheMiddleIsNull(t *testing.T) {
	s := newServer(t)
	g := newGame(t, s, "lucky-treasure-hunter", "digital", 2)
	seat := g.Credentials.Seats[0]
	listing := func() (moves []struct {
		Move  map[string]any `json:"move"`
		Label string         `json:"label"`
	}) {
		r := s.Do(t, "GET", "/v1/games/"+g.Game.ID+"/legal-moves", nil, cred(seat))
		wantStatus(t, r, 200)
		var l struct {
			Moves []struct {
				Move  map[string]any `json:"move"`
				Label string         `json:"label"`
			} `json:"moves"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &l))
		return l.Moves
	}
	place := listing()[0]
	wantStatus(t, s.Do(t, "POST", "/v1/games/"+g.Game.ID+"/moves", place.Move, cred(seat)), 200)
	for _, e := range listing() {
		if e.Move["type"] == "steal" && e.Move["owner"] == nil {
			assert.True(t, strings.Contains(e.Label, "middle"), e.Label)
			e.Move["owner"] = nil // as the state names the middle
			r := s.Do(t, "POST", "/v1/games/"+g.Game.ID+"/moves", e.Move, cred(seat))
			wantStatus(t, r, 200)
			return
		}
	}
	t.Fatal("no steal from the middle listed after a place")
}
