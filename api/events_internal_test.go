package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
)

// TestAppendMoveEvent: a stream's move event reads byte for byte as
// json.Marshal of models.EventMove writes it, for the host's moves and a
// seat's, moves hidden (null) and shown, moves json.Marshal rewrites
// (spaces, characters it escapes for HTML, invalid JSON) and times of every
// precision and zone.
func TestAppendMoveEvent(t *testing.T) {
	moves := []string{
		`{"type":"cross","seat":0,"card":"orange-05","boxes":[[1,1],[1,2]]}`,
		`{"type":"take_back","to":12}`,
		`null`,
		``,
		`{ "type": "keep",  "cards": ["a"] }`,
		"{\"type\":\"keep\",\n\"cards\":[]}",
		`{"type":"x","name":"<b>&amp;</b>"}`,
		"{\"type\":\"x\",\"name\":\"a\u2028b\"}",
		`{"type":"x","name":"Ünal"}`,
		`{"type":"x","name":"a&b"}`,
		`{"type":`,
		`{"type":"x"}}`,
	}
	times := []time.Time{
		time.Date(2026, 11, 27, 2, 30, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 2, 30, 1, 125_000_000, time.UTC),
		time.Date(2026, 11, 27, 2, 30, 1, 1, time.FixedZone("", 3600)),
		{},
	}
	actors := []domain.Actor{{Host: true}, {Seat: 0}, {Seat: 3}}
	for _, m := range moves {
		for _, at := range times {
			for _, a := range actors {
				u := domain.Update{Seq: 42, Actor: a, At: at}
				want := models.EventMove{Seq: u.Seq, Actor: models.Actor{Host: a.Host}, Move: union[models.Move]([]byte(m)), At: at}
				if !a.Host {
					seat := a.Seat
					want.Actor.Seat = &seat
				}
				wantJSON, _ := json.Marshal(want)
				var raw json.RawMessage
				if m != "" {
					raw = json.RawMessage(m)
				}
				if got := appendMoveEvent(nil, &u, raw); string(got) != string(wantJSON) {
					t.Errorf("move %q by %+v at %v:\n got %s\nwant %s", m, a, at, got, wantJSON)
				}
				// Marked plain where the update is made (only when it is):
				// the same bytes without the check.
				if u.Plain = domain.PlainJSON(raw); u.Plain {
					if got := appendMoveEvent(nil, &u, raw); string(got) != string(wantJSON) {
						t.Errorf("move %q marked plain by %+v at %v:\n got %s\nwant %s", m, a, at, got, wantJSON)
					}
				}
			}
		}
	}
}

// BenchmarkMoveEvent encodes a Silver & Gold crossing as a stream's move
// event, as every stream of a game does at every move: appendMoveEvent
// (checking the move, or trusting the update's mark) against json.Marshal of
// models.EventMove, which it replaced.
func BenchmarkMoveEvent(b *testing.B) {
	m := json.RawMessage(`{"type":"cross","seat":2,"card":"orange-05","boxes":[[1,1],[1,2]],"extra":[{"box":[1,0],"card":"green-10"}]}`)
	u := domain.Update{Seq: 87, Actor: domain.Actor{Seat: 2}, At: time.Date(2026, 11, 27, 2, 30, 1, 125_000_000, time.UTC)}
	b.Run("append", func(b *testing.B) {
		var buf [512]byte
		for b.Loop() {
			_ = appendMoveEvent(buf[:0], &u, m)
		}
	})
	b.Run("append_marked", func(b *testing.B) { // u.Plain, as the service marks it
		var buf [512]byte
		u := u
		u.Plain = true
		for b.Loop() {
			_ = appendMoveEvent(buf[:0], &u, m)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			seat := u.Actor.Seat
			_, _ = json.Marshal(models.EventMove{Seq: u.Seq, Actor: models.Actor{Host: u.Actor.Host, Seat: &seat}, Move: union[models.Move](m), At: u.At})
		}
	})
}

