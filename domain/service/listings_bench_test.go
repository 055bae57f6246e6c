package service_test

import (
	"path/filepath"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
)

// BenchmarkListingKept reads a seat's listing as its event stream does after
// another seat's move (Known, the listing kept since its key is unchanged):
// what the service adds to the kept bytes (the head, the listing key, the
// take-backs the seat may make).
func BenchmarkListingKept(b *testing.B) {
	s, _ := newService(b, filepath.Join(b.TempDir(), "t.db"))
	id, keeps := newTable(b, s)
	ctx := b.Context()
	p, err := s.Play(ctx, id, domain.Actor{Seat: 0}, keeps[0], domain.PlayOptions{})
	if err != nil {
		b.Fatal(err)
	}
	kctx := service.Known(ctx, id, p.Seq)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.LegalMoves(kctx, id, domain.SeatViewer(0), 0); err != nil {
			b.Fatal(err)
		}
	}
}
