package luckytreasurehunter

import (
	"slices"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Move types. Every game's move types are distinct: these are Lucky Treasure
// Hunter's.
const (
	MovePlace   = "place"       // the seat on turn places 1-5 cards of one type into the middle
	MoveSteal   = "steal"       // the seat on turn names a set to steal
	MoveReroll  = "reroll"      // discard matching hand cards to re-roll that many failed dice
	MoveCaptain = "captain"     // turn the captain over to re-roll every failed die
	MoveStop    = "stop"        // give up the steal and take nothing
	MoveRoll    = "roll"        // physical: the table reports the faces of the dice rolled
	MoveMiddle  = "lth_middle"  // physical: the table reports the 3 cards turned into the middle at setup
	MoveMisdraw = "lth_misdraw" // physical: the table reports that a seat drew too many or too few cards
)

// Die faces as the API writes them.
const (
	FacePirate = "pirate"
	FaceBlank  = "blank"
)

// Move is anything a seat or the table can do. Which fields apply depends on
// Type; the JSON form is the one the API takes. Faces and Drawn are written
// by the server into a digital game's log (what it rolled and dealt) so that
// record verification can check them against the seed.
type Move struct {
	Type string `json:"type"`
	Seat *int   `json:"seat,omitempty"`
	// Drawn follows the seat so that a log entry reads "seat N drew …".
	Drawn    []string `json:"drawn,omitempty"`    // digital log: the cards the seat drew
	Treasure string   `json:"treasure,omitempty"` // place
	Count    int      `json:"count,omitempty"`    // place
	Owner    *int     `json:"owner,omitempty"`    // steal: the seat whose set; omitted for the middle
	Set      *int     `json:"set,omitempty"`      // steal: index of the set among its owner's
	Dice     int      `json:"dice,omitempty"`     // reroll: failed dice to re-roll
	Faces    []string `json:"faces,omitempty"`    // roll; digital log: the dice rolled
	Cards    []string `json:"cards,omitempty"`    // lth_middle
	// Corrections: lth_misdraw, one seat and the cards it holds beyond
	// the count (negative: fewer).
	Corrections []Misdraw `json:"corrections,omitempty"`
}

// Misdraw is a mis-draw a physical table reports: Count is how many cards
// Seat holds beyond what the server counts (negative: fewer).
type Misdraw struct {
	Seat  int `json:"seat"`
	Count int `json:"count"`
}

// DecodeMove reads a move from JSON, refusing unknown fields.
func DecodeMove(b []byte) (Move, error) {
	var m Move
	if err := domain.DecodeMove(b, "Lucky Treasure Hunter", &m); err != nil {
		return Move{}, err
	}
	return m, nil
}

// AppendJSON appends the move as json.Marshal encodes it, without
// reflection: every entry of a listing and every logged move is one
// (TestMoveJSONPlain holds the two alike).
func (m *Move) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = domain.AppendJSONString(b, m.Type)
	b = appendIntPtr(b, `,"seat":`, m.Seat)
	b = appendStrings(b, `,"drawn":`, m.Drawn)
	if m.Treasure != "" {
		b = append(b, `,"treasure":`...)
		b = domain.AppendJSONString(b, m.Treasure)
	}
	b = appendInt(b, `,"count":`, m.Count)
	b = appendIntPtr(b, `,"owner":`, m.Owner)
	b = appendIntPtr(b, `,"set":`, m.Set)
	b = appendInt(b, `,"dice":`, m.Dice)
	b = appendStrings(b, `,"faces":`, m.Faces)
	b = appendStrings(b, `,"cards":`, m.Cards)
	if len(m.Corrections) > 0 {
		b = append(b, `,"corrections":`...)
		b = domain.AppendList(b, m.Corrections, func(b []byte, c Misdraw) []byte {
			b = strconv.AppendInt(append(b, `{"seat":`...), int64(c.Seat), 10)
			b = strconv.AppendInt(append(b, `,"count":`...), int64(c.Count), 10)
			return append(b, '}')
		})
	}
	return append(b, '}')
}

// appendStrings appends member name and s unless s is empty (omitempty).
func appendStrings(b []byte, name string, s []string) []byte {
	if len(s) == 0 {
		return b
	}
	return domain.AppendList(append(b, name...), s, domain.AppendJSONString)
}

