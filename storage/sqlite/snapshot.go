package sqlite

import (
	"fmt"

	"github.com/klauspost/compress/s2"
)

// Since migration 0010 a game's snapshot is stored compressed with S2 (a
// Snappy variant; its fast mode takes 2-4 µs to compress a snapshot of 1-3 KB
// and 1-2 µs to decompress it) in games.state_s2, and games.state is empty:
// the snapshots, JSON of 1.2-2.8 KB, shrink 2.2-2.3x, so a page holds two to
// three times as many games' rows and the games in play share fewer pages,
// each of which a commit writes whole (docs/performance.md). Rows written
// before keep their snapshot in state, with state_s2 NULL, until their next
// move.

// packState returns what games.state and games.state_s2 hold for a snapshot.
func packState(state []byte) (plain, packed []byte) {
	return []byte{}, s2.Encode(nil, state)
}

// packRow is packState for the writer goroutine, the only caller: the packed
// form is written into the writer's buffer, which the next call overwrites
// (the driver copies what it binds, so the buffer is free once the
// statement has run).
func (s *Store) packRow(state []byte) (plain, packed []byte) {
	if n := s2.MaxEncodedLen(len(state)); n > len(s.packBuf) {
		s.packBuf = make([]byte, n)
	}
	return []byte{}, s2.Encode(s.packBuf, state)
}

// unpackState returns the snapshot a games row holds.
func unpackState(plain, packed []byte) ([]byte, error) {
	if packed == nil {
		return nonNil(plain), nil
	}
	state, err := s2.Decode(nil, packed)
	if err != nil {
		return nil, fmt.Errorf("decompress state: %w", err)
	}
	return nonNil(state), nil
}
