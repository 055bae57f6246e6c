package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Take-backs (issue 23; the policy is domain.TakeBackChoices): the service
// reads the game's latest moves, asks the policy, and builds the game after
// a take-back by replaying the log from creation without the moves taken
// back. The take-back is logged as a move like any other (with the versions
// it took back) and told as a taken_back event with where the game stands.

// logged appends move m, played on the head at version v, with events (the
// decoded m.Events), to t's take-back log when it is known at v, and
// forgets it otherwise; h is the head of the game after m. t.mu is held.
func (t *entry) logged(v int64, m *domain.MoveRecord, events []domain.Event, h *domain.GameHead) {
	if t.tbVersion != v || t.tbVersion < 0 {
		t.tbLog, t.tbVersion = nil, -1
		return
	}
	e := domain.LogEntryWith(m, events, h.Phase, h.TurnNumber)
	e.Move = nil // the policy reads the type; the move stays in the store
	t.tbLog = append(t.tbLog, e)
	if len(t.tbLog) > domain.TakeBackWindow+tbSlack {
		t.tbLog = append(t.tbLog[:0:0], t.tbLog[len(t.tbLog)-domain.TakeBackWindow-tbSlack/4:]...)
	}
	t.tbVersion = m.Seq
}

// tbSlack is how many entries beyond domain.TakeBackWindow an entry's
// take-back log may hold: while moves are on their way to the store, a
// listing reads the log at the committed version, behind the head, and
// finds its window in memory instead of reading and decoding the last
// moves from the store (which cost a listing of Silver & Gold more than the
// rules did). The log is cut back to the window and a quarter of the slack
// when it outgrows it, so that cutting copies once in many moves.
const tbSlack = 64

// tbWindow returns the take-back log at version v (the entries of the moves
// after v-domain.TakeBackWindow up to v) from t.tbLog, or nil when it does
// not hold all of them. The entries up to v are those of stored moves when v
// is a committed version: a move that fails in the store makes the head
// stale, and reading the head again forgets the log. t.mu is held.
func (t *entry) tbWindow(v int64) []domain.LogEntry {
	if t.tbVersion < 0 || t.tbVersion < v {
		return nil
	}
	first := t.tbVersion - int64(len(t.tbLog)) + 1 // the seq of tbLog[0]
	after := max(0, v-domain.TakeBackWindow)
	if first > after+1 {
		return nil
	}
	return t.tbLog[after+1-first : v-first+1]
}

// cachedTakeBackLog returns the take-back log of game id at version v from
// memory, or nil. It is a piece of the entry's log, not a copy (which was
// 64 entries, ~11 KB, per listing): the log only ever grows past the window
// (logged appends after it, and the returned piece's capacity ends with it)
// or is replaced by a new array (cut back, cached again, forgotten), so
// the entries read stay as they are. Its readers only read it.
//
// On a shared store too: v is a version read from the store (or stored by
// this server), and a game's log up to a version never changes; a game
// another server moved is read again, and its log with it.
func (s *Games) cachedTakeBackLog(id string, v int64) []domain.LogEntry {
	t := s.acquire(id)
	defer s.release(t)
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.tbWindow(v)
	return w[:len(w):len(w)]
}

// cacheTakeBackLog keeps entries, game id's take-back log at version v, when
// the game's head is still at v.
func (s *Games) cacheTakeBackLog(id string, v int64, entries []domain.LogEntry) {
	t := s.acquire(id)
	defer s.release(t)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.g == nil || t.stale || t.pending > 0 || t.rec.Version != v {
		return
	}
	t.tbLog = make([]domain.LogEntry, len(entries))
	for i, e := range entries {
		e.Move = nil
		t.tbLog[i] = e
	}
	t.tbVersion = v
}

