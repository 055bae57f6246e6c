package service_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestDeleteIdleGames: a game deleted as idle is gone for every caller, even
// though the service had it in memory; a game moved since stays.
func TestDeleteIdleGames(t *testing.T) {
	st := newHeldStore()
	s := service.New(st, silvergold.NewRules())
	idle, _ := newTable(t, s)
	c, err := s.Create(t.Context(), silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: []string{"Ann"}})
	require.NoError(t, err)
	time.Sleep(time.Millisecond)
	cut := time.Now()
	time.Sleep(time.Millisecond)
	fresh, keeps := newTable(t, s)
	assert.Equal(t, 3, s.CachedGames())

	n, err := s.DeleteIdleGames(t.Context(), cut)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	for _, id := range []string{idle, c.Game.ID} {
		_, err = s.Game(t.Context(), id, domain.Public)
		assert.Equal(t, domain.NotFound, domain.ErrorCode(err), "a deleted game is still served")
		_, err = s.Authenticate(t.Context(), id, c.Host)
		assert.Equal(t, domain.NotFound, domain.ErrorCode(err), "a deleted game's credential still authenticates")
	}
	assert.Equal(t, 1, s.CachedGames())

	out := playAsync(s, fresh, 0, keeps[0], domain.PlayOptions{})
	st.waitQueued(t, 1)
	st.commit(1, nil)
	require.NoError(t, recv(t, out).err, "the game created after the cut plays on")
}
