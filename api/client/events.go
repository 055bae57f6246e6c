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

	"github.com/treasury-games/treasury/api/models"
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

// The ruleset names the typed decoding knows.
const silverGold = "silver-and-gold"

// eventTypes maps, per ruleset, an event's name to a new value of its data's
// type ("*": the events of every ruleset). It follows the x-events table of
// the EventStream schema in openapi.yaml; a test holds the two together.
var eventTypes = map[string]map[string]func() any{
	"*": {
		"snapshot":           func() any { return new(models.Game) },
		"move":               func() any { return new(models.EventMove) },
		"legal_moves":        func() any { return new(models.LegalMoves) },
		"next_game":          func() any { return new(models.EventNextGame) },
		"credential_revoked": func() any { return new(models.EventCredentialRevoked) },
		"taken_back":         func() any { return new(models.EventTakenBack) },
	},
	silverGold: {
		"expedition_revealed": func() any { return new(models.SilverGoldEventExpeditionRevealed) },
		"player_passed":       func() any { return new(models.SilverGoldEventSeat) },
		"crossed":             func() any { return new(models.SilverGoldEventCrossed) },
		"crossing_closed":     func() any { return new(models.SilverGoldEventTurn) },
		"resolving":           func() any { return new(models.SilverGoldEventSeat) },
		"cup_taken":           func() any { return new(models.SilverGoldEventCupTaken) },
		"card_completed":      func() any { return new(models.SilverGoldEventCard) },
		"no_replacement":      func() any { return new(models.SilverGoldEventNoReplacement) },
		"card_taken":          func() any { return new(models.SilverGoldEventCardTaken) },
		"display_card":        func() any { return new(models.SilverGoldEventDisplayCard) },
		"cards_kept":          func() any { return new(models.SilverGoldEventCardsKept) },
		"turn_resolved":       func() any { return new(models.SilverGoldEventTurn) },
		"round_ended":         func() any { return new(models.SilverGoldEventTurn) },
		"game_ended":          func() any { return new(models.SilverGoldScore) },
		"status":              func() any { return new(models.SilverGoldEventStatus) },
	},
	"lucky-treasure-hunter": {
		"middle_dealt":    func() any { return new(models.LuckyTreasureHunterEventMiddleDealt) },
		"turn_started":    func() any { return new(models.LuckyTreasureHunterEventTurnStarted) },
		"place_skipped":   func() any { return new(models.LuckyTreasureHunterEventSeat) },
		"cards_placed":    func() any { return new(models.LuckyTreasureHunterEventCardsPlaced) },
		"cards_drawn":     func() any { return new(models.LuckyTreasureHunterEventCardsDrawn) },
		"drew":            func() any { return new(models.LuckyTreasureHunterEventDrew) },
		"pile_empty":      func() any { return new(models.LuckyTreasureHunterEventPileEmpty) },
		"steal_named":     func() any { return new(models.LuckyTreasureHunterEventStealNamed) },
		"steal_skipped":   func() any { return new(models.LuckyTreasureHunterEventSeat) },
		"dice_rolled":     func() any { return new(models.LuckyTreasureHunterEventDiceRolled) },
		"cards_discarded": func() any { return new(models.LuckyTreasureHunterEventCardsDiscarded) },
		"captain_used":    func() any { return new(models.LuckyTreasureHunterEventSeat) },
		"set_stolen":      func() any { return new(models.LuckyTreasureHunterEventSetStolen) },
		"steal_stopped":   func() any { return new(models.LuckyTreasureHunterEventSeat) },
		"misdraw":         func() any { return new(models.LuckyTreasureHunterEventMisdraw) },
		"game_ended":      func() any { return new(models.LuckyTreasureHunterScore) },
		"status":          func() any { return new(models.TableStatus) },
	},
	"colorful-treasure": {
		"cards_revealed":  func() any { return new(models.ColorfulTreasureEventCardsShown) },
		"cards_collected": func() any { return new(models.ColorfulTreasureEventCardsCollected) },
		"tokens_paired":   func() any { return new(models.ColorfulTreasureEventPairs) },
		"theft_skipped":   func() any { return new(models.ColorfulTreasureEventPairs) },
		"stolen":          func() any { return new(models.ColorfulTreasureEventStolen) },
		"token_used":      func() any { return new(models.ColorfulTreasureEventTokenUsed) },
		"peeked":          func() any { return new(models.ColorfulTreasureEventCardsShown) },
		"token_taken":     func() any { return new(models.ColorfulTreasureEventTokenTaken) },
		"award_taken":     func() any { return new(models.ColorfulTreasureEventAwardTaken) },
		"last_round":      func() any { return new(models.ColorfulTreasureEventLastRound) },
		"turn_started":    func() any { return new(models.ColorfulTreasureEventTurnStarted) },
		"game_ended":      func() any { return new(models.ColorfulTreasureEventGameEnded) },
		"status":          func() any { return new(models.TableStatus) },
	},
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