// SeatPtr returns a pointer to seat, for building moves (gamekit.SeatPtr).
var SeatPtr = gamekit.SeatPtr

// Play checks move m, made by actor, against the rules and applies it. A
// rejected move returns a *domain.Error and leaves the game as it was.
func (g *Game) Play(actor domain.Actor, m *Move) error {
	if len(m.Drawn) > 0 || (len(m.Faces) > 0 && m.Type != MoveRoll) {
		return domain.Fail(domain.Invalid, "lth.invalid.server-fields", "type", m.Type)
	}
	return g.play(actor, m)
}

func (g *Game) play(actor domain.Actor, m *Move) error {
	g.events, g.drawn, g.faces = g.events[:0], g.drawn[:0], g.faces[:0]
	if g.Phase == PhaseEnded {
		return domain.Refuse("game-ended", "lth.refuse.game-ended")
	}
	var err error
	switch m.Type {
	case MovePlace, MoveSteal, MoveReroll, MoveCaptain, MoveStop:
		var seat int
		if seat, err = g.authSeat(actor, m); err != nil {
			return err
		}
		switch m.Type {
		case MovePlace:
			err = g.place(actor, seat, m)
		case MoveSteal:
			err = g.steal(seat, m)
		case MoveReroll:
			err = g.reroll(actor, seat, m)
		case MoveCaptain:
			err = g.captain(seat)
		default:
			err = g.stop(seat)
		}
	case MoveRoll, MoveMiddle, MoveMisdraw:
		if err = g.authTable(actor, m); err != nil {
			return err
		}
		switch m.Type {
		case MoveRoll:
			err = g.rollReport(m)
		case MoveMiddle:
			err = g.middleReport(m)
		default:
			err = g.misdraw(m)
		}
	case "":
		return domain.Fail(domain.Invalid, "lth.invalid.no-type")
	default:
		return domain.Fail(domain.Invalid, "lth.invalid.unknown-type", "type", strconv.Quote(m.Type))
	}
	if err != nil {
		g.events, g.drawn, g.faces = g.events[:0], g.drawn[:0], g.faces[:0]
		return err
	}
	g.Moves++
	return nil
}

func (g *Game) authSeat(actor domain.Actor, m *Move) (int, error) {
	seat, err := gamekit.MoveSeat(actor, m.Seat, len(g.Players), m.Type)
	if err != nil {
		return 0, err
	}
	if (m.Type != MovePlace && (m.Treasure != "" || m.Count != 0)) ||
		(m.Type != MoveSteal && (m.Owner != nil || m.Set != nil)) ||
		(m.Type != MoveReroll && m.Dice != 0) || len(m.Cards) > 0 || (len(m.Faces) > 0 && m.Type == MovePlace) || len(m.Corrections) > 0 {
		return 0, domain.Fail(domain.Invalid, "lth.invalid.foreign-field", "type", m.Type)
	}
	return seat, nil
}

// reportsFrom is the rule authTable words: the host reports the table's
// cards and dice, in a physical game.
func (g *Game) reportsFrom(actor domain.Actor) bool { return actor.Host && g.Mode == Physical }

func (g *Game) authTable(actor domain.Actor, m *Move) error {
	if !g.reportsFrom(actor) {
		if !actor.Host {
			return domain.Fail(domain.Forbidden, "lth.forbidden.host-reports")
		}
		return domain.Refuse("digital-reports", "lth.refuse.digital-reports")
	}
	if m.Seat != nil || m.Treasure != "" || m.Count != 0 || m.Owner != nil || m.Set != nil || m.Dice != 0 || len(m.Drawn) > 0 ||
		(m.Type == MoveRoll && len(m.Cards) > 0) || (m.Type == MoveMiddle && len(m.Faces) > 0) ||
		(m.Type == MoveMisdraw && (len(m.Cards) > 0 || len(m.Faces) > 0)) || (m.Type != MoveMisdraw && len(m.Corrections) > 0) {
		return domain.Fail(domain.Invalid, "lth.invalid.report-foreign-field", "type", m.Type)
	}
	return nil
}

