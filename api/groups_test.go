package api_test

import (
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
)

// A group over the API: its credential, members, a game created for it and
// played to the end, a paper sheet kept as a play, statistics, exports and
// an import on another server.

type apiPlayer struct {
	Member    string `json:"member"`
	Name      string `json:"name"`
	Seat      int    `json:"seat"`
	Score     int    `json:"score"`
	Rank      int    `json:"rank"`
	Winner    bool   `json:"winner"`
	DecidedBy string `json:"decided_by"`
	Start     bool   `json:"start_player"`
	Lines     []struct {
		Line  string `json:"line"`
		Value int    `json:"value"`
	} `json:"lines"`
}

type apiPlay struct {
	ID          string      `json:"id"`
	Source      string      `json:"source"`
	GameID      string      `json:"game_id"`
	Ruleset     string      `json:"ruleset"`
	Mode        string      `json:"mode"`
	Players     []apiPlayer `json:"players"`
	Record      string      `json:"record"`
	BGStatsLink string      `json:"bgstats_link"`
}

type apiGroup struct {
	id, cred string
	members  map[string]string // name -> id
}

func newGroup(t *testing.T, s *server, names ...string) apiGroup {
	t.Helper()
	r := s.Do(t, http.MethodPost, "/v1/groups", map[string]string{"name": "Friday night"})
	wantStatus(t, r, http.StatusCreated)
	c := decode[struct {
		Group struct {
			ID string `json:"id"`
		} `json:"group"`
		Credential string `json:"credential"`
	}](t, r.Body)
	assert.Equal(t, "/v1/groups/"+c.Group.ID, r.Header.Get("Location"))
	g := apiGroup{id: c.Group.ID, cred: c.Credential, members: map[string]string{}}
	for _, n := range names {
		r := s.Do(t, http.MethodPost, g.path("/members"), map[string]string{"name": n}, cred(g.cred))
		wantStatus(t, r, http.StatusCreated)
		g.members[n] = decode[struct {
			ID string `json:"id"`
		}](t, r.Body).ID
	}
	return g
}

func (g apiGroup) path(rest string) string { return "/v1/groups/" + g.id + rest }

// lthForGroup creates a digital Lucky Treasure Hunter game for the group,
// seating names.
func lthForGroup(t *testing.T, s *server, g apiGroup, seed string, names ...string) *lthTable {
	t.Helper()
	ps, ms := []map[string]string{}, []string{}
	for _, n := range names {
		ps = append(ps, map[string]string{"name": n})
		ms = append(ms, g.members[n])
	}
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": luckytreasurehunter.RulesetName, "mode": "digital",
		"players": ps, "seed": seed, "group": map[string]any{"id": g.id, "members": ms}}, cred(g.cred))
	wantStatus(t, r, http.StatusCreated)
	c := decode[struct {
		Game        lthGame `json:"game"`
		Credentials struct {
			Host  string   `json:"host"`
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}](t, r.Body)
	return &lthTable{table: &table{s: s, id: c.Game.ID, host: c.Credentials.Host, seats: c.Credentials.Seats}, names: names,
		r: rand.New(rand.NewPCG(uint64(len(names)), 25))}
}

// lthSheet is a Lucky Treasure Hunter score sheet: Ann 13 (sets 5, 5, 1, 1),
// Ben 11 (sets 5, 4, 1, 1 and the captain used).
func lthSheet(ann, ben string) map[string]any {
	return map[string]any{"ruleset": "lucky-treasure-hunter", "players": []map[string]any{
		{"name": ann, "sets": []map[string]any{{"treasure": "ruby", "size": 5}, {"treasure": "gold", "size": 5}, {"treasure": "jade", "size": 1}, {"treasure": "pearl", "size": 1}}, "captain_used": false},
		{"name": ben, "sets": []map[string]any{{"treasure": "silver", "size": 5}, {"treasure": "pearl", "size": 4}, {"treasure": "ruby", "size": 1}, {"treasure": "jade", "size": 1}}, "captain_used": true},
	}}
}

