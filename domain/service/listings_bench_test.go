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

// BenchmarkStreamListings reads, after every move of physical games, what
// the event streams of the four seats read (issue 27): each seat's
// listing at the version it was told of (Known), in its two parts. One op
// is one move's four reads; the moves themselves are played untimed.
func BenchmarkStreamListings(b *testing.B) {
	s, _ := newService(b, filepath.Join(b.TempDir(), "t.db"))
	ctx := b.Context()
	var (
		m    *mirrored
		seed uint64
	)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if m == nil || len(m.next) == 0 {
			seed++
			var err error
			if m, err = newMirrored(ctx, s, seed); err == nil {
				err = m.choose(1000)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		body := m.next[0]
		m.next = m.next[1:]
		p, err := s.Play(ctx, m.id, host, body, domain.PlayOptions{Minimal: true})
		if err != nil {
			b.Fatal(err)
		}
		kctx := service.Known(ctx, m.id, p.Seq)
		b.StartTimer()
		for seat := range len(players) {
			if _, _, _, err := s.LegalMovesParts(kctx, m.id, domain.SeatViewer(seat), seat); err != nil {
				b.Fatal(err)
			}
		}
	}
}