// onTurn checks that it is seat's turn and the game waits for step.
// what is the step a move makes, as a phrase ("place cards").
func (g *Game) onTurn(seat int, step Phase, what i18n.Message) error {
	if g.awaits(seat, step) {
		return nil
	}
	if g.Phase == PhaseSetup {
		return domain.Refuse("setup", "lth.refuse.setup")
	}
	if g.Turn != seat {
		return domain.Refuse("turn", "lth.refuse.turn", "turn", g.Turn, "name", g.Players[g.Turn].Name, "seat", seat)
	}
	if g.Phase != step {
		return domain.Refuse("step", "lth.refuse.step", "seat", seat, "what", what, "waiting", g.waitingFor())
	}
	return nil
}

// awaits is the rule onTurn words: the game waits for seat's move of step.
// The listing asks it alone, as it needs no reason.
func (g *Game) awaits(seat int, step Phase) bool { return g.Phase == step && g.Turn == seat }

// waitingFor says in words what the game waits for.
func (g *Game) waitingFor() i18n.Message {
	switch g.Phase {
	case PhaseSetup:
		return i18n.M("lth.waiting.setup")
	case PhasePlace:
		return i18n.M("lth.waiting.place")
	case PhaseSteal:
		return i18n.M("lth.waiting.steal")
	case PhaseRoll:
		return i18n.M("lth.waiting.roll")
	case PhaseDecide:
		return i18n.M("lth.waiting.decide")
	}
	return i18n.M("lth.waiting.ended")
}

// hostBlind refuses a hand-dependent move made with the host credential in a
// digital game: the host (a shared table device) does not see hands, so it
// cannot play from one.
func (g *Game) hostBlind(actor domain.Actor, seat int, what i18n.Message) error {
	if g.Mode == Digital && actor.Host {
		return domain.Fail(domain.Forbidden, "lth.forbidden.host-blind", "seat", seat, "what", what)
	}
	return nil
}

// The rules below are each written once: applying a move checks it with
// them, and the listing (legal.go) offers exactly the moves they accept.
// Each returns the refusal a player reads. A rule of a move's arguments
// (how many cards, which set) is apart from the rule of when the move may
// be made, so that a listing asks the latter once.

// mayPlace is the rule of when seat may place: on its turn, in the place
// step, by an actor who sees its hand.
func (g *Game) mayPlace(actor domain.Actor, seat int) error {
	if err := g.onTurn(seat, PhasePlace, i18n.M("lth.step.place")); err != nil {
		return err
	}
	return g.hostBlind(actor, seat, i18n.M("lth.blind.place"))
}

// checkPlaceCount is the rule of how many cards of t seat may place: 1 to
// SetSize, from its hand (digital: the cards of t it holds; physical: its
// hand size, and no more than the cards of t nobody has seen yet). It accepts 1
// to placeMost.
func (g *Game) checkPlaceCount(seat int, t Treasure, n int) error {
	if n >= 1 && n <= g.placeMost(seat, t) {
		return nil
	}
	if n < 1 || n > SetSize {
		return domain.Refuse("place-count", "lth.refuse.place-count", "given", n)
	}
	p := &g.Players[seat]
	if g.Mode == Digital {
		if p.Hand[t] < n {
			return domain.Refuse("place-from-hand", "lth.refuse.place-from-hand", "held", cardsOf(p.Hand[t], t), "given", n)
		}
		return nil
	}
	if n > p.HandSize {
		return domain.Refuse("place-from-hand", "lth.refuse.place-from-hand.seat", "seat", seat, "held", p.HandSize, "given", n)
	}
	if u := g.Unseen()[t]; n > u {
		return domain.Refuse("place-unseen", "lth.refuse.place-unseen", "unseen", u, "treasure", t.Term(), "given", n)
	}
	return nil
}

// placeMost is how many cards of t seat may place at most (checkPlaceCount
// words why no more).
func (g *Game) placeMost(seat int, t Treasure) int {
	p := &g.Players[seat]
	if g.Mode == Digital {
		return min(SetSize, p.Hand[t])
	}
	return min(SetSize, p.HandSize, g.Unseen()[t])
}

func (g *Game) place(actor domain.Actor, seat int, m *Move) error {
	if err := g.mayPlace(actor, seat); err != nil {
		return err
	}
	t, ok := ParseTreasure(m.Treasure)
	if !ok {
		return domain.Fail(domain.Invalid, "lth.invalid.place-treasure", "treasures", TreasureNames(), "given", strconv.Quote(m.Treasure))
	}
	if err := g.checkPlaceCount(seat, t, m.Count); err != nil {
		return err
	}
	p := &g.Players[seat]
	if g.Mode == Digital {
		p.Hand[t] -= m.Count
	}
	p.HandSize -= m.Count
	g.Middle = combine(g.Middle, t, m.Count)
	g.emit("cards_placed", placedEvent{Seat: seat, Treasure: t, Count: m.Count, Middle: slices.Clone(g.Middle)})
	g.draw(seat)
	g.stealStep()
	return nil
}

