package sqlite_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// tinyDisk mounts a tmpfs of size bytes for the test, or skips it where
// mounting is not permitted (not root, or in a container without the right).
func tinyDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a %s tmpfs to fill (%v): run as root to test a full disk", size, err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes to path until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "filling the disk: %v", err)
			break
		}
	}
	// Also the last few bytes, a chunk at a time would leave.
	for _, err := f.Write(chunk[:1]); err == nil; _, err = f.Write(chunk[:1]) {
	}
}

// TestDiskFull: on a full disk a write fails as Unavailable (it may be
// retried as it is), Ping reports the store not ready, and once there is room
// again Ping recovers by itself, the write succeeds and every move
// acknowledged before is there.
func TestDiskFull(t *testing.T) {
	dir := tinyDisk(t, "8m")
	s, err := sqlite.Open(t.Context(), filepath.Join(dir, "treasury.db"))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ctx := t.Context()
	mustCreate(t, s, "g")
	acked := int64(0)
	for ; acked < 5; acked++ {
		require.NoError(t, s.Append(ctx, move("g", acked)))
	}
	require.NoError(t, s.Ping(ctx))

	filler := filepath.Join(dir, "filler")
	fill(t, filler)
	var failed error
	for range 200 { // the log may have room for a few pages left
		if failed = s.Append(ctx, move("g", acked)); failed != nil {
			break
		}
		acked++
	}
	require.Error(t, failed, "200 moves stored on a full disk")
	requireCode(t, failed, domain.Unavailable)
	assert.Contains(t, domain.ErrorReason(failed), "retry")
	requireCode(t, s.Ping(ctx), domain.Unavailable)

	require.NoError(t, os.Remove(filler))
	deadline := time.Now().Add(5 * time.Second)
	for s.Ping(ctx) != nil {
		require.True(t, time.Now().Before(deadline), "Ping still fails with room on the disk: %v", s.Ping(ctx))
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(t, s.Append(ctx, move("g", acked)), "the same move, retried")
	acked++
	moves, err := s.Moves(ctx, "g", 0, 0)
	require.NoError(t, err)
	assert.Len(t, moves, int(acked), "every acknowledged move is stored, once")
	for i, m := range moves {
		assert.EqualValues(t, i+1, m.Seq)
	}
}
