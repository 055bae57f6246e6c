package domain_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// logEntryJSON is what LogEntryWith reads of a move and its events, read
// with json.Unmarshal as it read them before its plain path (issue 27).
func logEntryJSON(m *domain.MoveRecord, events []domain.Event) (typ string, took []int64, phase string, turn int) {
	var mv struct {
		Type     string  `json:"type"`
		Versions []int64 `json:"versions"`
	}
	_ = json.Unmarshal(m.Move, &mv)
	if mv.Type == domain.MoveTakeBack {
		took = mv.Versions
	}
	for _, ev := range events {
		if ev.Type == "status" || ev.Type == domain.EventTakenBack {
			var st struct {
				Phase      string `json:"phase"`
				TurnNumber int    `json:"turn_number"`
			}
			if json.Unmarshal(ev.Data, &st) == nil {
				phase, turn = st.Phase, st.TurnNumber
			}
		}
	}
	return mv.Type, took, phase, turn
}

// checkLogEntryWith fails t when LogEntryWith reads m and its events
// otherwise than json.Unmarshal does.
func checkLogEntryWith(t testing.TB, m *domain.MoveRecord, events []domain.Event) {
	t.Helper()
	e := domain.LogEntryWith(m, events)
	typ, took, phase, turn := logEntryJSON(m, events)
	if got, want := fmt.Sprint(e.Type, e.Took, e.Phase, e.TurnNumber), fmt.Sprint(typ, took, phase, turn); got != want {
		t.Errorf("move %s, events %s: read %q, json.Unmarshal reads %q", m.Move, fmt.Sprint(events), got, want)
	}
}

// TestLogEntryWithPlain: a move's type and a status's phase and turn number
// read as json.Unmarshal reads them, for what the rulesets write and for
// what they do not (keys in other cases, repeated, null, escaped or beyond
// ASCII; values of other kinds, fractions, too large; invalid JSON).
func TestLogEntryWithPlain(t *testing.T) {
	moves := []string{
		`{"type":"keep","cards":[1,2]}`, `{"cards":[1,2],"type":"cross"}`, ` { "type" : "take" } `,
		`{"Type":"keep"}`, `{"TYPE":"keep","type":"cross"}`, `{"type":"keep","type":null}`, `{"type":null}`,
		`{"type":3}`, `{"type":"k\u00e4ep"}`, `{"type":"käep"}`, `{"t\u0079pe":"keep"}`, `{"typé":"keep"}`,
		`{"type":"take_back","versions":[3,4]}`, `{"type":"keep","versions":7}`, `{"type":"keep"`, `[]`, ``, `null`,
		`{"type":"ke\"ep"}`, `{"type":"` + "\xff" + `"}`, `{}`, `{"a":{"type":"x"},"b":["type"],"type":"y"}`,
	}
	statuses := []string{
		`{"phase":"crossing","round":2,"expedition":{"code":"a","name_message":{"key":"k","args":{"n":1}}},"awaiting":[{"seat":1}],"on_turn":null,"turn_number":12}`,
		`{"turn_number":3,"phase":"x"}`, `{"Phase":"x","TURN_NUMBER":4}`, `{"phase":"x","phase":null,"turn_number":2,"turn_number":null}`,
		`{"phase":"x","turn_number":1.5}`, `{"phase":"x","turn_number":1e2}`, `{"phase":"x","turn_number":"3"}`,
		`{"phase":"x","turn_number":99999999999999999999}`, `{"phase":"x","turn_number":-4}`, `{"phase":7,"turn_number":2}`,
		`{"phase":"\u0078","turn_number":2}`, `{"phaſe":"y","turn_number":2}`, `{"phase":"ä","turn_number":2}`,
		`{"phase":"x","turn_number":2`, `{}`, `null`, ``, `[1]`, `{"phase":"x","turn_number":true}`,
		`{"phase":"x","other":"` + "\xff" + `","turn_number":5}`, "{\n\t\"phase\" :\"x\",\r\n\"turn_number\": 6 }",
	}
	for _, mv := range moves {
		for _, st := range statuses {
			for _, typ := range []string{"status", domain.EventTakenBack, "other"} {
				events := []domain.Event{{Type: "placed", Data: json.RawMessage(`{}`)}, {Type: typ, Data: json.RawMessage(st)}}
				checkLogEntryWith(t, &domain.MoveRecord{Seq: 2, Move: json.RawMessage(mv)}, events)
			}
		}
	}
}

// BenchmarkLogEntryWith reads a Silver & Gold move and its status.
func BenchmarkLogEntryWith(b *testing.B) {
	m := &domain.MoveRecord{Seq: 9, Move: json.RawMessage(`{"type":"cross","seat":2,"boxes":[[1,2],[3,4]]}`)}
	events := []domain.Event{{Type: "crossed", Data: json.RawMessage(`{"seat":2}`)}, {Type: "status", Data: json.RawMessage(
		`{"phase":"crossing","round":2,"turn":1,"start_player":0,"expedition":{"code":"E3","name":"The Lagoon","name_message":{"key":"sg.expedition.E3"},"boxes":[[0,1],[2,3],[4,5]]},"revealed_this_round":["a","b"],"deck_size":31,"resolving":null,"awaiting":[{"seat":0,"what":"cross"},{"seat":1,"what":"cross"}],"on_turn":null,"turn_number":14}`)}}
	for b.Loop() {
		domain.LogEntryWith(m, events)
	}
}