// takeBackLog reads the latest moves of game rec (at most
// domain.TakeBackWindow) as the policy reads them, from cached() unless it
// returns nil. turn is the game's turn number now.
func (s *Games) takeBackLog(ctx context.Context, rec domain.GameRecord, turn int, cached func() []domain.LogEntry) (*domain.TakeBackLog, error) {
	l := &domain.TakeBackLog{Mode: rec.Mode, Ended: rec.Ended, TurnNumber: turn}
	if rec.Version == 0 || rec.Ended {
		l.Complete = true
		return l, nil
	}
	after := max(0, rec.Version-domain.TakeBackWindow)
	l.Complete = after == 0
	if l.Entries = cached(); l.Entries != nil {
		return l, nil
	}
	moves, err := s.store.Moves(ctx, rec.ID, after, int(rec.Version-after))
	if err != nil {
		return nil, err
	}
	for i := range moves {
		if moves[i].Seq <= rec.Version {
			l.Entries = append(l.Entries, domain.LogEntryOf(&moves[i]))
		}
	}
	return l, nil
}

// takeBackActor is who a listing for seat, read by viewer v, offers
// take-backs to: the seat itself, or the host for the table's reports (seat
// -1); ok is false for anyone else.
func takeBackActor(v domain.Viewer, seat int) (domain.Actor, bool) {
	switch {
	case seat == -1 && v.Host:
		return domain.Actor{Host: true}, true
	case seat >= 0 && !v.Host && v.Seat == seat:
		return domain.Actor{Seat: seat}, true
	}
	return domain.Actor{}, false
}

// takeBacks returns the listing entries of the take-backs actor may make
// now, each a ready move with its label; nil when none.
func (s *Games) takeBacks(ctx context.Context, rec domain.GameRecord, turn int, players []string, actor domain.Actor) ([]json.RawMessage, error) {
	if rec.Ended || rec.Version == 0 {
		return nil, nil
	}
	inMemory := false
	l, err := s.takeBackLog(ctx, rec, turn, func() []domain.LogEntry {
		e := s.cachedTakeBackLog(rec.ID, rec.Version)
		inMemory = e != nil
		return e
	})
	if err != nil {
		return nil, err
	}
	if !inMemory { // read from the store: keep it for the next listing
		s.cacheTakeBackLog(rec.ID, rec.Version, l.Entries)
	}
	p := domain.TakeBackPolicyOf(s.rulesets[rec.Ruleset])
	choices := domain.TakeBackChoices(p, l, actor)
	if len(choices) == 0 {
		return nil, nil
	}
	return s.takeBackEntries(rec.ID, actor, players, choices), nil
}

// keptTakeBacks is the take-back entries last built for an actor of a game
// (see listings), with the choices and players they were built from.
type keptTakeBacks struct {
	choices []domain.TakeBackChoice
	players []string
	entries []json.RawMessage
}

// takeBackEntries returns the listing entries of choices, the take-backs
// actor may make in game id, as built for it last when the choices are the
// same: a seat's stream reads its take-backs after every move of the table,
// and another seat's move most often leaves them as they were (their
// labels cost most of a kept listing's read). An entry is made from the
// choice's move, and its label from the moves it takes back, named by
// their versions (a committed version never changes), and players.
func (s *Games) takeBackEntries(id string, actor domain.Actor, players []string, choices []domain.TakeBackChoice) []json.RawMessage {
	t := s.acquire(id)
	defer s.release(t)
	t.listings.mu.Lock()
	k := t.listings.takeBacks[actor]
	t.listings.mu.Unlock()
	if k != nil && slices.Equal(k.players, players) && slices.EqualFunc(k.choices, choices, sameChoice) {
		return k.entries
	}
	entries := buildTakeBackEntries(actor, players, choices)
	t.listings.mu.Lock()
	if t.listings.takeBacks == nil {
		t.listings.takeBacks = map[domain.Actor]*keptTakeBacks{}
	}
	t.listings.takeBacks[actor] = &keptTakeBacks{choices: choices, players: players, entries: entries}
	t.listings.mu.Unlock()
	return entries
}