func TestGroupCredential(t *testing.T) {
	s := newServer(t)
	g := newGroup(t, s, "Ann")
	wantProblem(t, s.Do(t, http.MethodGet, g.path(""), nil), http.StatusUnauthorized, "unauthorized")
	other := newGroup(t, s)
	wantProblem(t, s.Do(t, http.MethodGet, g.path(""), nil, cred(other.cred)), http.StatusUnauthorized, "unauthorized")
	wantProblem(t, s.Do(t, http.MethodGet, g.path("/stats"), nil, cred(other.cred)), http.StatusUnauthorized, "unauthorized")
	wantProblem(t, s.Do(t, http.MethodGet, "/v1/groups/nope", nil, cred(g.cred)), http.StatusNotFound, "not_found")

	// Names are unique in a group as in a game.
	wantProblem(t, s.Do(t, http.MethodPost, g.path("/members"), map[string]string{"name": "ANN"}, cred(g.cred)), http.StatusConflict, "conflict")
	wantProblem(t, s.Do(t, http.MethodPost, g.path("/members"), map[string]string{"name": "Bad\u202eName"}, cred(g.cred)), http.StatusBadRequest, "invalid")

	// A game for the group needs its credential, its members, their names.
	body := func(names []string, members []string) map[string]any {
		ps := []map[string]string{}
		for _, n := range names {
			ps = append(ps, map[string]string{"name": n})
		}
		return map[string]any{"ruleset": "lucky-treasure-hunter", "mode": "digital", "players": ps,
			"group": map[string]any{"id": g.id, "members": members}}
	}
	r := s.Do(t, http.MethodPost, g.path("/members"), map[string]string{"name": "Ben"}, cred(g.cred))
	wantStatus(t, r, http.StatusCreated)
	ben := decode[struct {
		ID string `json:"id"`
	}](t, r.Body).ID
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body([]string{"Ann", "Ben"}, []string{g.members["Ann"], ben})), http.StatusUnauthorized, "unauthorized")
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body([]string{"Ann", "Bob"}, []string{g.members["Ann"], ben}), cred(g.cred)), http.StatusBadRequest, "invalid")
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body([]string{"Ann", "Ann"}, []string{g.members["Ann"], g.members["Ann"]}), cred(g.cred)), http.StatusBadRequest, "invalid")
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body([]string{"Ann", "Ben"}, []string{g.members["Ann"], "nobody"}), cred(g.cred)), http.StatusBadRequest, "invalid")
	wantStatus(t, s.Do(t, http.MethodPost, "/v1/games", body([]string{"Ann", "Ben"}, []string{g.members["Ann"], ben}), cred(g.cred)), http.StatusCreated)
}