// TestEventLines: an event's data is one data line per line of its JSON
// (a stored event may have been indented), with no line ending kept, and no
// data line at all for no data.
func TestEventLines(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"a":1}`, "event: e\nid: 3\ndata: {\"a\":1}\n\n"},
		{"{\n  \"a\": 1\r\n}\n", "event: e\nid: 3\ndata: {\ndata:   \"a\": 1\ndata: }\n\n"},
		{"", "event: e\nid: 3\n\n"},
	} {
		st := &stream{}
		st.event("e", "3", []byte(tc.data))
		if got := string((*st.out)[chunkRoom:]); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.data, got, tc.want)
		}
	}
}

// writeCounter is a connection that counts the writes made to it.
type writeCounter struct {
	net.Conn
	writes int
	got    bytes.Buffer
}

func (w *writeCounter) Write(b []byte) (int, error) {
	w.writes++
	return w.got.Write(b)
}

func (*writeCounter) SetWriteDeadline(time.Time) error { return nil }

// TestStreamStepOneWrite: updates queued while a step tells the ones it
// took (the other moves of a commit, published one after the other) go out
// in that step's one write, in order, and leave the queue.
func TestStreamStepOneWrite(t *testing.T) {
	at := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	u := func(seq int64) *domain.Update {
		return &domain.Update{GameID: "g", Seq: seq, Actor: domain.Actor{Seat: int(seq) % 2}, Move: json.RawMessage(`{"n":1}`), At: at}
	}
	conn := &writeCounter{}
	st := &stream{s: &Server{streamWrite: time.Minute}, conn: conn, chunked: true, legalSeat: -2, viewer: domain.Public}
	st.queue = []*domain.Update{u(2), u(3)} // came after the step took 1
	if !st.step([]*domain.Update{u(1)}, false, false, false) {
		t.Fatal("the step ended the stream")
	}
	if conn.writes != 1 {
		t.Errorf("%d writes, want 1", conn.writes)
	}
	if len(st.queue) != 0 || st.sent != 3 {
		t.Errorf("queue %d left, sent %d; want 0, 3", len(st.queue), st.sent)
	}
	var ids []string
	for line := range strings.Lines(conn.got.String()) {
		if id, ok := strings.CutPrefix(line, "id: "); ok {
			ids = append(ids, strings.TrimSpace(id))
		}
	}
	if fmt.Sprint(ids) != "[1 2 3]" {
		t.Errorf("ids %v, want [1 2 3]", ids)
	}
}

// deadlineConn records the write deadlines set on it.
type deadlineConn struct {
	writeCounter
	set []time.Time
}

func (c *deadlineConn) SetWriteDeadline(t time.Time) error {
	c.set = append(c.set, t)
	return nil
}

// TestStreamArm: a stream's flushes set the write deadline again only when
// the one set last leaves less than the write timeout, so that every write
// has from the timeout to a quarter more to finish.
func TestStreamArm(t *testing.T) {
	const timeout = 400 * time.Millisecond
	conn := &deadlineConn{}
	st := &stream{s: &Server{streamWrite: timeout}, conn: conn, chunked: true, legalSeat: -2, viewer: domain.Public}
	check := func(sets int) {
		t.Helper()
		before := time.Now()
		st.write(": x\n\n")
		if err := st.flush(); err != nil {
			t.Fatal(err)
		}
		if len(conn.set) != sets {
			t.Fatalf("%d deadlines set, want %d", len(conn.set), sets)
		}
		left := conn.set[len(conn.set)-1].Sub(before)
		if left < timeout || left > timeout+timeout/4+50*time.Millisecond {
			t.Errorf("the write has %v, want %v to %v", left, timeout, timeout+timeout/4)
		}
	}
	check(1)
	check(1) // at once: the deadline set leaves more than the timeout
	time.Sleep(timeout / 8)
	check(1)
	time.Sleep(timeout / 4) // now less than the timeout is left
	check(2)
	check(2)
}
