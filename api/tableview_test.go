package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// tableView is a table app's picture of a Silver & Gold game, built from the
// event stream alone: the snapshot, then every event, decoded with the typed
// client. It knows the catalog (to draw cards), not the rules.
type tableView struct {
	v   silvergold.View
	cat map[string]silvergold.CatalogCard
}

func (tv *tableView) card(id string) silvergold.CardView {
	c := tv.cat[id]
	return silvergold.CardView{Card: c.ID, Colour: c.Colour, Value: c.Value, Seal: c.Seal, Grid: c.Grid,
		Crossed: []silvergold.Pos{}, Left: c.Value}
}

func boxesOf(bs []models.SilverGoldBox) []silvergold.Pos {
	out := make([]silvergold.Pos, len(bs))
	for i, b := range bs {
		out[i] = silvergold.Pos{Row: b[0], Col: b[1]}
	}
	return out
}

func expeditionOf(e *models.SilverGoldExpedition) *silvergold.Expedition {
	if e == nil {
		return nil
	}
	x := &silvergold.Expedition{Code: string(e.Code), Name: e.Name, Boxes: boxesOf(e.Boxes)}
	if e.NameMessage != nil {
		x.NameMessage = *e.NameMessage
	}
	return x
}

// apply updates the picture with one event.
func (tv *tableView) apply(t *testing.T, ev client.Event) {
	t.Helper()
	data, err := ev.Decode(silvergold.RulesetName)
	if err != nil {
		t.Fatalf("event %s: %v", ev.Type, err)
	}
	v := &tv.v
	switch e := data.(type) {
	case *models.EventMove:
		raw, _ := e.Move.MarshalJSON()
		var m silvergold.Move
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		switch m.Type {
		case silvergold.MoveKeep:
			p := &v.Players[*m.Seat]
			p.Kept, p.Dealt = true, nil
			if len(m.Cards) > 0 { // the seat's own keep, or the host's view
				p.Cards = []silvergold.CardView{tv.card(m.Cards[0]), tv.card(m.Cards[1])}
			}
		case silvergold.MoveCross:
			v.Players[*m.Seat].Crossing = &m
		}
	case *models.SilverGoldEventExpeditionRevealed:
		for i := range v.Players {
			p := &v.Players[i]
			p.CrossedThisTurn, p.Crossing, p.Passed, p.RowsToClaim, p.Takes = false, nil, false, 0, 0
		}
	case *models.SilverGoldEventSeat:
		switch ev.Type {
		case "player_passed":
			v.Players[e.Seat].Passed = true
		case "resolving":
			v.Players[e.Seat].RowsToClaim = 0
		}
	case *models.SilverGoldEventCrossed:
		p := &v.Players[e.Seat]
		p.CrossedThisTurn, p.Coins, p.Palms, p.RowsToClaim = true, e.Coins, e.Palms, e.CoinRowsCompleted
		for _, c := range e.Cards {
			i := slices.IndexFunc(p.Cards, func(cv silvergold.CardView) bool { return cv.Card == c.Card })
			p.Cards[i].Crossed, p.Cards[i].Left = boxesOf(c.Crossed), c.BoxesLeft
		}
	case *models.SilverGoldEventCupTaken:
		v.Players[e.Seat].Cups = append(v.Players[e.Seat].Cups, e.Value)
		v.CupsLeft = v.CupsLeft[1:]
	case *models.SilverGoldEventCard: // card_completed
		p := &v.Players[e.Seat]
		p.Cards = slices.DeleteFunc(p.Cards, func(cv silvergold.CardView) bool { return cv.Card == e.Card })
		p.Pile = append(p.Pile, e.Card)
		p.Takes++
	case *models.SilverGoldEventNoReplacement:
		v.Players[e.Seat].Takes = 0
	case *models.SilverGoldEventCardTaken:
		p := &v.Players[e.Seat]
		p.Cards = append(p.Cards, tv.card(e.Card))
		p.Takes--
		if e.From == models.SilverGoldEventCardTakenFromDisplay {
			v.Display = slices.DeleteFunc(v.Display, func(c string) bool { return c == e.Card })
		}
	case *models.SilverGoldEventDisplayCard:
		v.Display = append(v.Display, e.Card)
	case *models.SilverGoldEventCardsKept:
		p := &v.Players[e.Seat]
		p.Cards, p.Dealt = []silvergold.CardView{tv.card(e.Cards[0]), tv.card(e.Cards[1])}, nil
	case *models.SilverGoldEventStatus:
		v.Phase, v.Round, v.Turn, v.StartPlayer = silvergold.Phase(e.Phase), e.Round, e.Turn, e.StartPlayer
		v.Expedition, v.Revealed, v.DeckSize, v.Resolving = expeditionOf(e.Expedition), e.RevealedThisRound, e.DeckSize, e.Resolving
		raw, _ := json.Marshal(e.Awaiting)
		v.Awaiting = nil
		if err := json.Unmarshal(raw, &v.Awaiting); err != nil {
			t.Fatal(err)
		}
	case *models.SilverGoldEventTurn, *models.SilverGoldScore, *models.LegalMoves:
		// Nothing on the table changes that status does not tell.
	default:
		t.Fatalf("event %s decoded as %T", ev.Type, data)
	}
}