func TestGroupPlaysStatsAndExports(t *testing.T) {
	s := newServer(t)
	g := newGroup(t, s, "Ann", "Ben")

	// A game created for the group, played to its end.
	tb := lthForGroup(t, s, g, "groups-25", "Ann", "Ben")
	for i := 0; tb.step(t); i++ {
		if i > 2000 {
			t.Fatal("the game did not end in 2000 moves")
		}
	}
	score := decode[struct {
		Players []struct {
			Seat  int `json:"seat"`
			Total int `json:"total"`
		} `json:"players"`
		Ranking []struct {
			Seat int `json:"seat"`
			Rank int `json:"rank"`
		} `json:"ranking"`
	}](t, s.Do(t, http.MethodGet, "/v1/games/"+tb.id+"/score", nil).Body)

	r := s.Do(t, http.MethodGet, g.path("/plays"), nil, cred(g.cred))
	wantStatus(t, r, http.StatusOK)
	page := decode[struct {
		Plays []apiPlay `json:"plays"`
		Next  *string   `json:"next"`
	}](t, r.Body)
	require.Len(t, page.Plays, 1, "the ended game is kept as a play")
	game := page.Plays[0]
	assert.Equal(t, tb.id, game.GameID)
	assert.Equal(t, "game", game.Source)
	assert.Equal(t, "/v1/games/"+tb.id+"/record", game.Record)
	wantStatus(t, s.Do(t, http.MethodGet, game.Record, nil), http.StatusOK)
	require.Len(t, game.Players, 2)
	for _, p := range score.Players {
		assert.Equal(t, p.Total, game.Players[p.Seat].Score, "seat %d's score is the game's", p.Seat)
	}
	for _, rk := range score.Ranking {
		assert.Equal(t, rk.Rank, game.Players[rk.Seat].Rank)
		assert.Equal(t, rk.Rank == 1, game.Players[rk.Seat].Winner)
	}
	assert.Equal(t, g.members["Ann"], game.Players[0].Member)
	assert.True(t, game.Players[0].Start, "seat 0 began (the default start player)")
	assert.NotEmpty(t, game.Players[0].Lines, "Lucky Treasure Hunter's score parts are kept as lines")

	// A paper sheet: refused with a stranger on it, kept once however often
	// it is sent with one Idempotency-Key.
	wantProblem(t, s.Do(t, http.MethodPost, g.path("/plays"), map[string]any{"sheet": lthSheet("Ann", "Zed")}, cred(g.cred)), http.StatusBadRequest, "invalid")
	sheetBody := map[string]any{"sheet": lthSheet("ann", "Ben"), "played_at": "2026-11-20T19:00:00Z", "duration_seconds": 1500, "start_player": 1}
	r = s.Do(t, http.MethodPost, g.path("/plays"), sheetBody, cred(g.cred), header("Idempotency-Key", "sheet-1"))
	wantStatus(t, r, http.StatusCreated)
	sheet := decode[apiPlay](t, r.Body)
	r = s.Do(t, http.MethodPost, g.path("/plays"), sheetBody, cred(g.cred), header("Idempotency-Key", "sheet-1"))
	wantStatus(t, r, http.StatusOK)
	assert.Equal(t, sheet.ID, decode[apiPlay](t, r.Body).ID, "a retry answers with the play kept the first time")
	require.Len(t, sheet.Players, 2)
	assert.Equal(t, []int{13, 11}, []int{sheet.Players[0].Score, sheet.Players[1].Score})
	assert.Equal(t, "Ann", sheet.Players[0].Name, "the member's name, as the group has it")
	assert.True(t, sheet.Players[0].Winner)
	assert.True(t, sheet.Players[1].Start)

	// The statistics, worked out from the two plays.
	annWon := game.Players[0].Winner
	r = s.Do(t, http.MethodGet, g.path("/stats"), nil, cred(g.cred))
	wantStatus(t, r, http.StatusOK)
	type memberStats struct {
		Member  string  `json:"member"`
		Plays   int     `json:"plays"`
		Wins    int     `json:"wins"`
		WinRate float64 `json:"win_rate"`
	}
	st := decode[struct {
		Plays   int           `json:"plays"`
		Members []memberStats `json:"members"`
		Games   []struct {
			Ruleset string `json:"ruleset"`
			Plays   int    `json:"plays"`
			Members []struct {
				Member    string `json:"member"`
				BestScore struct {
					Value int    `json:"value"`
					Play  string `json:"play"`
				} `json:"best_score"`
			} `json:"members"`
		} `json:"games"`
		HeadToHead []struct {
			Member string `json:"member"`
			Plays  int    `json:"plays"`
			Wins   int    `json:"wins"`
		} `json:"head_to_head"`
	}](t, r.Body)
	assert.Equal(t, 2, st.Plays)
	annWins := 1
	if annWon {
		annWins = 2
	}
	require.Len(t, st.Members, 2)
	assert.Equal(t, memberStats{Member: g.members["Ann"], Plays: 2, Wins: annWins, WinRate: float64(annWins) / 2}, st.Members[0])
	require.Len(t, st.Games, 1)
	assert.Equal(t, 2, st.Games[0].Plays)
	best := max(13, game.Players[0].Score)
	assert.Equal(t, best, st.Games[0].Members[0].BestScore.Value)

	// The BG Stats link of each play and the BG Stats file carry the same
	// results as the API.
	for _, p := range []apiPlay{game, sheet} {
		u, err := url.Parse(p.BGStatsLink)
		require.NoError(t, err)
		assert.Equal(t, "app.bgstatsapp.com", u.Host)
		var link struct {
			SourceName   string `json:"sourceName"`
			SourcePlayID string `json:"sourcePlayId"`
			Game         struct {
				Name string `json:"name"`
			} `json:"game"`
			Players []struct {
				Name        string `json:"name"`
				Score       int    `json:"score"`
				Winner      bool   `json:"winner"`
				Rank        int    `json:"rank"`
				StartPlayer bool   `json:"startPlayer"`
			} `json:"players"`
		}
		require.NoError(t, json.Unmarshal([]byte(u.Query().Get("data")), &link))
		assert.Equal(t, "Treasury", link.SourceName)
		assert.Equal(t, p.ID, link.SourcePlayID)
		assert.Equal(t, "Lucky Treasure Hunter", link.Game.Name)
		require.Len(t, link.Players, len(p.Players))
		for i, pl := range p.Players {
			assert.Equal(t, pl.Name, link.Players[i].Name)
			assert.Equal(t, pl.Score, link.Players[i].Score)
			assert.Equal(t, pl.Winner, link.Players[i].Winner)
			assert.Equal(t, pl.Rank, link.Players[i].Rank)
			assert.Equal(t, pl.Start, link.Players[i].StartPlayer)
		}
	}
	r = s.Do(t, http.MethodGet, g.path("/export/bgstats"), nil, cred(g.cred))
	wantStatus(t, r, http.StatusOK)
	file := decode[struct {
		Players []struct {
			ID             int    `json:"id"`
			SourcePlayerID string `json:"sourcePlayerId"`
		} `json:"players"`
		Plays []struct {
			SourcePlayID string `json:"sourcePlayId"`
			PlayerScores []struct {
				PlayerRefID int    `json:"playerRefId"`
				Score       string `json:"score"`
				Winner      bool   `json:"winner"`
				Rank        int    `json:"rank"`
				StartPlayer bool   `json:"startPlayer"`
			} `json:"playerScores"`
		} `json:"plays"`
	}](t, r.Body)
	ref := map[int]string{}
	for _, p := range file.Players {
		ref[p.ID] = p.SourcePlayerID
	}
	byID := map[string]apiPlay{game.ID: game, sheet.ID: sheet}
	require.Len(t, file.Plays, 2)
	for _, fp := range file.Plays {
		p, ok := byID[fp.SourcePlayID]
		require.True(t, ok, "play %s", fp.SourcePlayID)
		for i, ps := range fp.PlayerScores {
			assert.Equal(t, p.Players[i].Member, ref[ps.PlayerRefID])
			assert.Equal(t, strconv.Itoa(p.Players[i].Score), ps.Score)
			assert.Equal(t, p.Players[i].Winner, ps.Winner)
			assert.Equal(t, p.Players[i].Rank, ps.Rank)
			assert.Equal(t, p.Players[i].Start, ps.StartPlayer)
		}
	}

	// CSV: a row per player per play, the sheet (played earlier) first.
	r = s.Do(t, http.MethodGet, g.path("/export/csv"), nil, cred(g.cred))
	wantStatus(t, r, http.StatusOK)
	assert.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv"))
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 5)
	assert.Equal(t, []string{sheet.ID, "2026-11-20T19:00:00Z", "1500", "lucky-treasure-hunter", "physical", "sheet", g.members["Ann"], "Ann", "0", "13", "1", "true", "false"}, rows[1][:13])

	// The whole group moves to another server, credential and all.
	r = s.Do(t, http.MethodGet, g.path("/export"), nil, cred(g.cred))
	wantStatus(t, r, http.StatusOK)
	export := r.Body
	s2 := newServer(t)
	wantProblem(t, s2.Do(t, http.MethodPost, "/v1/groups/import", export, cred("not-the-credential")), http.StatusUnauthorized, "unauthorized")
	wantStatus(t, s2.Do(t, http.MethodPost, "/v1/groups/import", export, cred(g.cred)), http.StatusCreated)
	wantProblem(t, s2.Do(t, http.MethodPost, "/v1/groups/import", export, cred(g.cred)), http.StatusConflict, "conflict")
	r2 := s2.Do(t, http.MethodGet, g.path("/stats"), nil, cred(g.cred))
	wantStatus(t, r2, http.StatusOK)
	r = s.Do(t, http.MethodGet, g.path("/stats"), nil, cred(g.cred))
	assert.JSONEq(t, string(r.Body), string(r2.Body), "the statistics are the same on the other server")

	// Deleting a play, then a member with their plays.
	wantStatus(t, s.Do(t, http.MethodDelete, g.path("/plays/"+sheet.ID), nil, cred(g.cred)), http.StatusNoContent)
	wantProblem(t, s.Do(t, http.MethodGet, g.path("/plays/"+sheet.ID), nil, cred(g.cred)), http.StatusNotFound, "not_found")
	r = s.Do(t, http.MethodGet, g.path("/stats"), nil, cred(g.cred))
	assert.Equal(t, 1, decode[struct {
		Plays int `json:"plays"`
	}](t, r.Body).Plays)
	r = s.Do(t, http.MethodDelete, g.path("/members/"+g.members["Ben"]), nil, cred(g.cred))
	wantStatus(t, r, http.StatusOK)
	assert.JSONEq(t, `{"member":"`+g.members["Ben"]+`","deleted_plays":1}`, string(r.Body))
	r = s.Do(t, http.MethodGet, g.path("/plays"), nil, cred(g.cred))
	assert.JSONEq(t, `{"plays":[],"next":null}`, string(r.Body))
}