// setsOf returns the sets of owner (a seat or Middle).
func (g *Game) setsOf(owner int) []Set {
	if owner == Middle {
		return g.Middle
	}
	return g.Players[owner].Sets
}

// maySteal is the rule of when seat may name a set to steal: on its turn,
// in the steal step.
func (g *Game) maySteal(seat int) error {
	return g.onTurn(seat, PhaseSteal, i18n.M("lth.step.steal"))
}

// checkSteal is the rule of which set seat may name: a set of the middle
// (owner Middle) or of another seat. It returns the set.
func (g *Game) checkSteal(seat, owner int, set *int) (Set, error) {
	if owner == seat {
		return Set{}, domain.Refuse("steal-own", "lth.refuse.steal-own")
	}
	if owner < Middle || owner >= len(g.Players) {
		return Set{}, domain.Fail(domain.Invalid, "lth.invalid.owner", "owner", owner, "last", len(g.Players)-1)
	}
	if set == nil {
		return Set{}, domain.Fail(domain.Invalid, "lth.invalid.no-set")
	}
	sets := g.setsOf(owner)
	i := *set
	if i < 0 || i >= len(sets) {
		if owner != Middle {
			return Set{}, domain.Refuse("steal-set", "lth.refuse.steal-set.seat", "owner", owner, "sets", len(sets), "last", len(sets)-1, "set", i)
		}
		return Set{}, domain.Refuse("steal-set", "lth.refuse.steal-set.middle", "sets", len(sets), "last", len(sets)-1, "set", i)
	}
	return sets[i], nil
}

func (g *Game) steal(seat int, m *Move) error {
	if err := g.maySteal(seat); err != nil {
		return err
	}
	owner := Middle
	if m.Owner != nil {
		owner = *m.Owner
	}
	s, err := g.checkSteal(seat, owner, m.Set)
	if err != nil {
		return err
	}
	i := *m.Set
	g.Steal = &Steal{Owner: owner, Set: i, Treasure: s.Treasure, Size: s.Size, Failed: s.Size}
	g.emit("steal_named", stealEvent{Seat: seat, Owner: ownerPtr(owner), Set: i, Treasure: s.Treasure, Size: s.Size})
	g.roll(s.Size)
	return nil
}

func ownerPtr(o int) *int {
	if o == Middle {
		return nil
	}
	return &o
}

// roll rolls n of the steal's failed dice (digital) or waits for the table
// to report them (physical).
func (g *Game) roll(n int) {
	if g.Mode == Physical {
		g.Steal.Pending = n
		g.Phase = PhaseRoll
		return
	}
	g.Rolls++
	faces := rollDice(g.Seed, g.Rolls, n, g.PirateFaces)
	g.faces = append(g.faces, faces)
	g.resolveRoll(faces)
}

// resolveRoll counts the pirates among the dice just rolled: the steal
// succeeds when every die shows one.
func (g *Game) resolveRoll(faces []bool) {
	st := g.Steal
	st.Pending = 0
	ev := rollEvent{Seat: g.Turn, Faces: make([]string, len(faces))}
	for i, f := range faces {
		ev.Faces[i] = FaceBlank
		if f {
			ev.Faces[i] = FacePirate
			st.Pirates++
			st.Failed--
		}
	}
	ev.Pirates, ev.Failed = st.Pirates, st.Failed
	g.emit("dice_rolled", ev)
	if st.Failed > 0 {
		g.Phase = PhaseDecide
		return
	}
	thief := &g.Players[g.Turn]
	if st.Owner == Middle {
		g.Middle = removeSet(g.Middle, st.Set)
	} else {
		o := &g.Players[st.Owner]
		o.Sets = removeSet(o.Sets, st.Set)
	}
	thief.Sets = combine(thief.Sets, st.Treasure, st.Size)
	g.emit("set_stolen", stolenEvent{Seat: g.Turn, Owner: ownerPtr(st.Owner), Treasure: st.Treasure, Size: st.Size, Sets: slices.Clone(thief.Sets)})
	g.endTurn()
}

