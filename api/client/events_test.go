package client

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestEventReader: events come out with their type, id and data whatever the
// length of their lines (a data line longer than the reader's buffer, as a
// large listing's), comments and retry hints skipped, data lines joined by
// newlines, and a stream cut inside an event is an unexpected end.
func TestEventReader(t *testing.T) {
	long := `{"moves":"` + strings.Repeat("x", 100<<10) + `"}`
	stream := "retry: 2000\n\n: keep-alive\n\nevent: move\ndata: {\"seq\":1}\n\n" +
		"event: legal_moves\r\nid: 7\r\ndata: " + long + "\r\n\r\n" +
		"data: a\ndata: b\n\nevent: status\ndata: {"
	er := NewEventReader(strings.NewReader(stream))
	for _, want := range []Event{
		{Type: "move", Data: []byte(`{"seq":1}`)},
		{Type: "legal_moves", ID: "7", Data: []byte(long)},
		{Type: "message", Data: []byte("a\nb")},
	} {
		ev, err := er.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type != want.Type || ev.ID != want.ID || string(ev.Data) != string(want.Data) {
			t.Errorf("got %s %q (%d bytes of data), want %s %q (%d bytes)", ev.Type, ev.ID, len(ev.Data), want.Type, want.ID, len(want.Data))
		}
	}
	if _, err := er.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a stream cut inside an event: %v, want %v", err, io.ErrUnexpectedEOF)
	}
	if _, err := NewEventReader(strings.NewReader("event: move\ndata: 1\n\n")).Next(); err != nil {
		t.Fatal(err)
	}
}
