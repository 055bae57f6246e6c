package domain_test

import (
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// openPolicy says every move is open: what remains sealed, the shared
// policy seals.
type openPolicy struct{}

func (openPolicy) TakeBackMark(string, domain.LogEntry) domain.TakeBackMark {
	return domain.TakeBackMark{}
}

// TestTakeBackChoicesShared: what the shared policy decides for every
// ruleset, whatever its own part says.
func TestTakeBackChoicesShared(t *testing.T) {
	seat0, seat1 := domain.Actor{Seat: 0}, domain.Actor{Seat: 1}
	entry := func(seq int64, a domain.Actor, events ...domain.Event) domain.LogEntry {
		e := domain.LogEntry{Seq: seq, Actor: a, Type: "move", TurnNumber: 1}
		for _, ev := range events {
			e.Events = append(e.Events, ev.Type)
			e.Disclosed = e.Disclosed || domain.Discloses(ev)
		}
		return e
	}
	one := 1
	public := domain.Event{Type: "done"}
	tests := []struct {
		name   string
		policy domain.TakeBackPolicy // nil: the ruleset has none
		mode   string
		log    []domain.LogEntry
		actor  domain.Actor
		want   []int64 // the versions offered
	}{
		{name: "own latest move, open", policy: openPolicy{}, mode: domain.Digital, log: []domain.LogEntry{entry(1, seat0, public)}, actor: seat0, want: []int64{1}},
		{name: "another seat acted since", policy: openPolicy{}, mode: domain.Digital, log: []domain.LogEntry{entry(1, seat0, public), entry(2, seat1, public)}, actor: seat0},
		{name: "not own move", policy: openPolicy{}, mode: domain.Digital, log: []domain.LogEntry{entry(1, seat0, public)}, actor: seat1},
		{name: "shown to one seat", policy: openPolicy{}, mode: domain.Digital, log: []domain.LogEntry{entry(1, seat0, domain.Event{Type: "peeked", For: &one})}, actor: seat0},
		{name: "shown live only", policy: openPolicy{}, mode: domain.Digital, log: []domain.LogEntry{entry(1, seat0, domain.Event{Type: "revealed", Live: true})}, actor: seat0},
		{name: "shown, in a physical game", policy: openPolicy{}, mode: domain.Physical, log: []domain.LogEntry{entry(1, seat0, domain.Event{Type: "revealed", Live: true})}, actor: seat0, want: []int64{1}},
		{name: "ruleset without a policy, digital", mode: domain.Digital, log: []domain.LogEntry{entry(1, seat0, public)}, actor: seat0},
		{name: "ruleset without a policy, physical", mode: domain.Physical, log: []domain.LogEntry{entry(1, seat0, public)}, actor: seat0, want: []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &domain.TakeBackLog{Mode: tt.mode, TurnNumber: 1, Entries: tt.log, Complete: true}
			var got []int64
			for _, c := range domain.TakeBackChoices(domain.TakeBackPolicyOf(tt.policy), l, tt.actor) {
				got = append(got, c.Move.Version)
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Fatalf("offered %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLogEntryOfDisclosed: a stored move that told an event to one seat or
// live only reads as Disclosed; one whose events are all public does not.
func TestLogEntryOfDisclosed(t *testing.T) {
	for events, want := range map[string]bool{
		`[{"type":"placed","data":{}},{"type":"status","data":{"phase":"x","turn_number":2}}]`:     false,
		`[{"type":"drawn","for":1,"not_host":true,"data":{}},{"type":"status","data":{}}]`:         true,
		`[{"type":"cards_revealed","live":true,"data":{}},{"type":"status","data":{"phase":"x"}}]`: true,
	} {
		e := domain.LogEntryOf(&domain.MoveRecord{Seq: 3, Move: []byte(`{"type":"move"}`), Events: []byte(events)})
		if e.Disclosed != want {
			t.Errorf("events %s: Disclosed %v, want %v", events, e.Disclosed, want)
		}
	}
}
