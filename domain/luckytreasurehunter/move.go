package luckytreasurehunter

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/treasury-games/treasury/domain"
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

// AppendJSON appends the move's JSON.
func (m *Move) AppendJSON(b []byte) []byte {
	out, _ := json.Marshal(m) // plain fields only
	return append(b, out...)
}

// Ptr returns a pointer to n, for building moves.
func Ptr(n int) *int { return &n }

// Play checks move m, made by actor, against the rules and applies it. A
// rejected move returns a *domain.Error and leaves the game as it was.
func (g *Game) Play(actor domain.Actor, m *Move) error {
	if len(m.Drawn) > 0 || (len(m.Faces) > 0 && m.Type != MoveRoll) {
		return domain.Errorf(domain.Invalid, "faces and drawn are written by the server into a digital game's log; leave them out of a %s move", m.Type)
	}
	return g.play(actor, m)
}

func (g *Game) play(actor domain.Actor, m *Move) error {
	g.events, g.drawn, g.faces = g.events[:0], g.drawn[:0], g.faces[:0]
	if g.Phase == PhaseEnded {
		return domain.Illegal("game-ended", "the game has ended; no more moves are possible")
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
		return domain.Errorf(domain.Invalid, "the move has no type; use one of place, steal, reroll, captain, stop, roll, lth_middle, lth_misdraw")
	default:
		return domain.Errorf(domain.Invalid, "unknown move type %q; use one of place, steal, reroll, captain, stop, roll, lth_middle, lth_misdraw", m.Type)
	}
	if err != nil {
		g.events, g.drawn, g.faces = g.events[:0], g.drawn[:0], g.faces[:0]
		return err
	}
	g.Moves++
	return nil
}

func (g *Game) authSeat(actor domain.Actor, m *Move) (int, error) {
	if m.Seat == nil {
		return 0, domain.Errorf(domain.Invalid, "a %s move names the seat it is for", m.Type)
	}
	seat := *m.Seat
	if seat < 0 || seat >= len(g.Players) {
		return 0, domain.Errorf(domain.Invalid, "seat %d does not exist; this game has seats 0 to %d", seat, len(g.Players)-1)
	}
	if !actor.Host && actor.Seat != seat {
		return 0, domain.Errorf(domain.Forbidden, "your credential acts for seat %d, not seat %d", actor.Seat, seat)
	}
	if (m.Type != MovePlace && (m.Treasure != "" || m.Count != 0)) ||
		(m.Type != MoveSteal && (m.Owner != nil || m.Set != nil)) ||
		(m.Type != MoveReroll && m.Dice != 0) || len(m.Cards) > 0 || (len(m.Faces) > 0 && m.Type == MovePlace) || len(m.Corrections) > 0 {
		return 0, domain.Errorf(domain.Invalid, "a %s move has a field that belongs to another kind of move", m.Type)
	}
	return seat, nil
}

func (g *Game) authTable(actor domain.Actor, m *Move) error {
	if !actor.Host {
		return domain.Errorf(domain.Forbidden, "only the host credential reports what the table rolled or turned up")
	}
	if g.Mode == Digital {
		return domain.Illegal("digital-reports", "in a digital game the server deals and rolls; the table reports nothing")
	}
	if m.Seat != nil || m.Treasure != "" || m.Count != 0 || m.Owner != nil || m.Set != nil || m.Dice != 0 || len(m.Drawn) > 0 ||
		(m.Type == MoveRoll && len(m.Cards) > 0) || (m.Type == MoveMiddle && len(m.Faces) > 0) ||
		(m.Type == MoveMisdraw && (len(m.Cards) > 0 || len(m.Faces) > 0)) || (m.Type != MoveMisdraw && len(m.Corrections) > 0) {
		return domain.Errorf(domain.Invalid, "a %s report has a field that belongs to another kind of move", m.Type)
	}
	return nil
}

// onTurn checks that it is seat's turn and the game waits for step.
func (g *Game) onTurn(seat int, step Phase, what string) error {
	if g.Phase == PhaseSetup {
		return domain.Illegal("setup", "the game has not begun: the table reports the 3 cards turned into the middle first")
	}
	if g.Turn != seat {
		return domain.Illegal("turn", "it is seat %d's turn (%s), not seat %d's", g.Turn, g.Players[g.Turn].Name, seat)
	}
	if g.Phase != step {
		return domain.Illegal("step", "seat %d cannot %s now: %s", seat, what, g.waitingFor())
	}
	return nil
}

