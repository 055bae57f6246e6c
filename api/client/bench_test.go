package client

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// recordedStream is the event stream one seat of a whole 4-player Silver &
// Gold game read, following it with ?legal_moves=true as the load run's
// clients do (streamsOf in scripts/internal/play recorded it: 572 events,
// 55 of them listings, 32 of those owing a move).
func recordedStream(b *testing.B) []byte {
	f, err := os.Open("testdata/silver-and-gold-seat.events.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	s, err := io.ReadAll(z)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkEventReader reads the recorded stream's events. One op is the
// whole stream.
func BenchmarkEventReader(b *testing.B) {
	s := recordedStream(b)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		er := NewEventReader(bytes.NewReader(s))
		for {
			if _, err := er.Next(); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

// BenchmarkChoices reads the recorded stream's listings as a following
// seat does: each one parsed, and a move picked from each one that owes
// one. One op is the stream's listings.
func BenchmarkChoices(b *testing.B) {
	var listings [][]byte
	size := 0
	er := NewEventReader(bytes.NewReader(recordedStream(b)))
	for {
		ev, err := er.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) || len(listings) == 0 {
				b.Fatalf("%d listings read, then %v", len(listings), err)
			}
			break
		}
		if ev.Type == "legal_moves" {
			listings = append(listings, ev.Data)
			size += len(ev.Data)
		}
	}
	b.SetBytes(int64(size))
	r := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		for _, l := range listings {
			c, err := ParseChoices(l)
			if err != nil {
				b.Fatal(err)
			}
			if !c.Owed() {
				continue
			}
			if _, _, _, err := c.Pick(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}
