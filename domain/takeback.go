package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/treasury-games/treasury/domain/i18n"
)

// Take-backs (issue 23): a seat takes back its own latest move, the host of a
// physical game corrects the table's latest moves and reports. A take-back
// is itself a move of the log, {"type":"take_back","version":V}, logged with
// every version it took back; nothing is rewritten. The game after it is the
// replay, from creation, of the log without every move taken back (a game is
// a pure function of its setup and its moves; a digital game's draws come
// from labelled streams of its seed, so a move that drew nothing changes no
// later draw). The policy below says what may be taken back; each ruleset
// adds what only it knows through TakeBackPolicy.

// MoveTakeBack is the type of the take-back move, the same in every ruleset.
const MoveTakeBack = "take_back"

// MaxTakeBack is how many moves one take-back may take back, and
// TakeBackWindow how many of the log's latest moves the policy reads: the
// cost of a listing or a take-back stays bounded however long the game.
const (
	MaxTakeBack    = 16
	TakeBackWindow = 64
)

// MaxTakeBacksPerTurn is how many take-backs one actor may make in a turn
// (as Silver & Gold's 20 changes of a crossing): each one replays the game.
const MaxTakeBacksPerTurn = 20

// TakeBack is the take-back move. A client sends Type and Version (the
// earliest move to take back: a seat's own latest move, or, for the host of a
// physical game, the first of the latest moves to correct); the log adds
// Versions, every move it took back, earliest first.
type TakeBack struct {
	Type     string  `json:"type"`
	Version  int64   `json:"version"`
	Versions []int64 `json:"versions,omitempty"`
}

// IsTakeBack reports whether move (JSON) is a take-back.
func IsTakeBack(move []byte) bool {
	if !bytes.Contains(move, []byte(MoveTakeBack)) { // string(move) would copy a move of more than 32 bytes
		return false
	}
	var m struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(move, &m) == nil && m.Type == MoveTakeBack
}

// ParseTakeBack reads a take-back sent by a client: Invalid when it cannot.
func ParseTakeBack(move []byte) (TakeBack, error) {
	var m TakeBack
	d := json.NewDecoder(strings.NewReader(string(move)))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil || m.Type != MoveTakeBack {
		return TakeBack{}, Fail(Invalid, "table.takeback.shape", "shape", `{"type":"take_back","version":V}`)
	}
	if len(m.Versions) > 0 {
		return TakeBack{}, Fail(Invalid, "table.takeback.versions")
	}
	if m.Version < 1 {
		return TakeBack{}, Fail(Invalid, "table.takeback.version", "version", m.Version)
	}
	return m, nil
}

// TakeBackPolicy is a Ruleset's part of the take-back policy: what only the
// game knows about a move it logged. It is optional: a ruleset without one
// has every move of a digital game sealed (TakeBackPolicyOf), as Lucky
// Treasure Hunter, where every move shows cards or rolls dice; whose move it
// was and when the turn passed the shared policy reads itself.
type TakeBackPolicy interface {
	// TakeBackMark says how the logged move e bears on take-backs in a game
	// of mode.
	TakeBackMark(mode string, e LogEntry) TakeBackMark
}

// TakeBackPolicyOf returns rs's part of the take-back policy: its own, or
// for a ruleset without one, the policy that seals every move of a digital
// game.
func TakeBackPolicyOf(rs any) TakeBackPolicy {
	if p, ok := rs.(TakeBackPolicy); ok && p != nil {
		return p
	}
	return sealAll{}
}

// sealAll is the policy of a ruleset without its own.
type sealAll struct{}

func (sealAll) TakeBackMark(string, LogEntry) TakeBackMark { return TakeBackMark{Sealed: true} }

// TakeBackMark is what a ruleset says of a logged move.
type TakeBackMark struct {
	// Sealed (digital games): the move showed something to a seat other
	// than the one that made it, or drew, dealt or rolled: neither it nor
	// any move before it may be taken back.
	Sealed bool
	// Simultaneous: a hidden choice made while other seats make theirs
	// (Silver & Gold's keep and cross): another seat's simultaneous choice
	// after it does not stop its take-back, and stays when it is taken back.
	Simultaneous bool
}

// LogEntry is a logged move as the take-back policy reads it: the move in
// full, and where the game stood after it (from its status event).
type LogEntry struct {
	Seq   int64
	Actor Actor
	Type  string
	Move  json.RawMessage
	// Phase and TurnNumber after the move.
	Phase      string
	TurnNumber int
	// Events are the types of the events the move caused, in order.
	Events []string
	// Took lists the versions a take-back took back (nil for other moves).
	Took []int64
	// Disclosed: the move caused an event told to one seat only or live
	// only (Event.For, Event.Live), a card shown or drawn: in a digital
	// game it is sealed whatever the ruleset says, as a take-back cannot
	// make a seat forget what it saw.
	Disclosed bool
}

