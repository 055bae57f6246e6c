package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Event is one Server-Sent Event of GET /v1/games/{id}/events.
type Event struct {
	// Type is the event's name: "snapshot", "move", or one of the ruleset's
	// (see the EventStream schema).
	Type string
	// ID is set on the last event of each move's group (and on a snapshot):
	// the game's version, to send back as Last-Event-ID on a reconnect.
	ID string
	// Data is the event's JSON: a Game for "snapshot", an EventMove for
	// "move", the ruleset's own for the others.
	Data json.RawMessage
}

// EventReader reads the events of a stream, such as the body of the
// response to StreamGameEvents.
type EventReader struct {
	r    *bufio.Reader
	long []byte // a line longer than r's buffer, gathered
	data []byte // the data lines of the event being read
}

// NewEventReader returns a reader of the Server-Sent Events in r.
func NewEventReader(r io.Reader) *EventReader {
	// Large enough for a listing's data line, read in place (a load
	// client reads one after every move, issue 27).
	return &EventReader{r: bufio.NewReaderSize(r, 32<<10)}
}

// line returns the next line, valid until the next call.
func (er *EventReader) line() ([]byte, error) {
	line, err := er.r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	er.long = append(er.long[:0], line...)
	for err == bufio.ErrBufferFull {
		line, err = er.r.ReadSlice('\n')
		er.long = append(er.long, line...)
	}
	return er.long, err
}

// Next returns the next event, skipping comments (keep-alives) and retry
// hints. It returns io.EOF when the stream ends between events.
func (er *EventReader) Next() (Event, error) {
	ev, err := er.next()
	ev.Data = bytes.Clone(ev.Data)
	return ev, err
}

// next is Next with the event's data in the reader's buffer, valid until
// the next call.
func (er *EventReader) next() (Event, error) {
	var ev Event
	er.data = er.data[:0]
	seen := false
	for {
		line, err := er.line()
		if err != nil {
			if err == io.EOF && (seen || len(line) > 0) {
				err = io.ErrUnexpectedEOF
			}
			return Event{}, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if !seen {
				continue // the end of a comment or of a retry hint
			}
			if ev.Type == "" {
				ev.Type = "message"
			}
			if len(er.data) > 0 {
				ev.Data = er.data
			}
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.Type, seen = string(value), true
		case "id":
			ev.ID, seen = string(value), true
		case "data":
			if len(er.data) > 0 {
				er.data = append(er.data, '\n')
			}
			er.data = append(er.data, value...)
			seen = true
		}
	}
}

// EventSchemas lists, per ruleset, the event names Decode knows with the Go
// type of their data ("*": every ruleset's).
func EventSchemas() map[string]map[string]string {
	out := map[string]map[string]string{}
	for rs, m := range eventTypes {
		out[rs] = map[string]string{}
		for name, mk := range m {
			out[rs][name] = fmt.Sprintf("%T", mk())[len("*client."):]
		}
	}
	return out
}

// ErrUnknownEvent is returned by Decode for an event name it does not know
// (a newer server's): skip the event, or read its Data yourself.
var ErrUnknownEvent = errors.New("client: unknown event type")

// Decode returns the event's data as its type in this package, for a game
// of the given ruleset: *Game for "snapshot", *EventMove for "move",
// *LegalMoves for "legal_moves", and the ruleset's own: for Silver & Gold
// ("silver-and-gold") *SilverGoldEventCrossed for "crossed", for Lucky
// Treasure Hunter *LuckyTreasureHunterEventDiceRolled for "dice_rolled", for
// Colorful Treasure *ColorfulTreasureEventStolen for "stolen" and so on (see
// the EventStream schema). Event names are unique within a ruleset, not
// across them ("turn_started" is two types).
func (e Event) Decode(ruleset string) (any, error) {
	mk, ok := eventTypes["*"][e.Type]
	if !ok {
		mk, ok = eventTypes[ruleset][e.Type]
	}
	if !ok {
		return nil, fmt.Errorf("%w %q of ruleset %q", ErrUnknownEvent, e.Type, ruleset)
	}
	v := mk()
	if err := json.Unmarshal(e.Data, v); err != nil {
		return nil, fmt.Errorf("client: event %s: %w", e.Type, err)
	}
	return v, nil
}

// Events reads the events of a stream (body) on a goroutine of its own
// until the stream ends or ctx is done: each event on the first channel,
// then what ended the stream on the second (io.EOF when it ended between
// events). Cancelling ctx ends the goroutine.
func Events(ctx context.Context, body io.Reader) (<-chan Event, <-chan error) {
	return EventsOf(ctx, body, nil)
}

// EventsOf is Events sending only the events of the types keep returns true
// for (nil: all); keep is called on the reading goroutine with the type of
// every event read. A client that acts on few of a stream's events saves a
// copy of the others' data and a hand-over between goroutines each.
func EventsOf(ctx context.Context, body io.Reader, keep func(typ string) bool) (<-chan Event, <-chan error) {
	events, ended := make(chan Event), make(chan error, 1)
	go func() {
		er := NewEventReader(body)
		for {
			ev, err := er.next()
			if err != nil {
				ended <- err
				return
			}
			if keep != nil && !keep(ev.Type) {
				continue
			}
			ev.Data = bytes.Clone(ev.Data)
			select {
			case events <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	return events, ended
}
