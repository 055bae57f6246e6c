package sqlite

// A group commit often holds several moves of one game: the service queues a
// game's next move before the last one is committed (QueueAppend). Each
// append inserts its move, but the game's row (version, snapshot, time) is
// set once per run, by the run's last append, to that append's snapshot, as
// the PostgreSQL store does (storage/postgres, appendSQL): one statement per
// run instead of one per move. A run is a game's appends in one group that
// each expect the version the one before stored, with no write of another
// kind between them (such a write may read or change the game's row). The
// run's last append updates the row only if the game is still at the version
// the run's first append expected, so the version check of every append of
// the run is made, once, by that update; if it fails the group is applied
// again one write at a time (commitEach), where every append sets the row
// itself and so each one's error is its own.

// runStep is an append's place in its game's run, set by planRuns for the
// group the append is first applied in.
type runStep struct {
	game        string
	expect, seq int64
	rowLater    bool  // a later append of the run sets the game's row
	runExpect   int64 // the version the run's first append expected
}

// planRuns finds the runs among batch's appends.
func (s *Store) planRuns(batch []*request) {
	last := s.runEnds // game -> the run's latest append so far
	clear(last)
	for _, r := range batch {
		m := r.run
		if m == nil {
			clear(last)
			continue
		}
		m.alone()
		if prev := last[m.game]; prev != nil && prev.seq == m.expect {
			prev.rowLater = true
			m.runExpect = prev.runExpect
		}
		last[m.game] = m
	}
	clear(last)
}

// alone makes the append set its game's row itself, as a run of its own.
func (m *runStep) alone() {
	if m != nil {
		m.rowLater, m.runExpect = false, m.expect
	}
}