// LogEntryOf reads a stored move and its events as the policy reads them:
// where the game stood after it from its last status (or taken_back) event.
func LogEntryOf(m *MoveRecord) LogEntry {
	var events []Event
	_ = json.Unmarshal(m.Events, &events)
	var phase string
	var turn int
	for _, ev := range events {
		if ev.Type == "status" || ev.Type == EventTakenBack {
			var st struct {
				Phase      string `json:"phase"`
				TurnNumber int    `json:"turn_number"`
			}
			if json.Unmarshal(ev.Data, &st) == nil {
				phase, turn = st.Phase, st.TurnNumber
			}
		}
	}
	return LogEntryWith(m, events, phase, turn)
}

// LogEntryWith is LogEntryOf for a move whose events (m.Events) the caller
// holds decoded, and whose game it holds: phase and turn are the game's
// after the move (Game.Phase, TableStatus.TurnNumber), which its status
// event says too (the conformance suite holds every ruleset to it). The
// service, which has just applied the move, reads them as they are instead
// of decoding what it encoded (issue 27: the status event's decoding was
// 2.8% of the server's CPU in a load run).
func LogEntryWith(m *MoveRecord, events []Event, phase string, turn int) LogEntry {
	e := LogEntry{Seq: m.Seq, Actor: m.Actor, Move: m.Move, Phase: phase, TurnNumber: turn}
	var mv struct {
		Type     string  `json:"type"`
		Versions []int64 `json:"versions"`
	}
	_ = json.Unmarshal(m.Move, &mv)
	e.Type = mv.Type
	if e.Type == MoveTakeBack {
		e.Took = mv.Versions
	}
	for _, ev := range events {
		e.Events = append(e.Events, ev.Type)
		e.Disclosed = e.Disclosed || Discloses(ev)
	}
	return e
}

// Discloses reports whether event ev shows something only some viewers
// see (LogEntry.Disclosed).
func Discloses(ev Event) bool { return ev.For != nil || ev.Live }

// EventTakenBack is the event of a take-back (TakenBack is its data).
const EventTakenBack = "taken_back"

// TakenBack is the data of the taken_back event: which versions were taken
// back, by whom, and where the game stands now (the table status, and the
// game as the public sees it: a table view follows the game from it; a seat
// reads its own view again for what only it sees).
type TakenBack struct {
	Versions []int64     `json:"versions"`
	By       RecordActor `json:"by"`
	Moves    []TakenMove `json:"moves"`
	Label    string      `json:"label"`
	// LabelMessage is Label as a message (its parameter "moves" the moves
	// taken back), for the API to render in the reader's language.
	LabelMessage *i18n.Message `json:"label_message,omitempty"`
	Phase        string        `json:"phase"`
	TableStatus
	State json.RawMessage `json:"state"`
}

// TakenMove is one move a take-back took back: its version, who made it and
// its type (nothing a viewer could not read of the move itself).
type TakenMove struct {
	Seq   int64       `json:"seq"`
	Actor RecordActor `json:"actor"`
	Type  string      `json:"type"`
}

// TakeBackChoice is one take-back an actor may make now: the move to send
// and the versions it takes back, earliest first.
type TakeBackChoice struct {
	Move     TakeBack
	Versions []int64
	Moves    []LogEntry // the moves taken back, as Versions
}

// Label says, in plain English words, what the choice takes back.
func (c TakeBackChoice) Label(actor Actor, players []string) string {
	return i18n.Text(c.LabelMessage(actor, players))
}

// LabelMessage says what the choice takes back as a message: "Undo: take
// back {moves}" (a seat's own move, or the host's own report) or "Correct:
// take back {moves}" (the host correcting the table), its parameter "moves"
// the moves taken back, each "{type} by {player} (move {seq})".
func (c TakeBackChoice) LabelMessage(actor Actor, players []string) i18n.Message {
	moves := make([]i18n.Message, 0, len(c.Moves))
	for _, m := range c.Moves {
		moves = append(moves, TakenMoveMessage(m.Type, m.Actor, m.Seq, players))
	}
	if actor.Host && !(len(c.Moves) == 1 && c.Moves[0].Actor == actor) {
		return i18n.M("table.takeback.label-correct", "moves", moves)
	}
	return i18n.M("table.takeback.label-undo", "moves", moves)
}

