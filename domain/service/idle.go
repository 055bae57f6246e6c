package service

import (
	"context"
	"time"
)

// DeleteIdleGames deletes, in the store, every game with no move since before
// (a game without moves: since its creation), and forgets those the service
// holds in memory, so that they are not served from there. It returns how
// many games the store deleted. A game's record can be exported
// (GET /v1/games/{id}/record) until it is deleted.
//
// A move that races the sweep on a game idle that long is refused as the
// store no longer has the game (NotFound), and the game is read again.
func (s *Games) DeleteIdleGames(ctx context.Context, before time.Time) (int, error) {
	n, err := s.store.DeleteIdleGames(ctx, before)
	if n > 0 {
		s.forgetIdle(before)
	}
	return n, err
}

// forgetIdle drops from memory the games whose head was last moved before
// before. A game in use right now is only marked to be read again: its users
// then find it gone.
func (s *Games) forgetIdle(before time.Time) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	for id, t := range s.entries {
		if !t.mu.TryLock() {
			continue // a move in progress: it is not idle
		}
		idle := t.g != nil && t.pending == 0 && t.rec.UpdatedAt.Before(before)
		if idle {
			t.g, t.stale = nil, false
			t.forgetCreds()
		}
		t.mu.Unlock()
		if idle && t.refs == 0 {
			s.lru.Remove(t.elem)
			delete(s.entries, id)
		}
	}
}
