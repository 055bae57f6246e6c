package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestGroupStatsAcrossServices: two servers on one store. Each answers with
// the statistics of the group as it stands, whoever changed it: from
// memory after its own change, from the statistics kept in the store when
// the group has not changed since, from every play after another's change.
func TestGroupStatsAcrossServices(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	require.NoError(t, err)
	defer s.Close()
	a, b := groups.New(s, nil), groups.New(s, nil)
	g, _, err := a.Create(ctx, "Friday")
	require.NoError(t, err)
	ann, err := a.AddMember(ctx, g.ID, "Ann")
	require.NoError(t, err)
	ben, err := a.AddMember(ctx, g.ID, "Ben")
	require.NoError(t, err)
	save := func(svc *groups.Service, id string, winner domain.Member) {
		p := domain.Play{ID: id, Source: domain.PlayFromSheet, Ruleset: "silver-and-gold", Mode: domain.Physical, Options: json.RawMessage(`{}`),
			PlayedAt: time.Date(2026, 11, 1, 19, 0, 0, 0, time.UTC).Add(time.Duration(len(id)) * time.Hour)}
		for seat, m := range []domain.Member{ann, ben} {
			pl := domain.PlayPlayer{Member: m.ID, Name: m.Name, Seat: seat, Score: 10, Rank: 2}
			if m.ID == winner.ID {
				pl.Score, pl.Rank, pl.Winner = 20, 1, true
			}
			p.Players = append(p.Players, pl)
		}
		require.NoError(t, svc.Store().SavePlay(ctx, g.ID, p))
	}
	wins := func(svc *groups.Service) string {
		st, err := svc.Stats(ctx, g.ID)
		require.NoError(t, err)
		return fmt.Sprintf("%d plays, Ann %d, Ben %d", st.Plays, st.Members[0].Wins, st.Members[1].Wins)
	}

	save(a, "p1", ann)
	assert.Equal(t, "1 plays, Ann 1, Ben 0", wins(a))
	assert.Equal(t, "1 plays, Ann 1, Ben 0", wins(b), "b reads the statistics a kept")
	save(b, "p22", ben) // through the store: another server's change
	assert.Equal(t, "2 plays, Ann 1, Ben 1", wins(a))
	require.NoError(t, b.DeletePlay(ctx, g.ID, "p1"))
	assert.Equal(t, "1 plays, Ann 0, Ben 1", wins(b))
	assert.Equal(t, "1 plays, Ann 0, Ben 1", wins(a))
	_, err = a.DeleteMember(ctx, g.ID, ben.ID)
	require.NoError(t, err)
	st, err := b.Stats(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, 0, st.Plays, "Ben's plays went with him")
	assert.Len(t, st.Members, 1)
}
