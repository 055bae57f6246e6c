package service_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestReadsOfCopies: the reads of a caller that knows a version (Known),
// made while the game's next moves are on their way to the store, read
// copies of the stored version (domain.Cloner: of the head under its lock,
// or made before a move was applied to it) instead of restoring it; every
// one answers at the stored version what a fresh server reading the store
// answers, including after a failed store, whose version is then made again
// by another move.
func TestReadsOfCopies(t *testing.T) {
	st := newHeldStore()
	s := service.New(st, silvergold.NewRules())
	id, keeps := newTable(t, s)
	ctx := t.Context()

	// reads checks every seat's listing and view read by a caller knowing
	// version known against a fresh server's, at version want.
	reads := func(known, want int64) {
		t.Helper()
		fresh := service.New(st, silvergold.NewRules())
		kctx := service.Known(ctx, id, known)
		for seat := range len(keeps) {
			v := domain.SeatViewer(seat)
			head, got, err := s.LegalMoves(kctx, id, v, seat)
			require.NoError(t, err)
			_, plain, err := fresh.LegalMoves(ctx, id, v, seat)
			require.NoError(t, err)
			assert.Equal(t, want, head.Version, "seat %d's listing", seat)
			assert.Equal(t, string(plain), string(got), "seat %d's listing at version %d", seat, want)
			gv, err := s.Game(kctx, id, v)
			require.NoError(t, err)
			fv, err := fresh.Game(ctx, id, v)
			require.NoError(t, err)
			assert.Equal(t, want, gv.Version, "seat %d's view", seat)
			assert.Equal(t, string(fv.State), string(gv.State), "seat %d's view at version %d", seat, want)
		}
	}
	play := func(seat int) <-chan outcome {
		out := playAsync(s, id, seat, keeps[seat], domain.PlayOptions{})
		st.waitQueued(t, 1)
		return out
	}

	first := play(0)
	st.commit(1, nil)
	require.NoError(t, recv(t, first).err)
	reads(1, 1) // nothing pending: a copy of the head

	second, third := play(1), play(2) // the head before the third is version 2
	reads(1, 1)
	st.commit(1, nil)
	require.NoError(t, recv(t, second).err)
	reads(2, 2) // the third still pending: the copy made before it was applied

	fourth := play(3)
	disk := errors.New("disk full")
	st.commit(1, disk)
	st.commit(1, nil)
	assert.ErrorIs(t, recv(t, third).err, disk)
	assert.Equal(t, domain.Conflict, domain.ErrorCode(recv(t, fourth).err))
	reads(2, 2)

	// Version 3 is made again, by seat 3's keep: no copy of the first
	// version 3 (seat 2's keep, never stored) may answer for it.
	again := play(3)
	reads(2, 2)
	st.commit(1, nil)
	require.NoError(t, recv(t, again).err)
	reads(3, 3)
	last := play(2)
	reads(3, 3)
	st.commit(1, nil)
	require.NoError(t, recv(t, last).err)
	reads(4, 4)
}