// TakenMoveMessage names move seq of type typ made by a (a seat of players,
// or the host) in a label.
func TakenMoveMessage(typ string, a Actor, seq int64, players []string) i18n.Message {
	switch {
	case a.Host:
		return i18n.M("table.takeback.move-host", "type", typ, "seq", seq)
	case a.Seat >= 0 && a.Seat < len(players):
		return i18n.M("table.takeback.move", "type", typ, "player", players[a.Seat], "seq", seq)
	}
	return i18n.M("table.takeback.move-seat", "type", typ, "seat", a.Seat, "seq", seq)
}

// TakeBackLog is the latest moves of a game as the policy reads them.
type TakeBackLog struct {
	Mode       string
	Ended      bool
	TurnNumber int // the game's turn number now
	// Entries are the latest logged moves in order, take-backs included;
	// Complete says they reach back to the game's first move.
	Entries  []LogEntry
	Complete bool
}

// standing returns the entries of l that stand: neither a take-back nor
// taken back.
func (l *TakeBackLog) standing() []LogEntry {
	if !slices.ContainsFunc(l.Entries, func(e LogEntry) bool { return e.Type == MoveTakeBack }) {
		// No take-back: every move stands, and the log is read as it is
		// (its callers only read it) rather than copied at every listing
		// (6% of the server's CPU per Silver & Gold move, issue 27).
		return l.Entries
	}
	gone := map[int64]bool{}
	for _, e := range l.Entries {
		for _, v := range e.Took {
			gone[v] = true
		}
	}
	var out []LogEntry
	for _, e := range l.Entries {
		if e.Type != MoveTakeBack && !gone[e.Seq] {
			out = append(out, e)
		}
	}
	return out
}

// TakeBackChoices lists the take-backs actor may make now under the policy:
//
//   - Anyone (a seat, or the host for its own moves) may take back its own
//     latest move while no other actor has acted since (but for another
//     seat's simultaneous choice after a simultaneous choice). In a digital
//     game neither that move nor any after it may be sealed: nothing shown
//     to another seat, nothing drawn, dealt or rolled (the ruleset's
//     TakeBackMark, and LogEntry.Disclosed for every ruleset). In a physical game
//     the move must be of the current turn.
//   - The host of a physical game may correct the latest moves and reports,
//     whoever made them, back to the start of the current turn (every move
//     after which the turn number was the current one), at most MaxTakeBack.
//
// An actor that made MaxTakeBacksPerTurn take-backs this turn may make no more.
func TakeBackChoices(p TakeBackPolicy, l *TakeBackLog, actor Actor) []TakeBackChoice {
	if l.Ended {
		return nil
	}
	took := 0
	for _, e := range l.Entries {
		if e.Type == MoveTakeBack && e.Actor == actor && e.TurnNumber == l.TurnNumber {
			took++
		}
	}
	if took >= MaxTakeBacksPerTurn {
		return nil
	}
	st := l.standing()
	if p == nil {
		p = sealAll{}
	}
	mark := func(e LogEntry) TakeBackMark {
		m := p.TakeBackMark(l.Mode, e)
		m.Sealed = m.Sealed || e.Disclosed
		return m
	}
	inTurn := func(e LogEntry) bool { return e.TurnNumber == l.TurnNumber }
	var out []TakeBackChoice
	if actor.Host && l.Mode == Physical {
		for k := 1; k <= MaxTakeBack && k <= len(st); k++ {
			e := st[len(st)-k]
			if !inTurn(e) {
				break
			}
			moves := slices.Clone(st[len(st)-k:])
			c := TakeBackChoice{Move: TakeBack{Type: MoveTakeBack, Version: e.Seq}, Moves: moves}
			for _, m := range moves {
				c.Versions = append(c.Versions, m.Seq)
			}
			out = append(out, c)
		}
		return out
	}
	// Own latest move.
	i := len(st) - 1
	for i >= 0 && st[i].Actor != actor {
		i--
	}
	if i < 0 {
		return nil
	}
	m := st[i]
	mm := mark(m)
	if l.Mode == Digital && mm.Sealed || l.Mode == Physical && !inTurn(m) {
		return nil
	}
	for _, e := range st[i+1:] {
		em := mark(e)
		if !mm.Simultaneous || !em.Simultaneous || l.Mode == Digital && em.Sealed || l.Mode == Physical && !inTurn(e) {
			return nil
		}
	}
	return []TakeBackChoice{{Move: TakeBack{Type: MoveTakeBack, Version: m.Seq}, Versions: []int64{m.Seq}, Moves: []LogEntry{m}}}
}