// eventSchemas reads the x-events table of the EventStream schema: per
// ruleset ("*": every ruleset's), each event name with the name of its
// data's schema.
func eventSchemas(t *testing.T) map[string]map[string]string {
	t.Helper()
	if spec.Err != nil {
		t.Fatal(spec.Err)
	}
	raw, ok := spec.Doc.Components.Schemas["EventStream"].Value.Extensions["x-events"]
	if !ok {
		t.Fatal("EventStream has no x-events")
	}
	b, _ := json.Marshal(raw)
	var refs map[string]map[string]struct {
		Ref string `json:"$ref"`
	}
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for rs, events := range refs {
		out[rs] = map[string]string{}
		for name, r := range events {
			schema, ok := strings.CutPrefix(r.Ref, "#/components/schemas/")
			if _, exists := spec.Doc.Components.Schemas[schema]; !ok || !exists {
				t.Fatalf("x-events: %s event %s names %q, no schema of this document", rs, name, r.Ref)
			}
			out[rs][name] = schema
		}
	}
	return out
}

// checkEventSchema validates an event's data against the schema the spec
// names for it.
func checkEventSchema(t *testing.T, schemas map[string]map[string]string, ev client.Event) {
	t.Helper()
	name, ok := schemas["*"][ev.Type]
	if !ok {
		name, ok = schemas[silvergold.RulesetName][ev.Type]
	}
	if !ok {
		t.Fatalf("event %s has no schema in x-events", ev.Type)
	}
	var v any
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		t.Fatal(err)
	}
	if err := spec.Doc.Components.Schemas[name].Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		t.Errorf("event %s does not match %s: %v\n%s", ev.Type, name, err, ev.Data)
	}
}

// TestTableFromStream builds the table from the event stream alone and
// compares it with GET /v1/games/{id}, as the same caller, after every move
// of whole games: public and seat streams, digital and physical. Every
// event's data is checked against its schema in the spec.
func TestTableFromStream(t *testing.T) {
	schemas := eventSchemas(t)
	for _, tc := range []struct {
		name, mode, seed string
		players, seat    int // seat -1: no credential
	}{
		{"digital 4 seats, public", "digital", "stream-table-1", 4, -1},
		{"digital 3 seats, seat 1", "digital", "stream-table-2", 3, 1},
		{"physical 2 seats, public", "physical", "", 2, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t)
			tb := newTable(t, s, tc.mode, tc.players, tc.seed)
			credential := ""
			var headers []string
			if tc.seat >= 0 {
				credential = tb.seats[tc.seat]
				headers = []string{"Authorization", "Bearer " + credential}
			}
			path := tb.path("/events")
			if tc.seat >= 0 {
				path += "?legal_moves=true" // the seat's legal moves come along, and are checked too
			}
			st := openStream(t, s, path, headers...)
			first, _ := st.next(t)
			snap, err := first.Decode(silvergold.RulesetName)
			if err != nil || first.Type != "snapshot" {
				t.Fatalf("first event %s: %v", first.Type, err)
			}
			raw, _ := snap.(*models.Game).State.MarshalJSON()
			tv := &tableView{cat: map[string]silvergold.CatalogCard{}}
			if err := json.Unmarshal(raw, &tv.v); err != nil {
				t.Fatal(err)
			}
			for _, c := range catalog(t, s).Cards {
				tv.cat[c.ID] = c
			}
			seen := map[string]bool{}
			moves := tb.playToEnd(t, false, func(m silvergold.Move, p playedJSON) {
				id := strconv.FormatInt(p.Seq, 10)
				for {
					ev, ok := st.next(t)
					if !ok {
						t.Fatalf("the stream ended before move %d", p.Seq)
					}
					checkEventSchema(t, schemas, ev)
					seen[ev.Type] = true
					tv.apply(t, ev)
					if ev.ID == id {
						break
					}
				}
				g, _ := tb.get(t, credential)
				want, _ := json.Marshal(g.State)
				got, _ := json.Marshal(tv.v)
				if string(got) != string(want) {
					t.Fatalf("after move %d (%s): the table from the stream is\n%s\nGET says\n%s", p.Seq, fmt.Sprint(m.Type), got, want)
				}
			})
			t.Logf("%d moves followed; events seen: %v", moves, seen)
			must := []string{"move", "crossed", "expedition_revealed", "card_taken", "card_completed", "status", "game_ended"}
			if tc.seat >= 0 {
				must = append(must, "legal_moves")
			}
			for _, must := range must {
				if !seen[must] {
					t.Errorf("no %s event in a whole game", must)
				}
			}
		})
	}
}