// sameChoice says whether a and b are the same take-back of the same moves.
func sameChoice(a, b domain.TakeBackChoice) bool {
	return a.Move.Type == b.Move.Type && a.Move.Version == b.Move.Version &&
		slices.Equal(a.Move.Versions, b.Move.Versions) && slices.Equal(a.Versions, b.Versions) &&
		slices.EqualFunc(a.Moves, b.Moves, func(x, y domain.LogEntry) bool {
			return x.Seq == y.Seq && x.Actor == y.Actor && x.Type == y.Type
		})
}

// buildTakeBackEntries returns the listing entries of choices, each a
// ready move with its label.
func buildTakeBackEntries(actor domain.Actor, players []string, choices []domain.TakeBackChoice) []json.RawMessage {
	// The entries share one array, each its own piece of it.
	entries := make([]json.RawMessage, len(choices))
	buf := make([]byte, 0, 384*len(choices))
	for i, c := range choices {
		start := len(buf)
		buf = domain.AppendTakeBackEntry(buf, c.Move, c.LabelMessage(actor, players))
		entries[i] = buf[start:len(buf):len(buf)]
	}
	return entries
}

// AppendTakeBacks appends to dst the JSON object listing with entries added
// at the end of its "moves" array (made when it has none).
func AppendTakeBacks(dst, listing []byte, entries []json.RawMessage) ([]byte, error) {
	if out, ok := appendMoves(dst, listing, entries); ok {
		return out, nil
	}
	out, err := appendMovesPlain(listing, entries)
	if err != nil {
		return nil, err
	}
	return append(dst, out...), nil
}

// appendMovesPlain returns the JSON object listing with entries added at
// the end of its "moves" array (made when it has none) by decoding and
// encoding the listing: the reference appendMoves is held to.
func appendMovesPlain(listing []byte, entries []json.RawMessage) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(listing, &m); err != nil {
		return nil, err
	}
	var moves []json.RawMessage
	if len(m["moves"]) > 0 {
		if err := json.Unmarshal(m["moves"], &moves); err != nil {
			return nil, err
		}
	}
	moves = append(moves, entries...)
	if moves == nil {
		moves = []json.RawMessage{}
	}
	m["moves"] = domain.MustJSON(moves)
	return json.Marshal(m)
}

// appendMoves is appendMovesPlain without decoding the listing, appending
// to dst: it finds the top-level "moves" member by skipping the others'
// values and copies the listing around the entries, which took a third of a
// Silver & Gold listing's time when it was decoded and encoded again
// (BenchmarkLegalMovesTakeBacks). ok is false when listing is not an object
// it can read (the plain version then says why).
func appendMoves(dst, listing []byte, entries []json.RawMessage) (out []byte, ok bool) {
	b := listing
	i := spaceAt(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	size := len(b) + 16
	for _, e := range entries {
		size += len(e) + 1
	}
	appendEntries := func(out []byte, comma bool) []byte {
		for _, e := range entries {
			if comma {
				out = append(out, ',')
			}
			out, comma = append(out, e...), true
		}
		return out
	}
	members := 0
	for i = spaceAt(b, i+1); i < len(b); {
		if b[i] == '}' {
			// No "moves": add one at the end.
			out = append(slices.Grow(dst, size), b[:i]...)
			if members > 0 {
				out = append(out, ',')
			}
			out = appendEntries(append(out, `"moves":[`...), false)
			return append(append(out, ']'), b[i:]...), true
		}
		if b[i] != '"' {
			return nil, false
		}
		keyEnd := skipValue(b, i)
		if keyEnd < 0 {
			return nil, false
		}
		key := b[i:keyEnd]
		i = spaceAt(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		start := spaceAt(b, i+1)
		end := skipValue(b, start)
		if end < 0 {
			return nil, false
		}
		if string(key) == `"moves"` {
			switch {
			case string(b[start:end]) == "null":
				out = append(append(slices.Grow(dst, size), b[:start]...), '[')
				out = appendEntries(out, false)
				return append(append(out, ']'), b[end:]...), true
			case b[start] == '[':
				closing := end - 1 // the array's ']'
				empty := spaceAt(b, start+1) == closing
				out = appendEntries(append(slices.Grow(dst, size), b[:closing]...), !empty)
				return append(out, b[closing:]...), true
			}
			return nil, false
		}
		members++
		i = spaceAt(b, end)
		if i < len(b) && b[i] == ',' {
			i = spaceAt(b, i+1)
		}
	}
	return nil, false
}

func spaceAt(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the JSON value starting at b[i],
// or -1 when there is none.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if i >= len(b) {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		default:
			if depth == 0 {
				j := i
				for j < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[j])) {
					j++
				}
				return j
			}
		}
	}
	return -1
}

