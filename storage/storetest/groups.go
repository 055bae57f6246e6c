package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// groupStore opens a store and skips the test when it keeps no groups.
func groupStore(t *testing.T, open func(t *testing.T) domain.Store) domain.GroupStore {
	s, ok := open(t).(domain.GroupStore)
	if !ok {
		t.Skip("the store keeps no groups")
	}
	return s
}

// NewPlay returns a play of members at T0 plus minutes, the first member
// winning with 10 against 5 each.
func NewPlay(id string, minutes int, members ...string) domain.Play {
	p := domain.Play{ID: id, Source: domain.PlayFromSheet, Ruleset: "silver-and-gold", Mode: domain.Physical,
		Options: json.RawMessage(`{}`), PlayedAt: T0.Add(time.Duration(minutes) * time.Minute), Duration: 1800}
	for i, m := range members {
		pl := domain.PlayPlayer{Member: m, Name: "name-" + m, Seat: i, Score: 5, Rank: 2, DecidedBy: "total",
			Lines: []domain.ScoreLine{{Line: "coins", Value: 5}}}
		if i == 0 {
			pl.Score, pl.Rank, pl.Winner, pl.DecidedBy, pl.Start = 10, 1, true, "", true
		}
		p.Players = append(p.Players, pl)
	}
	return p
}

