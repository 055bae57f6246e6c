package play

import (
	"bytes"
	"context"
	"errors"
	"io"
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

// TestChoicesPickAsListingFollowing: from every listing the streams of
// whole games of every ruleset told their seats (those that owe a move and
// those that do not, which ParseChoices reads only in part), client.Choices
// owes and picks what client.Listing does.
func TestChoicesPickAsListingFollowing(t *testing.T) {
	everyRuleset(t, func(t *testing.T, ruleset string) {
		var listings [][]byte
		for _, s := range streamsOf(t, ruleset, 13) {
			er := client.NewEventReader(bytes.NewReader(s))
			for {
				ev, err := er.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ev.Type == "legal_moves" {
					listings = append(listings, ev.Data)
				}
			}
		}
		if owed := samePicks(t, listings); owed == 0 || owed == len(listings) {
			t.Errorf("%d of %d listings owed a move; want some and not all", owed, len(listings))
		}
	})
}
