package play

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/scripts/internal/testserver"
)

// teeBody is a stream's body that keeps a copy of what is read from it.
type teeBody struct {
	io.ReadCloser
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (b teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	b.buf.Write(p[:n])
	b.mu.Unlock()
	return n, err
}

// teeStreams is a transport that keeps a copy of every event stream read
// through it.
type teeStreams struct {
	mu      sync.Mutex
	streams []*bytes.Buffer
}

func (t *teeStreams) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !strings.HasSuffix(req.URL.Path, "/events") {
		return resp, err
	}
	buf := new(bytes.Buffer)
	t.mu.Lock()
	t.streams = append(t.streams, buf)
	t.mu.Unlock()
	resp.Body = teeBody{ReadCloser: resp.Body, mu: &t.mu, buf: buf}
	return resp, nil
}

// streamsOf plays a whole game of ruleset, its seats following the event
// stream with their legal moves (Options.Stream), and returns every stream
// as the seats read it.
func streamsOf(t testing.TB, ruleset string, seed uint64) [][]byte {
	tee := &teeStreams{}
	cl, err := client.NewClientWithResponses(testserver.URL(t, api.Options{}, nil), client.WithHTTPClient(&http.Client{Transport: tee}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := Options{Client: cl, Ruleset: ruleset, Idempotency: true, Stream: true}
	if _, err := Play(ctx, o, NewRecorder(), seed); err != nil {
		t.Fatal(err)
	}
	tee.mu.Lock()
	defer tee.mu.Unlock()
	out := make([][]byte, len(tee.streams))
	for i, b := range tee.streams {
		out[i] = bytes.Clone(b.Bytes())
	}
	if len(out) < Seats {
		t.Fatalf("%d streams in a whole game", len(out))
	}
	return out
}

// BenchmarkFollow reads the event streams of a whole Silver & Gold game's
// four seats as a following seat does (Options.Stream): the events read
// with client.EventsOf, only the listings handed over, each listing parsed
// (client.ParseChoices) and a move picked from those that owe one. One op
// is the four streams; the network is not in it.
func BenchmarkFollow(b *testing.B) {
	streams := streamsOf(b, "silver-and-gold", 11)
	size := 0
	for _, s := range streams {
		size += len(s)
	}
	b.SetBytes(int64(size))
	r := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		for _, s := range streams {
			events, ended := client.EventsOf(b.Context(), bytes.NewReader(s), func(typ string) bool { return typ == "legal_moves" })
		read:
			for {
				select {
				case ev := <-events:
					c, err := client.ParseChoices(ev.Data)
					if err != nil {
						b.Fatal(err)
					}
					if !c.Owed() {
						continue
					}
					if _, _, _, err := c.Pick(r); err != nil {
						b.Fatal(err)
					}
				case err := <-ended:
					if !errors.Is(err, io.EOF) {
						b.Fatal(err)
					}
					break read
				}
			}
		}
	}
}
