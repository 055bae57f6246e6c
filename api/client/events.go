package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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
	r *bufio.Reader
}

// NewEventReader returns a reader of the Server-Sent Events in r.
func NewEventReader(r io.Reader) *EventReader {
	return &EventReader{r: bufio.NewReader(r)}
}

// Next returns the next event, skipping comments (keep-alives) and retry
// hints. It returns io.EOF when the stream ends between events.
func (er *EventReader) Next() (Event, error) {
	var ev Event
	var data bytes.Buffer
	seen := false
	for {
		line, err := er.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && (seen || line != "") {
				err = io.ErrUnexpectedEOF
			}
			return Event{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !seen {
				continue // the end of a comment or of a retry hint
			}
			if ev.Type == "" {
				ev.Type = "message"
			}
			ev.Data = json.RawMessage(bytes.Clone(data.Bytes()))
			return ev, nil
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			ev.Type, seen = value, true
		case "id":
			ev.ID, seen = value, true
		case "data":
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(value)
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
	events, ended := make(chan Event), make(chan error, 1)
	go func() {
		er := NewEventReader(body)
		for {
			ev, err := er.Next()
			if err != nil {
				ended <- err
				return
			}
			select {
			case events <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	return events, ended
}