// ChooseTakeBack returns the choice of TakeBackChoices that move (a
// take-back sent by actor) makes, or the refusal a player can act on.
func ChooseTakeBack(p TakeBackPolicy, l *TakeBackLog, actor Actor, move TakeBack, latest int64) (TakeBackChoice, error) {
	if l.Ended {
		return TakeBackChoice{}, Refuse("take-back-ended", "table.takeback.ended")
	}
	choices := TakeBackChoices(p, l, actor)
	for _, c := range choices {
		if c.Move.Version == move.Version {
			return c, nil
		}
	}
	if move.Version > latest {
		return TakeBackChoice{}, Refuse("take-back-standing", "table.takeback.no-move", "move", move.Version, "version", latest)
	}
	for _, e := range l.Entries {
		if e.Seq == move.Version && e.Type == MoveTakeBack {
			return TakeBackChoice{}, Refuse("take-back-standing", "table.takeback.of-take-back", "move", move.Version)
		}
		if slices.Contains(e.Took, move.Version) {
			return TakeBackChoice{}, Refuse("take-back-standing", "table.takeback.already", "move", move.Version, "by", e.Seq)
		}
	}
	took := 0
	for _, e := range l.Entries {
		if e.Type == MoveTakeBack && e.Actor == actor && e.TurnNumber == l.TurnNumber {
			took++
		}
	}
	if took >= MaxTakeBacksPerTurn {
		return TakeBackChoice{}, Refuse("take-back-limit", "table.takeback.limit", "count", took)
	}
	var allowed []string
	for _, c := range choices {
		allowed = append(allowed, fmt.Sprint(c.Move.Version))
	}
	hint := i18n.M("table.takeback.hint-none")
	if len(allowed) > 0 {
		hint = i18n.M("table.takeback.hint-from", "versions", strings.Join(allowed, ", "))
	}
	st := l.standing()
	var own *LogEntry
	for i := range st {
		if st[i].Seq == move.Version {
			own = &st[i]
		}
	}
	switch {
	case own != nil && own.Actor != actor && !(actor.Host && l.Mode == Physical):
		return TakeBackChoice{}, Refuse("take-back-own", "table.takeback.not-own", "move", move.Version, "hint", hint)
	case l.Mode == Digital:
		return TakeBackChoice{}, Refuse("take-back-sealed", "table.takeback.sealed", "move", move.Version, "hint", hint)
	case actor.Host:
		return TakeBackChoice{}, Refuse("take-back-turn", "table.takeback.host-turn", "max", MaxTakeBack, "move", move.Version, "hint", hint)
	}
	return TakeBackChoice{}, Refuse("take-back-turn", "table.takeback.turn", "move", move.Version, "hint", hint)
}

// ReplayLog replays a log that may hold take-backs: each take-back must
// name moves that stand, and the game is the replay of the moves left
// standing (every move is replayed up to each take-back too, so that a
// move taken back was legal when it was made). The index returned is into
// moves, as Ruleset.Replay's.
func ReplayLog(rs Ruleset, req CreateRequest, cat CatalogBlob, moves []ReplayMove) (Game, int, error) {
	var (
		standing []ReplayMove
		at       []int // index in moves of each standing move
	)
	for i, m := range moves {
		if !IsTakeBack(m.Move) {
			standing, at = append(standing, m), append(at, i)
			continue
		}
		g, bad, err := rs.Replay(req, cat, standing)
		if err != nil {
			if g == nil || bad < 1 {
				return g, bad, err
			}
			return g, at[bad-1] + 1, err
		}
		var tb TakeBack
		if err := json.Unmarshal(m.Move, &tb); err != nil || len(tb.Versions) == 0 || tb.Versions[0] != tb.Version {
			return g, i + 1, Fail(Invalid, "table.takeback.unlisted", "move", i+1)
		}
		drop := map[int]bool{}
		for _, v := range tb.Versions {
			j := slices.Index(at, int(v)-1)
			if j < 0 {
				return g, i + 1, Refuse("take-back-standing", "table.takeback.not-standing", "move", i+1, "took", v)
			}
			if standing[j].Actor != m.Actor && !(m.Actor.Host && req.Mode == Physical) {
				return g, i + 1, Refuse("take-back-own", "table.takeback.other-seat", "move", i+1, "took", v)
			}
			drop[j] = true
		}
		var s2 []ReplayMove
		var a2 []int
		for j := range standing {
			if !drop[j] {
				s2, a2 = append(s2, standing[j]), append(a2, at[j])
			}
		}
		standing, at = s2, a2
	}
	g, bad, err := rs.Replay(req, cat, standing)
	if err != nil && g != nil && bad >= 1 {
		bad = at[bad-1] + 1
	}
	return g, bad, err
}
