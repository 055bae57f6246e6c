package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// testJoinCodes: a game keeps the first code it is given, a code opens one
// game only, and it goes with its game.
func testJoinCodes(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)
	ctx := t.Context()
	MustCreate(t, s, "a")
	MustCreate(t, s, "b")

	_, err := s.GameOfJoinCode(ctx, "K7QM4T")
	RequireCode(t, err, domain.NotFound)
	code, err := s.SetJoinCode(ctx, "a", "K7QM4T")
	require.NoError(t, err)
	assert.Equal(t, "K7QM4T", code)
	code, err = s.SetJoinCode(ctx, "a", "ZZZZZZ")
	require.NoError(t, err)
	assert.Equal(t, "K7QM4T", code, "a game keeps its code")
	id, err := s.GameOfJoinCode(ctx, "K7QM4T")
	require.NoError(t, err)
	assert.Equal(t, "a", id)

	_, err = s.SetJoinCode(ctx, "b", "K7QM4T")
	RequireCode(t, err, domain.Conflict)
	_, err = s.SetJoinCode(ctx, "nope", "AAAAAA")
	RequireCode(t, err, domain.NotFound)

	n, err := s.DeleteIdleGames(ctx, T0.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, 2, n)
	_, err = s.GameOfJoinCode(ctx, "K7QM4T")
	RequireCode(t, err, domain.NotFound)
}

// testSetSeat: a seat taken on first use or picked keeps its holder; of
// two requests for one free seat at once, one wins; the host's re-issue
// replaces any credential.
func testSetSeat(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)
	ctx := t.Context()
	MustCreate(t, s, "g")

	c, err := s.Credentials(ctx, "g")
	require.NoError(t, err)
	assert.False(t, c.IsTaken(0))

	// First use of the seat's own credential: taken, same hash.
	require.NoError(t, s.SetSeat(ctx, "g", 0, "seat0-g", true))
	require.NoError(t, s.SetSeat(ctx, "g", 0, "seat0-g", true), "the holder asking again is no conflict")
	RequireCode(t, s.SetSeat(ctx, "g", 0, "other", true), domain.Conflict)
	c, err = s.Credentials(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, false}, c.Taken)
	assert.Equal(t, "seat0-g", c.SeatHashes[0])

	// The host issues it again: replaced whoever holds it.
	require.NoError(t, s.SetSeat(ctx, "g", 0, "fresh", false))
	c, err = s.Credentials(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, "fresh", c.SeatHashes[0])

	RequireCode(t, s.SetSeat(ctx, "g", 7, "x", true), domain.NotFound)
	RequireCode(t, s.SetSeat(ctx, "nope", 0, "x", true), domain.NotFound)

	// Eight players pick seat 1 at once: one gets it.
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		won  []string
		errs []error
	)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := "picker-" + string(rune('a'+i))
			err := s.SetSeat(ctx, "g", 1, h, true)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				won = append(won, h)
			} else {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	require.Len(t, won, 1, "errors: %v", errs)
	for _, err := range errs {
		RequireCode(t, err, domain.Conflict)
	}
	c, err = s.Credentials(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, won[0], c.SeatHashes[1])
}

// testNextGame: a game gets one next game; a second request stores nothing
// and names the first's.
func testNextGame(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)
	ctx := t.Context()
	MustCreate(t, s, "old")
	next, err := s.NextGame(ctx, "old")
	require.NoError(t, err)
	assert.Empty(t, next)
	_, err = s.NextGame(ctx, "nope")
	RequireCode(t, err, domain.NotFound)

	var (
		wg  sync.WaitGroup
		got [4]string
		ers [4]error
	)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, creds, cat := NewGame("new-" + string(rune('a'+i)))
			got[i], ers[i] = s.CreateNextGame(ctx, "old", g, creds, cat)
		}()
	}
	wg.Wait()
	for i := range got {
		require.NoError(t, ers[i])
		assert.Equal(t, got[0], got[i], "every request names the one next game")
	}
	next, err = s.NextGame(ctx, "old")
	require.NoError(t, err)
	assert.Equal(t, got[0], next)
	stored := 0
	for i := range got {
		if _, err := s.Game(ctx, "new-"+string(rune('a'+i))); err == nil {
			stored++
		}
	}
	assert.Equal(t, 1, stored, "only the next game is stored")
	_, err = s.Credentials(ctx, next)
	require.NoError(t, err)

	g, creds, cat := NewGame("orphan")
	_, err = s.CreateNextGame(ctx, "nope", g, creds, cat)
	RequireCode(t, err, domain.NotFound)
}