// waitingFor says in words what the game waits for.
func (g *Game) waitingFor() string {
	switch g.Phase {
	case PhaseSetup:
		return "the table reports the 3 cards turned into the middle"
	case PhasePlace:
		return "the seat on turn places cards first"
	case PhaseSteal:
		return "the seat on turn names a set to steal"
	case PhaseRoll:
		return "the table reports the dice rolled"
	case PhaseDecide:
		return "the roll failed: re-roll, turn the captain or stop"
	}
	return "the game has ended"
}

// hostBlind refuses a hand-dependent move made with the host credential in a
// digital game: the host (a shared table device) does not see hands, so it
// cannot play from one.
func (g *Game) hostBlind(actor domain.Actor, seat int, what string) error {
	if g.Mode == Digital && actor.Host {
		return domain.Errorf(domain.Forbidden, "the host does not see seat %d's hand; seat %d %s with its own credential", seat, seat, what)
	}
	return nil
}

func (g *Game) place(actor domain.Actor, seat int, m *Move) error {
	if err := g.onTurn(seat, PhasePlace, "place cards"); err != nil {
		return err
	}
	if err := g.hostBlind(actor, seat, "places its cards"); err != nil {
		return err
	}
	t, ok := ParseTreasure(m.Treasure)
	if !ok {
		return domain.Errorf(domain.Invalid, "place names a treasure: one of %s, not %q", TreasureNames(), m.Treasure)
	}
	if m.Count < 1 || m.Count > SetSize {
		return domain.Illegal("place-count", "place 1 to 5 cards, not %d", m.Count)
	}
	p := &g.Players[seat]
	if g.Mode == Digital {
		if p.Hand[t] < m.Count {
			return domain.Illegal("place-from-hand", "you hold %s; you cannot place %d", plural(p.Hand[t], t), m.Count)
		}
		p.Hand[t] -= m.Count
	} else {
		if m.Count > p.HandSize {
			return domain.Illegal("place-from-hand", "seat %d holds %d cards; it cannot place %d", seat, p.HandSize, m.Count)
		}
		if u := g.Unseen()[t]; m.Count > u {
			return domain.Illegal("place-unseen", "only %d %s cards remain unseen (the rest are face up or discarded); %d cannot be placed", u, t, m.Count)
		}
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

func (g *Game) steal(seat int, m *Move) error {
	if err := g.onTurn(seat, PhaseSteal, "name a set to steal"); err != nil {
		return err
	}
	owner := Middle
	if m.Owner != nil {
		owner = *m.Owner
	}
	if owner == seat {
		return domain.Illegal("steal-own", "you cannot steal your own set; name one in the middle or in front of another player")
	}
	if owner < Middle || owner >= len(g.Players) {
		return domain.Errorf(domain.Invalid, "owner %d is no seat; this game has seats 0 to %d (leave owner out for the middle)", owner, len(g.Players)-1)
	}
	if m.Set == nil {
		return domain.Errorf(domain.Invalid, "a steal names the set: its index among its owner's sets")
	}
	sets := g.setsOf(owner)
	i := *m.Set
	if i < 0 || i >= len(sets) {
		where := "the middle has"
		if owner != Middle {
			where = "seat " + itoa(owner) + " has"
		}
		return domain.Illegal("steal-set", "%s %d sets (0 to %d); there is no set %d", where, len(sets), len(sets)-1, i)
	}
	s := sets[i]
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

func (g *Game) reroll(actor domain.Actor, seat int, m *Move) error {
	if err := g.onTurn(seat, PhaseDecide, "re-roll"); err != nil {
		return err
	}
	if err := g.hostBlind(actor, seat, "discards its cards"); err != nil {
		return err
	}
	st := g.Steal
	if m.Dice < 1 || m.Dice > st.Failed {
		return domain.Illegal("reroll-failed-only", "re-roll 1 to %d dice: only failed dice are re-rolled, and %d failed", st.Failed, st.Failed)
	}
	p := &g.Players[seat]
	t := st.Treasure
	if g.Mode == Digital {
		if p.Hand[t] < m.Dice {
			return domain.Illegal("reroll-matching", "each re-rolled die costs one %s card from your hand; you hold %s", t, plural(p.Hand[t], t))
		}
		p.Hand[t] -= m.Dice
	} else {
		if m.Dice > p.HandSize {
			return domain.Illegal("reroll-matching", "each re-rolled die costs one %s card from the hand; seat %d holds %d cards", t, seat, p.HandSize)
		}
		if u := g.Unseen()[t]; m.Dice > u {
			return domain.Illegal("reroll-unseen", "only %d %s cards remain unseen; %d cannot be discarded", u, t, m.Dice)
		}
	}
	p.HandSize -= m.Dice
	g.Discard[t] += m.Dice
	st.Rerolls += m.Dice
	g.emit("cards_discarded", discardEvent{Seat: seat, Treasure: t, Count: m.Dice})
	g.roll(m.Dice)
	return nil
}

func (g *Game) captain(seat int) error {
	if err := g.onTurn(seat, PhaseDecide, "turn the captain"); err != nil {
		return err
	}
	p := &g.Players[seat]
	if p.CaptainUsed {
		return domain.Illegal("captain-once", "seat %d's captain is turned over already: its re-roll is once per game", seat)
	}
	p.CaptainUsed = true
	g.Steal.Captain = true
	g.emit("captain_used", seatEvent{Seat: seat})
	g.roll(g.Steal.Failed)
	return nil
}

func (g *Game) stop(seat int) error {
	if err := g.onTurn(seat, PhaseDecide, "stop"); err != nil {
		return err
	}
	g.emit("steal_stopped", seatEvent{Seat: seat})
	g.endTurn()
	return nil
}

func (g *Game) rollReport(m *Move) error {
	if g.Phase != PhaseRoll {
		return domain.Illegal("roll-when-asked", "no dice are to be reported now: %s", g.waitingFor())
	}
	n := g.Steal.Pending
	if len(m.Faces) != n {
		return domain.Illegal("roll-dice", "report the faces of %d dice (one per die rolled), not %d", n, len(m.Faces))
	}
	faces := make([]bool, n)
	for i, f := range m.Faces {
		switch f {
		case FacePirate:
			faces[i] = true
		case FaceBlank:
		default:
			return domain.Errorf(domain.Invalid, "a die shows %q or %q, not %q", FacePirate, FaceBlank, f)
		}
	}
	g.resolveRoll(faces)
	return nil
}

func (g *Game) middleReport(m *Move) error {
	if g.Phase != PhaseSetup {
		return domain.Illegal("middle-at-setup", "the middle is reported once, at setup")
	}
	if len(m.Cards) != MiddleAtStart {
		return domain.Illegal("middle-three", "report the %d cards turned face up into the middle, not %d", MiddleAtStart, len(m.Cards))
	}
	for _, name := range m.Cards {
		if _, ok := ParseTreasure(name); !ok {
			return domain.Errorf(domain.Invalid, "%q is no treasure; the treasures are %s", name, TreasureNames())
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

// plural counts cards of a type as a player says it: "1 ruby", "0 rubies".
func plural(n int, t Treasure) string {
	one := [NumTreasures]string{"silver coin", "gold bar", "pearl", "ruby", "jade fish"}[t]
	many := [NumTreasures]string{"silver coins", "gold bars", "pearls", "rubies", "jade fish"}[t]
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

func itoa(n int) string { return strconv.Itoa(n) }

// misdraw takes a physical table's report that a seat drew (or was dealt)
// too many or too few cards: the seat's hand size and the pile's count match
// the table again. Cards do not go back into a pile whose last card was
// drawn (the last round has been announced); a mis-draw that empties the
// pile starts it.
func (g *Game) misdraw(m *Move) error {
	if len(m.Corrections) != 1 {
		return domain.Errorf(domain.Invalid, "a mis-draw report names one seat in corrections: [{\"seat\":S,\"count\":N}]")
	}
	c := m.Corrections[0]
	if c.Seat < 0 || c.Seat >= len(g.Players) {
		return domain.Errorf(domain.Invalid, "seat %d does not exist; this game has seats 0 to %d", c.Seat, len(g.Players)-1)
	}
	if c.Count == 0 || c.Count < -HandSize || c.Count > HandSize {
		return domain.Errorf(domain.Invalid, "a mis-draw's count is the cards the seat holds beyond the count, -%d to %d and not 0, not %d", HandSize, HandSize, c.Count)
	}
	p := &g.Players[c.Seat]
	pile := g.PileSize()
	switch {
	case p.HandSize+c.Count < 0:
		return domain.Illegal("misdraw-count", "%s holds %d cards by the count, not %d more; count the hand again", p.Name, p.HandSize, c.Count)
	case pile-c.Count < 0:
		return domain.Illegal("misdraw-count", "the pile holds %d cards by the count; %s cannot hold %d more than counted", pile, p.Name, c.Count)
	case c.Count < 0 && g.LastRound:
		return domain.Illegal("misdraw-last-round", "the pile's last card was drawn and the last round announced: cards cannot go back into the pile; play the round out")
	}
	p.HandSize += c.Count
	left := g.PileSize()
	g.emit("misdraw", misdrawEvent{Seat: c.Seat, Count: c.Count, HandSize: p.HandSize, Pile: left})
	if left == 0 && !g.LastRound {
		g.LastRound = true
		g.emit("pile_empty", lastRoundEvent{Seat: c.Seat, EndsBefore: g.Heart})
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