// mayReroll is the rule of when seat may discard cards to re-roll: on its
// turn, deciding on a steal, by an actor who sees its hand.
func (g *Game) mayReroll(actor domain.Actor, seat int) error {
	if err := g.onTurn(seat, PhaseDecide, i18n.M("lth.step.reroll")); err != nil {
		return err
	}
	return g.hostBlind(actor, seat, i18n.M("lth.blind.discard"))
}

// checkRerollCount is the rule of how many failed dice seat may re-roll:
// 1 to the failed dice, discarding as many cards of the steal's type from
// its hand (physical: its hand size, and no more than the cards of the type
// nobody has seen yet). It accepts 1 to rerollMost.
func (g *Game) checkRerollCount(seat, n int) error {
	if n >= 1 && n <= g.rerollMost(seat) {
		return nil
	}
	st := g.Steal
	if n < 1 || n > st.Failed {
		return domain.Refuse("reroll-failed-only", "lth.refuse.reroll-failed-only", "failed", st.Failed)
	}
	p := &g.Players[seat]
	t := st.Treasure
	if g.Mode == Digital {
		if p.Hand[t] < n {
			return domain.Refuse("reroll-matching", "lth.refuse.reroll-matching", "treasure", t.Term(), "held", cardsOf(p.Hand[t], t))
		}
		return nil
	}
	if n > p.HandSize {
		return domain.Refuse("reroll-matching", "lth.refuse.reroll-matching.seat", "treasure", t.Term(), "seat", seat, "held", p.HandSize)
	}
	if u := g.Unseen()[t]; n > u {
		return domain.Refuse("reroll-unseen", "lth.refuse.reroll-unseen", "unseen", u, "treasure", t.Term(), "given", n)
	}
	return nil
}

// rerollMost is how many failed dice seat may re-roll at most
// (checkRerollCount words why no more).
func (g *Game) rerollMost(seat int) int {
	p, t := &g.Players[seat], g.Steal.Treasure
	if g.Mode == Digital {
		return min(g.Steal.Failed, p.Hand[t])
	}
	return min(g.Steal.Failed, p.HandSize, g.Unseen()[t])
}

func (g *Game) reroll(actor domain.Actor, seat int, m *Move) error {
	if err := g.mayReroll(actor, seat); err != nil {
		return err
	}
	if err := g.checkRerollCount(seat, m.Dice); err != nil {
		return err
	}
	st := g.Steal
	p := &g.Players[seat]
	t := st.Treasure
	if g.Mode == Digital {
		p.Hand[t] -= m.Dice
	}
	p.HandSize -= m.Dice
	g.Discard[t] += m.Dice
	st.Rerolls += m.Dice
	g.emit("cards_discarded", discardEvent{Seat: seat, Treasure: t, Count: m.Dice})
	g.roll(m.Dice)
	return nil
}

// checkCaptain is the rule of the captain: on seat's turn, deciding on a
// steal, once a game.
func (g *Game) checkCaptain(seat int) error {
	if err := g.onTurn(seat, PhaseDecide, i18n.M("lth.step.captain")); err != nil {
		return err
	}
	if g.Players[seat].CaptainUsed {
		return domain.Refuse("captain-once", "lth.refuse.captain-once", "seat", seat)
	}
	return nil
}

func (g *Game) captain(seat int) error {
	if err := g.checkCaptain(seat); err != nil {
		return err
	}
	p := &g.Players[seat]
	p.CaptainUsed = true
	g.Steal.Captain = true
	g.emit("captain_used", seatEvent{Seat: seat})
	g.roll(g.Steal.Failed)
	return nil
}

// checkStop is the rule of giving up a steal: on seat's turn, deciding.
func (g *Game) checkStop(seat int) error {
	return g.onTurn(seat, PhaseDecide, i18n.M("lth.step.stop"))
}

func (g *Game) stop(seat int) error {
	if err := g.checkStop(seat); err != nil {
		return err
	}
	g.emit("steal_stopped", seatEvent{Seat: seat})
	g.endTurn()
	return nil
}

// checkRollReport is the rule of when the table reports dice: when a
// physical steal waits for them.
func (g *Game) checkRollReport() error {
	if g.Phase != PhaseRoll {
		return domain.Refuse("roll-when-asked", "lth.refuse.roll-when-asked", "waiting", g.waitingFor())
	}
	return nil
}

