package play

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/client"
)

// listingsOf plays a whole game of ruleset, its seats reading their
// listings by GET, and returns every listing read.
func listingsOf(t testing.TB, ruleset string, seed uint64) [][]byte {
	var (
		mu       sync.Mutex
		listings [][]byte
	)
	keep := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, "/legal-moves") {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			if rec.Code == http.StatusOK {
				mu.Lock()
				listings = append(listings, bytes.Clone(rec.Body.Bytes()))
				mu.Unlock()
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := Options{Client: serve(t, keep), Ruleset: ruleset, Idempotency: true, Poll: 50 * time.Millisecond}
	if _, err := Play(ctx, o, NewRecorder(), seed); err != nil {
		t.Fatal(err)
	}
	if len(listings) < 10 {
		t.Fatalf("%d listings read in a whole game", len(listings))
	}
	return listings
}

// TestChoicesPickAsListing: the seats choose from client.Choices, which
// reads a listing without decoding its entries but the one it picks; from
// every listing of whole games of every ruleset, it picks what
// client.Listing, decoded whole, picks with the same source, and owes a move
// when Listing does.
func TestChoicesPickAsListing(t *testing.T) {
	everyRuleset(t, func(t *testing.T, ruleset string) {
		if samePicks(t, listingsOf(t, ruleset, 11)) == 0 {
			t.Error("no listing owed a move")
		}
	})
}

// samePicks fails t unless client.Choices owes and picks what
// client.Listing does from each of listings, with the same sources; it
// returns how many owed a move.
func samePicks(t *testing.T, listings [][]byte) (owed int) {
	t.Helper()
	for _, b := range listings {
		var l client.Listing
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		c, err := client.ParseChoices(b)
		if err != nil {
			t.Fatal(err)
		}
		if c.Owed() != l.Owed() || c.Version != l.Version {
			t.Fatalf("Choices owed %v at %d, Listing %v at %d: %s", c.Owed(), c.Version, l.Owed(), l.Version, b)
		}
		if l.Owed() {
			owed++
		}
		for seed := range uint64(8) {
			wm, wt, wok, werr := l.Pick(rand.New(rand.NewPCG(seed, 1)))
			gm, gt, gok, gerr := c.Pick(rand.New(rand.NewPCG(seed, 1)))
			if werr != nil || gerr != nil || !bytes.Equal(wm, gm) || wt != gt || wok != gok {
				t.Fatalf("seed %d: Choices picked %s %q %v %v, Listing %s %q %v %v, from %s", seed, gm, gt, gok, gerr, wm, wt, wok, werr, b)
			}
		}
	}
	return owed
}

// BenchmarkPick reads every listing of a whole Silver & Gold game and picks
// a move from it, as a load client does after every listing it is told:
// decoded whole into client.Listing (listing) or read by client.Choices
// (choices). One op is the whole game's listings.
func BenchmarkPick(b *testing.B) {
	listings := listingsOf(b, "silver-and-gold", 11)
	size := 0
	for _, l := range listings {
		size += len(l)
	}
	b.Run("listing", func(b *testing.B) {
		b.SetBytes(int64(size))
		r := rand.New(rand.NewPCG(1, 1))
		for b.Loop() {
			for _, raw := range listings {
				var l client.Listing
				if err := json.Unmarshal(raw, &l); err != nil {
					b.Fatal(err)
				}
				if _, _, _, err := l.Pick(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("choices", func(b *testing.B) {
		b.SetBytes(int64(size))
		r := rand.New(rand.NewPCG(1, 1))
		for b.Loop() {
			for _, raw := range listings {
				c, err := client.ParseChoices(raw)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, _, err := c.Pick(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
