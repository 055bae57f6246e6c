package sqlite

import (
	"bytes"
	"fmt"
	"testing"
)

// TestPackRowIsPackState holds the writer's packing into its own buffer to
// packState's: the same bytes for snapshots that grow and shrink from one
// call to the next, each of which unpacks to the snapshot.
func TestPackRowIsPackState(t *testing.T) {
	s := &Store{}
	for _, n := range []int{0, 1, 1500, 40, 3000, 2999, 0, 12} {
		state := bytes.Repeat(fmt.Appendf(nil, `{"n":%d,"x":"%d"},`, n, n*7), n/14+1)[:n]
		wantPlain, wantPacked := packState(state)
		plain, packed := s.packRow(state)
		if !bytes.Equal(plain, wantPlain) || plain == nil || !bytes.Equal(packed, wantPacked) {
			t.Fatalf("snapshot of %d bytes: packRow %q, %x; packState %q, %x", n, plain, packed, wantPlain, wantPacked)
		}
		got, err := unpackState(plain, packed)
		if err != nil || !bytes.Equal(got, state) {
			t.Fatalf("snapshot of %d bytes unpacks to %q, %v", n, got, err)
		}
	}
}
