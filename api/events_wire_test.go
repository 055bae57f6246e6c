package api_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
)

// TestEventStreamChunks reads a stream's chunked coding off the wire: every
// chunk is framed right; a move's group, small, comes in one chunk (one read
// for the client, one write for the server); a group larger than what a
// stream buffers (two 40 KB events) comes whole over several chunks; the
// events decode to what was played.
func TestEventStreamChunks(t *testing.T) {
	for _, tc := range []struct {
		name string
		pad  int
	}{{"small", 0}, {"large", 40 << 10}} {
		t.Run(tc.name, func(t *testing.T) {
			s := startOps(t, nil, noteRules{pad: tc.pad})
			p := createNotes(t, s, 2, "")
			conn, err := net.Dial("tcp", strings.TrimPrefix(s.HTTP.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(conn, "GET /v1/games/%s/events HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n", p.id, p.seats[0])
			r := bufio.NewReader(conn)
			resp, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || resp.TransferEncoding == nil {
				t.Fatalf("%d, transfer encoding %v", resp.StatusCode, resp.TransferEncoding)
			}
			// chunk reads one chunk, checking its framing.
			chunk := func() []byte {
				t.Helper()
				line, err := r.ReadString('\n')
				if err != nil || !strings.HasSuffix(line, "\r\n") {
					t.Fatalf("a chunk's size line %q: %v", line, err)
				}
				n, err := strconv.ParseInt(strings.TrimSuffix(line, "\r\n"), 16, 64)
				if err != nil || n <= 0 {
					t.Fatalf("a chunk's size line %q", line)
				}
				b := make([]byte, n+2)
				if _, err := io.ReadFull(r, b); err != nil {
					t.Fatal(err)
				}
				if !bytes.HasSuffix(b, []byte("\r\n")) {
					t.Fatalf("a chunk of %d bytes not ended by CRLF: %q", n, b[max(0, len(b)-20):])
				}
				return b[:n]
			}
			var all bytes.Buffer
			for !bytes.Contains(all.Bytes(), []byte("event: snapshot\n")) || !bytes.HasSuffix(all.Bytes(), []byte("\n\n")) {
				all.Write(chunk()) // the reconnection delay and the snapshot
			}
			for _, id := range []string{"1", "2"} {
				p.note(t, p.seats[0])
				chunks := 0
				for !bytes.Contains(all.Bytes(), []byte("id: "+id+"\n")) || !bytes.HasSuffix(all.Bytes(), []byte("\n\n")) {
					all.Write(chunk())
					chunks++
				}
				if tc.pad == 0 && chunks != 1 {
					t.Errorf("move %s came in %d chunks, want 1", id, chunks)
				}
				if tc.pad > 0 && chunks < 2 {
					t.Errorf("move %s came in %d chunk, want several", id, chunks)
				}
			}
			er := client.NewEventReader(&all)
			var notes []string
			for {
				ev, err := er.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ev.Type == "note" || ev.Type == "secret" {
					notes = append(notes, fmt.Sprintf("%s %d", ev.Type, len(ev.Data)))
				}
			}
			pad := len(strings.Repeat("p", tc.pad))
			want := []string{
				fmt.Sprintf("note %d", len(`{"n":1,"pad":""}`)+pad), fmt.Sprintf("secret %d", len(`{"for":0,"n":1,"pad":""}`)+pad),
				fmt.Sprintf("note %d", len(`{"n":2,"pad":""}`)+pad), fmt.Sprintf("secret %d", len(`{"for":0,"n":2,"pad":""}`)+pad),
			}
			if fmt.Sprint(notes) != fmt.Sprint(want) {
				t.Errorf("events %v, want %v", notes, want)
			}
		})
	}
}

// TestEventStreamLargeAfterIdle: a move whose events are larger than what a
// stream buffers before sending, played after the stream sat idle for longer
// than its write timeout (no keep-alive in between), still reaches the
// client: each write gets the timeout from when it starts, not from the last
// flush. (At d07453b such a stream ended: its 8 KB buffer wrote what
// overflowed under the deadline of the last flush, long past.)
func TestEventStreamLargeAfterIdle(t *testing.T) {
	s := startOps(t, func(o *api.Options) {
		o.StreamWriteTimeout = 300 * time.Millisecond
		o.Heartbeat = time.Hour
	}, noteRules{pad: 40 << 10})
	p := createNotes(t, s, 2, "")
	reader := openStream(t, s.server, "/v1/games/"+p.id+"/events")
	if ev, _ := reader.next(t); ev.Type != "snapshot" {
		t.Fatalf("first event %s", ev.Type)
	}
	playNote(t, s, p, 0)
	wantMove(t, reader, 1)
	time.Sleep(time.Second) // the deadline of the move's flush passes
	playNote(t, s, p, 1)
	wantMove(t, reader, 2)
}
