package client

import (
	"bufio"
	"bytes"
	"encoding/json"
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
