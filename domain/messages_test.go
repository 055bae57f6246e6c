package domain_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// checkMessage asserts that err is a *domain.Error whose reason is a
// message every language has, that renders in German with every parameter
// filled in, differently from English, and whose English is the Reason.
func checkMessage(t *testing.T, what string, err error) {
	t.Helper()
	var e *domain.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v is no *domain.Error", what, err)
		return
	}
	if e.Msg.Zero() {
		t.Errorf("%s: %q has no message", what, e.Reason)
		return
	}
	for _, l := range i18n.Languages() {
		if !i18n.Has(l, e.Msg.Key) {
			t.Errorf("%s: %s has no %s", what, l, e.Msg.Key)
		}
	}
	de := i18n.Render("de", e.Msg)
	if strings.ContainsAny(de, "{}") && !strings.Contains(e.Reason, "{") {
		t.Errorf("%s: the German of %s leaves a placeholder: %q", what, e.Msg.Key, de)
	}
	if de == e.Reason {
		t.Errorf("%s: %s is the same in German and English: %q", what, e.Msg.Key, de)
	}
	if en := i18n.Text(e.Msg); en != e.Reason {
		t.Errorf("%s: the reason %q is not the English of its message, %q", what, e.Reason, en)
	}
}

// TestTableRefusalsAreMessages provokes the refusals every game shares (a
// move that does not decode, a take-back the policy refuses, options and
// setups that do not hold) and checks each says its reason as a message a
// German table reads in German.
func TestTableRefusalsAreMessages(t *testing.T) {
	t.Run("DecodeMove", func(t *testing.T) {
		var m struct {
			Type  string   `json:"type"`
			Seat  int      `json:"seat"`
			Cards []string `json:"cards"`
			Open  bool     `json:"open"`
		}
		for _, body := range []string{`{"type":"x","seat":1.5}`, `{"type":"x","seat":"1"}`, `{"type":"x","cards":"a"}`,
			`{"type":"x","open":1}`, `{"type":1}`, `{"type":"x","colour":1}`, `{"type":"x"} {}`, `{"type":`} {
			err := domain.DecodeMove([]byte(body), "Silver & Gold", &m)
			checkMessage(t, body, err)
		}
		err := domain.DecodeMove([]byte(`{"type":"x","seat":1.5}`), "Silver & Gold", &m)
		if de := i18n.Render("de", domain.ErrorMessage(err)); de != "seat muss eine ganze Zahl ohne Dezimalpunkt und Exponent sein (etwa 0 oder 2), nicht Zahl 1.5" {
			t.Errorf("German: %q", de)
		}
	})

	t.Run("ParseTakeBack", func(t *testing.T) {
		for _, body := range []string{`{"type":"keep"}`, `{"type":"take_back","version":2,"versions":[2]}`, `{"type":"take_back","version":0}`} {
			_, err := domain.ParseTakeBack([]byte(body))
			checkMessage(t, body, err)
		}
	})

	t.Run("ChooseTakeBack", func(t *testing.T) {
		seat0, seat1, host := domain.Actor{Seat: 0}, domain.Actor{Seat: 1}, domain.Actor{Host: true}
		move := func(seq int64, a domain.Actor, turn int) domain.LogEntry {
			return domain.LogEntry{Seq: seq, Actor: a, Type: "keep", TurnNumber: turn}
		}
		tb := func(seq int64, a domain.Actor, turn int, took ...int64) domain.LogEntry {
			return domain.LogEntry{Seq: seq, Actor: a, Type: domain.MoveTakeBack, TurnNumber: turn, Took: took}
		}
		var limit []domain.LogEntry
		for i := range domain.MaxTakeBacksPerTurn {
			limit = append(limit, move(int64(2*i+1), seat0, 1), tb(int64(2*i+2), seat0, 1, int64(2*i+1)))
		}
		limit = append(limit, move(int64(len(limit)+1), seat0, 1))
		cases := []struct {
			name    string
			log     domain.TakeBackLog
			actor   domain.Actor
			version int64
			latest  int64
			rule    string
		}{
			{"ended", domain.TakeBackLog{Mode: domain.Digital, Ended: true}, seat0, 1, 1, "take-back-ended"},
			{"no such move", domain.TakeBackLog{Mode: domain.Digital, Entries: []domain.LogEntry{move(1, seat0, 1)}}, seat0, 5, 1, "take-back-standing"},
			{"a take-back", domain.TakeBackLog{Mode: domain.Physical, TurnNumber: 1, Entries: []domain.LogEntry{move(1, seat0, 1), tb(2, seat0, 1, 1)}}, seat0, 2, 2, "take-back-standing"},
			{"taken back", domain.TakeBackLog{Mode: domain.Physical, TurnNumber: 1, Entries: []domain.LogEntry{move(1, seat0, 1), tb(2, seat0, 1, 1)}}, seat0, 1, 2, "take-back-standing"},
			{"limit", domain.TakeBackLog{Mode: domain.Physical, TurnNumber: 1, Entries: limit}, seat0, int64(len(limit)), int64(len(limit)), "take-back-limit"},
			{"another seat's", domain.TakeBackLog{Mode: domain.Physical, TurnNumber: 1, Entries: []domain.LogEntry{move(1, seat0, 1), move(2, seat1, 1)}}, seat0, 2, 2, "take-back-own"},
			{"sealed", domain.TakeBackLog{Mode: domain.Digital, TurnNumber: 1, Entries: []domain.LogEntry{move(1, seat0, 1)}}, seat0, 1, 1, "take-back-sealed"},
			{"host, earlier turn", domain.TakeBackLog{Mode: domain.Physical, TurnNumber: 2, Entries: []domain.LogEntry{move(1, seat0, 1), move(2, seat1, 2)}}, host, 1, 2, "take-back-turn"},
			{"seat, earlier turn", domain.TakeBackLog{Mode: domain.Physical, TurnNumber: 2, Entries: []domain.LogEntry{move(1, seat0, 1)}}, seat0, 1, 1, "take-back-turn"},
		}
		for _, c := range cases {
			_, err := domain.ChooseTakeBack(nil, &c.log, c.actor, domain.TakeBack{Type: domain.MoveTakeBack, Version: c.version}, c.latest)
			if domain.ErrorRule(err) != c.rule {
				t.Errorf("%s: %v, want rule %s", c.name, err, c.rule)
			}
			checkMessage(t, c.name, err)
		}
	})

	t.Run("TakeBackLabel", func(t *testing.T) {
		c := domain.TakeBackChoice{Moves: []domain.LogEntry{{Seq: 3, Actor: domain.Actor{Seat: 0}, Type: "keep"}, {Seq: 4, Actor: domain.Actor{Host: true}, Type: "report"}}}
		m := c.LabelMessage(domain.Actor{Host: true}, []string{"Ann", "Ben"})
		if en := c.Label(domain.Actor{Host: true}, []string{"Ann", "Ben"}); en != "Correct: take back keep by Ann (move 3) and report by the host (move 4)" {
			t.Errorf("English: %q", en)
		}
		if de := i18n.Render("de", m); de != "Korrigieren: keep von Ann (Zug 3) und report von der Spielleitung (Zug 4) zurücknehmen" {
			t.Errorf("German: %q", de)
		}
	})

	t.Run("options and setup", func(t *testing.T) {
		lo, hi := 1, 3
		offered := []domain.Option{
			{Name: "rounds", Type: "integer", Default: json.RawMessage(`2`), Minimum: &lo, Maximum: &hi},
			{Name: "start", Type: "integer", Default: json.RawMessage(`0`), Seat: true},
			{Name: "open", Type: "boolean", Default: json.RawMessage(`false`)},
			{Name: "variant", Type: "string", Default: json.RawMessage(`"basic"`), Enum: []string{"basic", "advanced"}},
		}
		for _, raw := range []string{`[]`, `{"colour":1}`, `{"rounds":null}`, `{"rounds":2.5}`, `{"rounds":9}`, `{"start":4}`,
			`{"open":"yes"}`, `{"variant":3}`, `{"variant":"expert"}`} {
			_, err := domain.ResolveOptions(offered, json.RawMessage(raw), 2)
			checkMessage(t, raw, err)
		}
		_, err := domain.ResolveOptions(nil, json.RawMessage(`{"colour":1}`), 2)
		checkMessage(t, "no options", err)
		for name, err := range map[string]error{
			"players":       domain.CheckSetup("Silver & Gold", domain.Digital, []string{"Ann"}, "s", 2, 4),
			"no seed":       domain.CheckSetup("Silver & Gold", domain.Digital, []string{"Ann", "Ben"}, "", 2, 4),
			"physical seed": domain.CheckSetup("Silver & Gold", domain.Physical, []string{"Ann", "Ben"}, "s", 2, 4),
			"long seed":     domain.CheckSetup("Silver & Gold", domain.Digital, []string{"Ann", "Ben"}, strings.Repeat("s", domain.MaxSeedLength+1), 2, 4),
		} {
			checkMessage(t, name, err)
		}
	})
}