func TestGroupPlaysPages(t *testing.T) {
	s := newServer(t)
	g := newGroup(t, s, "Ann", "Ben")
	var ids []string
	for day := 1; day <= 5; day++ {
		r := s.Do(t, http.MethodPost, g.path("/plays"), map[string]any{"sheet": lthSheet("Ann", "Ben"),
			"played_at": "2026-11-0" + strconv.Itoa(day) + "T19:00:00Z"}, cred(g.cred))
		wantStatus(t, r, http.StatusCreated)
		ids = append([]string{decode[apiPlay](t, r.Body).ID}, ids...) // latest first
	}
	var got []string
	path := g.path("/plays?limit=2")
	for range 4 {
		r := s.Do(t, http.MethodGet, path, nil, cred(g.cred))
		wantStatus(t, r, http.StatusOK)
		page := decode[struct {
			Plays []apiPlay `json:"plays"`
			Next  *string   `json:"next"`
		}](t, r.Body)
		for _, p := range page.Plays {
			got = append(got, p.ID)
		}
		if page.Next == nil {
			break
		}
		path = g.path("/plays?limit=2&before=" + url.QueryEscape(*page.Next))
	}
	assert.Equal(t, ids, got)
	wantProblem(t, s.Do(t, http.MethodGet, g.path("/plays?limit=1000"), nil, cred(g.cred)), http.StatusBadRequest, "validation_failed")
	wantProblem(t, s.Do(t, http.MethodGet, g.path("/plays?before=yesterday"), nil, cred(g.cred)), http.StatusBadRequest, "invalid")
}

// TestGroupMemberLimit: a group has at most 100 members; the 101st is a
// conflict that says so, and nothing is added.
func TestGroupMemberLimit(t *testing.T) {
	s := newServer(t)
	g := newGroup(t, s)
	for i := range 100 {
		wantStatus(t, s.Do(t, http.MethodPost, g.path("/members"), map[string]string{"name": "Player " + strconv.Itoa(i)}, cred(g.cred)), http.StatusCreated)
	}
	p := wantProblem(t, s.Do(t, http.MethodPost, g.path("/members"), map[string]string{"name": "One more"}, cred(g.cred)), http.StatusConflict, "conflict")
	assert.Contains(t, p.Detail, "100 members")
	r := s.Do(t, http.MethodGet, g.path(""), nil, cred(g.cred))
	assert.Len(t, decode[struct {
		Members []struct{} `json:"members"`
	}](t, r.Body).Members, 100)
}