func (g *Game) rollReport(m *Move) error {
	if err := g.checkRollReport(); err != nil {
		return err
	}
	n := g.Steal.Pending
	if len(m.Faces) != n {
		return domain.Refuse("roll-dice", "lth.refuse.roll-dice", "want", n, "given", len(m.Faces))
	}
	faces := make([]bool, n)
	for i, f := range m.Faces {
		switch f {
		case FacePirate:
			faces[i] = true
		case FaceBlank:
		default:
			return domain.Fail(domain.Invalid, "lth.invalid.face", "given", strconv.Quote(f))
		}
	}
	g.resolveRoll(faces)
	return nil
}

// checkMiddleReport is the rule of when the table reports the middle's
// first cards: at setup.
func (g *Game) checkMiddleReport() error {
	if g.Phase != PhaseSetup {
		return domain.Refuse("middle-at-setup", "lth.refuse.middle-at-setup")
	}
	return nil
}

func (g *Game) middleReport(m *Move) error {
	if err := g.checkMiddleReport(); err != nil {
		return err
	}
	if len(m.Cards) != MiddleAtStart {
		return domain.Refuse("middle-three", "lth.refuse.middle-three", "want", MiddleAtStart, "given", len(m.Cards))
	}
	for _, name := range m.Cards {
		if _, ok := ParseTreasure(name); !ok {
			return domain.Fail(domain.Invalid, "lth.invalid.treasure", "given", strconv.Quote(name), "treasures", TreasureNames())
		}
	}
	for _, name := range m.Cards {
		t, _ := ParseTreasure(name)
		g.Middle = combine(g.Middle, t, 1)
	}
	g.emit("middle_dealt", middleEvent{Middle: slices.Clone(g.Middle)})
	g.startTurn(g.Heart)
	return nil
}

type middleEvent struct {
	Middle []Set `json:"middle"`
}

// misdraw takes a physical table's report that a seat drew (or was dealt)
// too many or too few cards: the seat's hand size and the pile's count match
// the table again. Cards do not go back into a pile whose last card was
// drawn (the last round has been announced); a mis-draw that empties the
// pile starts it.
func (g *Game) misdraw(m *Move) error {
	if len(m.Corrections) != 1 {
		return domain.Fail(domain.Invalid, "lth.invalid.misdraw-corrections", "example", `[{"seat":S,"count":N}]`)
	}
	c := m.Corrections[0]
	if err := g.checkMisdraw(c); err != nil {
		return err
	}
	p := &g.Players[c.Seat]
	p.HandSize += c.Count
	left := g.PileSize()
	g.emit("misdraw", misdrawEvent{Seat: c.Seat, Count: c.Count, HandSize: p.HandSize, Pile: left})
	if left == 0 && !g.LastRound {
		g.LastRound = true
		g.emit("pile_empty", lastRoundEvent{Seat: c.Seat, EndsBefore: g.Heart})
	}
	return nil
}

// checkMisdraw is the rule of a mis-draw: the seat's hand and the pile stay
// at zero or more, and no card goes back into a pile whose last card was
// drawn.
func (g *Game) checkMisdraw(c Misdraw) error {
	if c.Seat < 0 || c.Seat >= len(g.Players) {
		return gamekit.NoSuchSeat(c.Seat, len(g.Players))
	}
	if c.Count == 0 || c.Count < -HandSize || c.Count > HandSize {
		return domain.Fail(domain.Invalid, "lth.invalid.misdraw-count", "most", HandSize, "given", c.Count)
	}
	p := &g.Players[c.Seat]
	pile := g.PileSize()
	switch {
	case p.HandSize+c.Count < 0:
		return domain.Refuse("misdraw-count", "lth.refuse.misdraw-count.hand", "name", p.Name, "held", p.HandSize, "more", c.Count)
	case pile-c.Count < 0:
		return domain.Refuse("misdraw-count", "lth.refuse.misdraw-count.pile", "pile", pile, "name", p.Name, "more", c.Count)
	case c.Count < 0 && g.LastRound:
		return domain.Refuse("misdraw-last-round", "lth.refuse.misdraw-last-round")
	}
	return nil
}

// misdrawEvent is the data of "misdraw".
type misdrawEvent struct {
	Seat     int `json:"seat"`
	Count    int `json:"count"`
	HandSize int `json:"hand_size"`
	Pile     int `json:"pile"`
}
