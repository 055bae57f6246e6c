package api

import (
	"encoding/json"
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
			}
		}
	}
}

// BenchmarkMoveEvent encodes a Silver & Gold crossing as a stream's move
// event, as every stream of a game does at every move: appendMoveEvent
// against json.Marshal of models.EventMove, which it replaced.
func BenchmarkMoveEvent(b *testing.B) {
	m := json.RawMessage(`{"type":"cross","seat":2,"card":"orange-05","boxes":[[1,1],[1,2]],"extra":[{"box":[1,0],"card":"green-10"}]}`)
	u := domain.Update{Seq: 87, Actor: domain.Actor{Seat: 2}, At: time.Date(2026, 11, 27, 2, 30, 1, 125_000_000, time.UTC)}
	b.Run("append", func(b *testing.B) {
		var buf [512]byte
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