func testGroups(t *testing.T, open func(t *testing.T) domain.Store) {
	group := domain.Group{ID: "grp", Name: "Friday", CreatedAt: T0}
	member := func(id, name string) domain.Member {
		return domain.Member{ID: id, Name: name, NameKey: "key-" + name, JoinedAt: T0.Add(time.Duration(len(id)) * time.Second)}
	}
	setUp := func(t *testing.T) domain.GroupStore {
		s := groupStore(t, open)
		require.NoError(t, s.CreateGroup(t.Context(), group, "hash"))
		for _, m := range []domain.Member{member("a", "Ann"), member("bb", "Ben"), member("ccc", "Cid")} {
			require.NoError(t, s.AddMember(t.Context(), "grp", m))
		}
		return s
	}

	t.Run("group, members and revision", func(t *testing.T) {
		s := setUp(t)
		g, hash, err := s.Group(t.Context(), "grp")
		require.NoError(t, err)
		assert.Equal(t, "hash", hash)
		assert.Equal(t, group.Name, g.Name)
		assert.True(t, g.CreatedAt.Equal(T0), "created_at %v", g.CreatedAt)
		assert.Equal(t, int64(3), g.Revision, "each member added is a change")
		ms, err := s.Members(t.Context(), "grp")
		require.NoError(t, err)
		require.Len(t, ms, 3)
		assert.Equal(t, []string{"Ann", "Ben", "Cid"}, []string{ms[0].Name, ms[1].Name, ms[2].Name})

		RequireCode(t, s.AddMember(t.Context(), "grp", member("d", "Ann")), domain.Conflict)
		RequireCode(t, s.CreateGroup(t.Context(), group, "other"), domain.Conflict)
		_, _, err = s.Group(t.Context(), "nope")
		RequireCode(t, err, domain.NotFound)
		RequireCode(t, s.AddMember(t.Context(), "nope", member("z", "Zed")), domain.NotFound)
	})

	t.Run("plays: pages latest first, by member and game, one by id", func(t *testing.T) {
		s := setUp(t)
		require.NoError(t, s.SavePlay(t.Context(), "grp", NewPlay("p1", 1, "a", "bb")))
		require.NoError(t, s.SavePlay(t.Context(), "grp", NewPlay("p2", 2, "bb", "ccc")))
		p3 := NewPlay("p3", 3, "ccc", "a")
		p3.Ruleset = "colorful-treasure"
		require.NoError(t, s.SavePlay(t.Context(), "grp", p3))
		RequireCode(t, s.SavePlay(t.Context(), "grp", NewPlay("p1", 9, "a")), domain.Conflict)

		ids := func(ps []domain.Play, err error) []string {
			require.NoError(t, err)
			out := []string{}
			for _, p := range ps {
				out = append(out, p.ID)
			}
			return out
		}
		assert.Equal(t, []string{"p3", "p2", "p1"}, ids(s.Plays(t.Context(), "grp", domain.PlayQuery{Limit: 10})))
		page, err := s.Plays(t.Context(), "grp", domain.PlayQuery{Limit: 2})
		require.NoError(t, err)
		last := page[len(page)-1]
		assert.Equal(t, []string{"p1"}, ids(s.Plays(t.Context(), "grp", domain.PlayQuery{Limit: 2, Before: domain.PlayCursor{PlayedAt: last.PlayedAt, ID: last.ID}})))
		assert.Equal(t, []string{"p3", "p1"}, ids(s.Plays(t.Context(), "grp", domain.PlayQuery{Member: "a", Limit: 10})))
		assert.Equal(t, []string{"p3"}, ids(s.Plays(t.Context(), "grp", domain.PlayQuery{Ruleset: "colorful-treasure", Limit: 10})))
		assert.Equal(t, []string{"p1", "p2", "p3"}, ids(s.AllPlays(t.Context(), "grp")))

		got, err := s.Play(t.Context(), "grp", "p1")
		require.NoError(t, err)
		want := NewPlay("p1", 1, "a", "bb")
		assert.True(t, want.PlayedAt.Equal(got.PlayedAt))
		got.PlayedAt = want.PlayedAt
		assert.Equal(t, want, got, "a play reads back as it was kept")
		n, err := s.CountPlays(t.Context(), "grp")
		require.NoError(t, err)
		assert.Equal(t, 3, n)

		require.NoError(t, s.DeletePlay(t.Context(), "grp", "p2"))
		RequireCode(t, s.DeletePlay(t.Context(), "grp", "p2"), domain.NotFound)
		assert.Equal(t, []string{"p3", "p1"}, ids(s.Plays(t.Context(), "grp", domain.PlayQuery{Limit: 10})))
		assert.Equal(t, []string{"p3"}, ids(s.Plays(t.Context(), "grp", domain.PlayQuery{Member: "ccc", Limit: 10})))
		_, err = s.Play(t.Context(), "grp", "p2")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("deleting a member deletes their plays", func(t *testing.T) {
		s := setUp(t)
		require.NoError(t, s.SavePlay(t.Context(), "grp", NewPlay("p1", 1, "a", "bb")))
		require.NoError(t, s.SavePlay(t.Context(), "grp", NewPlay("p2", 2, "bb", "ccc")))
		require.NoError(t, s.SavePlay(t.Context(), "grp", NewPlay("p3", 3, "ccc")))
		before, _, _ := s.Group(t.Context(), "grp")
		n, err := s.DeleteMember(t.Context(), "grp", "bb")
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		after, _, _ := s.Group(t.Context(), "grp")
		assert.Greater(t, after.Revision, before.Revision)
		all, err := s.AllPlays(t.Context(), "grp")
		require.NoError(t, err)
		require.Len(t, all, 1)
		assert.Equal(t, "p3", all[0].ID)
		mine, err := s.Plays(t.Context(), "grp", domain.PlayQuery{Member: "a", Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, mine, "Ann's play with Ben went with him")
		ms, _ := s.Members(t.Context(), "grp")
		assert.Len(t, ms, 2)
		_, err = s.DeleteMember(t.Context(), "grp", "bb")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("linked games are forgotten when their play is kept", func(t *testing.T) {
		s := setUp(t)
		require.NoError(t, s.LinkGame(t.Context(), domain.GroupGame{GameID: "g1", GroupID: "grp", Members: []string{"a", "bb"}}))
		require.NoError(t, s.LinkGame(t.Context(), domain.GroupGame{GameID: "g2", GroupID: "grp", Members: []string{"ccc", "a"}}))
		RequireCode(t, s.LinkGame(t.Context(), domain.GroupGame{GameID: "g1", GroupID: "grp"}), domain.Conflict)
		gs, err := s.GroupGames(t.Context(), "grp")
		require.NoError(t, err)
		assert.Equal(t, []domain.GroupGame{{GameID: "g1", GroupID: "grp", Members: []string{"a", "bb"}},
			{GameID: "g2", GroupID: "grp", Members: []string{"ccc", "a"}}}, gs)
		linked, err := s.LinkedGroups(t.Context(), "", 10)
		require.NoError(t, err)
		assert.Equal(t, []string{"grp"}, linked)

		p := NewPlay("g1", 1, "a", "bb")
		p.Source, p.GameID = domain.PlayFromGame, "g1"
		require.NoError(t, s.SavePlay(t.Context(), "grp", p))
		require.NoError(t, s.UnlinkGame(t.Context(), "g2"))
		gs, err = s.GroupGames(t.Context(), "grp")
		require.NoError(t, err)
		assert.Empty(t, gs)
		linked, err = s.LinkedGroups(t.Context(), "", 10)
		require.NoError(t, err)
		assert.Empty(t, linked)
	})

	t.Run("statistics are kept at the group's revision only", func(t *testing.T) {
		s := setUp(t) // revision 3
		rev, raw, err := s.GroupStats(t.Context(), "grp")
		require.NoError(t, err)
		assert.Equal(t, int64(-1), rev)
		assert.Nil(t, raw)
		require.NoError(t, s.SaveGroupStats(t.Context(), "grp", 2, []byte(`{"old":true}`)))
		rev, _, _ = s.GroupStats(t.Context(), "grp")
		assert.Equal(t, int64(-1), rev, "statistics of a revision the group has left are not kept")
		require.NoError(t, s.SaveGroupStats(t.Context(), "grp", 3, []byte(`{"plays":0}`)))
		rev, raw, err = s.GroupStats(t.Context(), "grp")
		require.NoError(t, err)
		assert.Equal(t, int64(3), rev)
		assert.JSONEq(t, `{"plays":0}`, string(raw))
		_, _, err = s.GroupStats(t.Context(), "nope")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("a whole group imports", func(t *testing.T) {
		s := groupStore(t, open)
		e := domain.GroupExport{Group: domain.Group{ID: "imp", Name: "Moved", CreatedAt: T0, Revision: 7}, CredentialHash: "h",
			Members: []domain.Member{member("a", "Ann"), member("bb", "Ben")},
			Plays:   []domain.Play{NewPlay("p1", 1, "a", "bb"), NewPlay("p2", 2, "bb")},
			Games:   []domain.GroupGame{{GameID: "g9", GroupID: "imp", Members: []string{"bb", "a"}}}}
		require.NoError(t, s.ImportGroup(t.Context(), e))
		g, hash, err := s.Group(t.Context(), "imp")
		require.NoError(t, err)
		assert.Equal(t, "h", hash)
		assert.Equal(t, int64(7), g.Revision)
		ms, _ := s.Members(t.Context(), "imp")
		assert.Len(t, ms, 2)
		ps, _ := s.AllPlays(t.Context(), "imp")
		assert.Len(t, ps, 2)
		mine, _ := s.Plays(t.Context(), "imp", domain.PlayQuery{Member: "bb", Limit: 5})
		assert.Len(t, mine, 2)
		gs, _ := s.GroupGames(t.Context(), "imp")
		assert.Equal(t, e.Games, gs)
		ids, err := s.GroupIDs(t.Context(), "", 10)
		require.NoError(t, err)
		assert.Equal(t, []string{"imp"}, ids)

		RequireCode(t, s.ImportGroup(t.Context(), e), domain.Conflict)
		e.Group.ID = "imp2"
		e.Members = append(e.Members, member("x", "Ann"))
		RequireCode(t, s.ImportGroup(t.Context(), e), domain.Conflict)
		_, _, err = s.Group(t.Context(), "imp2")
		RequireCode(t, err, domain.NotFound) // all or nothing
	})
}