// TestEventDecodeMatchesSpec holds the client's typed decoding to the spec's
// table of event schemas.
func TestEventDecodeMatchesSpec(t *testing.T) {
	want := eventSchemas(t)
	got := client.EventSchemas()
	for rs, events := range want {
		for name, schema := range events {
			if got[rs][name] != schema {
				t.Errorf("%s event %s: the spec says %s, client.Decode gives %s", rs, name, schema, got[rs][name])
			}
		}
	}
	for rs, events := range got {
		for name := range events {
			if _, ok := want[rs][name]; !ok {
				t.Errorf("%s event %s: client.Decode knows it, the spec does not", rs, name)
			}
		}
	}
}

// TestStreamEventMatchesXEvents holds StreamEvent, the union a generated
// client narrows, to the x-events table: one member per ruleset and event
// name ("*": every ruleset's), whose data is the schema x-events names.
func TestStreamEventMatchesXEvents(t *testing.T) {
	want := eventSchemas(t)
	var all []string
	for rs := range want {
		if rs != "*" {
			all = append(all, rs)
		}
	}
	slices.Sort(all)
	got := map[string]map[string]string{}
	for i, m := range spec.Doc.Components.Schemas["StreamEvent"].Value.OneOf {
		props := m.Value.Properties
		if props["ruleset"] == nil || props["event"] == nil || props["data"] == nil || len(props["event"].Value.Enum) != 1 {
			t.Fatalf("StreamEvent member %d is not {ruleset, event (one name), data}", i)
		}
		var rulesets []string
		for _, v := range props["ruleset"].Value.Enum {
			rulesets = append(rulesets, v.(string))
		}
		slices.Sort(rulesets)
		rs := ""
		switch {
		case len(rulesets) == 1:
			rs = rulesets[0]
		case slices.Equal(rulesets, all):
			rs = "*"
		default:
			t.Fatalf("StreamEvent member %d is for rulesets %v: one, or all of %v", i, rulesets, all)
		}
		name := props["event"].Value.Enum[0].(string)
		if got[rs] == nil {
			got[rs] = map[string]string{}
		}
		if _, dup := got[rs][name]; dup {
			t.Errorf("StreamEvent has %s's %s twice", rs, name)
		}
		got[rs][name] = strings.TrimPrefix(props["data"].Ref, "#/components/schemas/")
	}
	for rs, events := range want {
		for name, schema := range events {
			if got[rs][name] != schema {
				t.Errorf("%s event %s: x-events says %s, StreamEvent %q", rs, name, schema, got[rs][name])
			}
		}
	}
	for rs, events := range got {
		for name := range events {
			if _, ok := want[rs][name]; !ok {
				t.Errorf("%s event %s: StreamEvent has it, x-events does not", rs, name)
			}
		}
	}
}