// takeBack applies a take-back by actor to game g stored as rec, whose
// moves are all stored (none pending): it returns the game after it, the
// move as logged and its events. A refusal changes nothing.
//
// It is called with the game's cache entry locked: cached is the entry's
// take-back log when it is known at rec's version, nil otherwise.
func (s *Games) takeBack(ctx context.Context, rec domain.GameRecord, g domain.Game, actor domain.Actor, move []byte, cached []domain.LogEntry) (domain.Game, domain.Logged, []domain.Event, error) {
	tb, err := domain.ParseTakeBack(move)
	if err != nil {
		return nil, domain.Logged{}, nil, err
	}
	l, err := s.takeBackLog(ctx, rec, domain.StatusOf(g).TurnNumber, func() []domain.LogEntry { return cached })
	if err != nil {
		return nil, domain.Logged{}, nil, err
	}
	r := s.rulesets[rec.Ruleset]
	p := domain.TakeBackPolicyOf(r)
	c, err := domain.ChooseTakeBack(p, l, actor, tb, rec.Version)
	if err != nil {
		return nil, domain.Logged{}, nil, err
	}
	all, err := s.store.Moves(ctx, rec.ID, 0, int(rec.Version))
	if err != nil {
		return nil, domain.Logged{}, nil, err
	}
	if int64(len(all)) < rec.Version {
		return nil, domain.Logged{}, nil, fmt.Errorf("service: game %s is at version %d and its log holds %d moves", rec.ID, rec.Version, len(all))
	}
	replay := make([]domain.ReplayMove, 0, rec.Version+1)
	for _, m := range all[:rec.Version] {
		replay = append(replay, domain.ReplayMove{Actor: m.Actor, Move: m.Move})
	}
	tb.Versions = c.Versions
	logged := domain.MustJSON(tb)
	replay = append(replay, domain.ReplayMove{Actor: actor, Move: logged})
	cat, err := s.catalog(ctx, rec.CatalogHash)
	if err != nil {
		return nil, domain.Logged{}, nil, err
	}
	setup := g.Setup()
	g2, bad, err := domain.ReplayLog(r, setup, cat, replay)
	if err != nil {
		return nil, domain.Logged{}, nil, fmt.Errorf("service: game %s does not replay without moves %v (move %d: %w)", rec.ID, c.Versions, bad, err)
	}
	state, err := g2.AppendView(nil, domain.Public)
	if err != nil {
		return nil, domain.Logged{}, nil, err
	}
	label := c.LabelMessage(actor, setup.Players)
	ev := domain.TakenBack{Versions: c.Versions, By: domain.ActorOf(actor), Label: i18n.Text(label), LabelMessage: &label,
		Phase: g2.Phase(), State: state, TableStatus: domain.StatusOf(g2)}
	for _, m := range c.Moves {
		ev.Moves = append(ev.Moves, domain.TakenMove{Seq: m.Seq, Actor: domain.ActorOf(m.Actor), Type: m.Type})
	}
	events := []domain.Event{{Type: domain.EventTakenBack, Data: domain.MustJSON(ev)}}
	// The status of the last move left standing is where the game stands
	// now (in the ruleset's own words); with no move left standing,
	// taken_back alone says it.
	if evs := g2.Events(); len(evs) > 0 {
		all := MoveEvents(g2)
		if last := all[len(all)-1]; last.Type == "status" && last.For == nil {
			events = append(events, last)
		}
	}
	return g2, domain.Logged{Move: logged}, events, nil
}
