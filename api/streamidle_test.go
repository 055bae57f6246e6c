package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/domain"
)

// rawStream opens an event stream on a bare connection (dial, nil: the
// default) and reads it until the snapshot has come, then leaves it: the
// client holds no goroutine for it.
func rawStream(t *testing.T, s *opsServer, path string, dial *net.Dialer) net.Conn {
	t.Helper()
	u, err := url.Parse(s.HTTP.URL)
	if err != nil {
		t.Fatal(err)
	}
	if dial == nil {
		dial = &net.Dialer{}
	}
	c, err := dial.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", path, u.Host)
	readUntil(t, c, "event: snapshot")
	return c
}

// readUntil reads c until what came holds want and the end of its event,
// failing the test after a while.
func readUntil(t *testing.T, c net.Conn, want string) []byte {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	var got []byte
	buf := make([]byte, 4096)
	for {
		if i := bytes.Index(got, []byte(want)); i >= 0 && bytes.Contains(got[i:], []byte("\n\n")) {
			return got
		}
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("waiting for %q: %v after %q", want, err, got[max(0, len(got)-300):])
		}
		got = append(got, buf[:n]...)
	}
}

// TestEventStreamsIdleHoldNoGoroutine: an idle stream holds no goroutine
// on the server (it waits for the game's updates, heartbeats and the client's
// leaving without one), yet every stream hears the next move, and the
// streams of clients who leave end and free their places.
func TestEventStreamsIdleHoldNoGoroutine(t *testing.T) {
	const streams = 200
	s := startOps(t, func(o *api.Options) { o.StreamsPerAddress, o.MaxStreams = -1, -1 }, noteRules{})
	p := createNotes(t, s, 2, "")
	path := "/v1/games/" + p.id + "/events"
	rawStream(t, s, path, nil) // the first starts what all streams share
	settle := func(limit int) int {
		deadline := time.Now().Add(10 * time.Second)
		for {
			runtime.GC()
			n := runtime.NumGoroutine()
			if n <= limit || time.Now().After(deadline) {
				return n
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	before := runtime.NumGoroutine()
	for range 10 { // what starting the server left running may still be ending
		time.Sleep(20 * time.Millisecond)
		before = min(before, runtime.NumGoroutine())
	}
	conns := make([]net.Conn, streams)
	for i := range conns {
		conns[i] = rawStream(t, s, path, nil)
	}
	// Each stream held a handler goroutine and net/http's reader of its
	// connection; a handful more (a run still finishing) is no stream's.
	if n := settle(before + streams/20); n > before+streams/20 {
		t.Errorf("%d goroutines with %d idle streams open, %d before: a goroutine per stream", n, streams, before)
	}
	if n := s.metric(t, "treasury_event_streams"); n != streams+1 {
		t.Errorf("treasury_event_streams %v, want %d", n, streams+1)
	}

	p.note(t, p.seats[0])
	for i, c := range conns {
		if got := readUntil(t, c, "event: move"); !bytes.Contains(got, []byte("id: 1\n")) {
			t.Fatalf("stream %d: the move without its id: %q", i, got)
		}
	}

	for _, c := range conns {
		c.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.metric(t, "treasury_event_streams") > 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := s.metric(t, "treasury_event_streams"); n != 1 {
		t.Errorf("treasury_event_streams %v after %d clients left, want 1", n, streams)
	}
}

// TestEventStreamStalledReader: a client that never reads is cut off once
// its writes time out, while another stream of the same game hears every
// move meanwhile, and goes on after. With a write timeout longer than the
// test, the stalled stream's writes block for good once the socket buffers
// are full (4 MB here), and the other stream still hears every move.
func TestEventStreamStalledReader(t *testing.T) {
	t.Run("blocked", func(t *testing.T) {
		s, p, _, reader := stalledStreams(t, time.Hour)
		const moves = 600 // 9.6 MB, more than the stalled client's socket buffers hold
		for i := range moves {
			playNote(t, s, p, i)
			wantMove(t, reader, i+1)
		}
		if n := s.metric(t, "treasury_event_streams"); n != 2 {
			t.Errorf("treasury_event_streams %v, want 2 (the stalled one blocked, not cut off)", n)
		}
	})
	t.Run("cut off", func(t *testing.T) {
		s, p, stalled, reader := stalledStreams(t, 2*time.Second)
		const most = 3000 // 48 MB, many times the socket buffers
		played := 0
		for s.metric(t, "treasury_event_streams") > 1 {
			if played == most {
				t.Fatalf("the stalled stream is still open after %d moves of 16 KB", played)
			}
			playNote(t, s, p, played)
			played++
			wantMove(t, reader, played)
		}
		t.Logf("the stalled stream was cut off after %d moves", played)
		playNote(t, s, p, played)
		wantMove(t, reader, played+1)

		// The stalled client finds its connection closed once it reads.
		_ = stalled.SetReadDeadline(time.Now().Add(20 * time.Second))
		if _, err := io.Copy(io.Discard, stalled); err != nil {
			t.Errorf("the stalled stream's connection did not end: %v", err)
		}
	})
}

// stalledStreams opens two streams of a game of notes of 16 KB on a server
// with the write timeout given: one on a connection that reads nothing
// after the snapshot, one read as the events come.
func stalledStreams(t *testing.T, timeout time.Duration) (*opsServer, player, net.Conn, *stream) {
	t.Helper()
	s := startOps(t, func(o *api.Options) { o.StreamWriteTimeout = timeout }, noteRules{pad: 16 << 10})
	p := createNotes(t, s, 2, "")
	path := "/v1/games/" + p.id + "/events"
	// A small receive buffer: the server's writes block sooner.
	small := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	stalled := rawStream(t, s, path, small)
	reader := openStream(t, s.server, path)
	if ev, _ := reader.next(t); ev.Type != "snapshot" {
		t.Fatalf("first event %s", ev.Type)
	}
	return s, p, stalled, reader
}

// playNote plays the i-th move of a game of notes of two.
func playNote(t *testing.T, s *opsServer, p player, i int) {
	t.Helper()
	if _, err := s.games.Play(context.Background(), p.id, domain.Actor{Seat: i % 2}, []byte(noteMove), domain.PlayOptions{}); err != nil {
		t.Fatal(err)
	}
}

// wantMove reads the reader's events up to the move seq, which must be the
// next one.
func wantMove(t *testing.T, st *stream, seq int) {
	t.Helper()
	var current []client.Event
	for {
		ev, ok := st.next(t)
		if !ok {
			t.Fatalf("the stream ended waiting for move %d", seq)
		}
		current = append(current, ev)
		if ev.ID == "" {
			continue
		}
		if _, gs := groups(t, current); len(gs) != 1 || gs[0].seq != int64(seq) {
			t.Fatalf("want move %d, got %v", seq, seqs(gs))
		}
		return
	}
}
