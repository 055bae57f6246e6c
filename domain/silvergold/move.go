package silvergold

import (
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Move types.
const (
	MoveKeep    = "keep"    // a player keeps 2 of the 4 cards dealt
	MoveCross   = "cross"   // a player crosses off boxes (action 2)
	MoveTake    = "take"    // a player takes a replacement card (action 3)
	MoveReveal  = "reveal"  // physical: the table reports the expedition card revealed
	MoveDisplay = "display" // physical: the table reports a card turned into the display
)

// Where a replacement comes from.
const (
	FromDisplay = "display"
	FromDeck    = "deck"
)

// Extra is one box crossed because a red cross demanded it.
type Extra struct {
	Card string `json:"card"`
	Box  Pos    `json:"box"`
}

// Move is anything a player or the table can do. Which fields apply depends on
// Type; the JSON form is the one the API takes.
type Move struct {
	Type       string   `json:"type"`
	Seat       *int     `json:"seat,omitempty"`
	Cards      []string `json:"cards,omitempty"`      // keep
	Card       string   `json:"card,omitempty"`       // cross, take, display
	Boxes      []Pos    `json:"boxes,omitempty"`      // cross: the pattern, or one box
	Extra      []Extra  `json:"extra,omitempty"`      // cross: boxes demanded by red crosses
	From       string   `json:"from,omitempty"`       // take
	Expedition string   `json:"expedition,omitempty"` // reveal
}

// DecodeMove reads a move from JSON, refusing unknown fields.
func DecodeMove(b []byte) (Move, error) {
	var m Move
	if err := domain.DecodeMove(b, "Silver & Gold", &m); err != nil {
		return Move{}, err
	}
	return m, nil
}

// SeatPtr returns a pointer to seat, for building moves (gamekit.SeatPtr).
var SeatPtr = gamekit.SeatPtr

// Play checks move m, made by actor, against the rules and applies it. A
// rejected move returns an *domain.Error and leaves the game exactly as it was.
// With replay set, a deck take in a digital game may name the card it drew,
// which must then be the card the seed deals (game records carry it).
func (g *Game) Play(actor domain.Actor, m *Move) error {
	return g.play(actor, m, false)
}

func (g *Game) play(actor domain.Actor, m *Move, replay bool) error {
	g.events = g.events[:0]
	if g.Phase == PhaseEnded {
		return domain.Refuse("game-ended", "sg.refuse.game-ended", "round", Rounds)
	}
	var err error
	switch m.Type {
	case MoveKeep, MoveCross, MoveTake:
		var seat int
		if seat, err = g.authSeat(actor, m); err != nil {
			return err
		}
		switch m.Type {
		case MoveKeep:
			err = g.keep(seat, m)
		case MoveCross:
			err = g.cross(seat, m)
		default:
			err = g.take(seat, m, replay)
		}
	case MoveReveal, MoveDisplay:
		if err = g.authTable(actor, m); err != nil {
			return err
		}
		if m.Type == MoveReveal {
			err = g.revealReport(m)
		} else {
			err = g.displayReport(m)
		}
	case "":
		return domain.Fail(domain.Invalid, "sg.invalid.no-type", "types", moveTypeList)
	default:
		return domain.Fail(domain.Invalid, "sg.invalid.unknown-type", "type", quote(m.Type), "types", moveTypeList)
	}
	if err == nil {
		g.Moves++
		g.emitStatus()
	} else {
		g.events = g.events[:0]
	}
	return err
}

func (g *Game) authSeat(actor domain.Actor, m *Move) (int, error) {
	seat, err := gamekit.MoveSeat(actor, m.Seat, len(g.Players), m.Type)
	if err != nil {
		return 0, err
	}
	if m.Expedition != "" || (m.Type != MoveCross && (len(m.Boxes) > 0 || len(m.Extra) > 0)) ||
		(m.Type != MoveKeep && len(m.Cards) > 0) || (m.Type != MoveTake && m.From != "") {
		return 0, domain.Fail(domain.Invalid, "sg.invalid.foreign-field", "type", m.Type)
	}
	return seat, nil
}

func (g *Game) authTable(actor domain.Actor, m *Move) error {
	if !actor.Host {
		return domain.Fail(domain.Forbidden, "sg.forbidden.host-reports")
	}
	if g.Mode == Digital {
		return domain.Refuse("digital-draws", "sg.refuse.digital-reports")
	}
	if m.Seat != nil || len(m.Cards) > 0 || len(m.Boxes) > 0 || len(m.Extra) > 0 || m.From != "" ||
		(m.Type == MoveReveal && m.Card != "") || (m.Type == MoveDisplay && m.Expedition != "") {
		return domain.Fail(domain.Invalid, "sg.invalid.foreign-report-field", "type", m.Type)
	}
	return nil
}

func (g *Game) card(id string) (int, error) {
	i, ok := g.cat.Index(id)
	if !ok {
		return 0, g.noCard(id)
	}
	return i, nil
}

func (g *Game) keep(seat int, m *Move) error {
	if err := g.keepOpen(seat); err != nil {
		return err
	}
	p := &g.Players[seat]
	if len(m.Cards) != HandSize {
		return domain.Refuse("keep-two", "sg.refuse.keep-two", "count", len(m.Cards))
	}
	a, err := g.card(m.Cards[0])
	if err != nil {
		return err
	}
	b, err := g.card(m.Cards[1])
	if err != nil {
		return err
	}
	if a == b {
		return domain.Refuse("keep-two", "sg.refuse.keep-same", "card", m.Cards[0])
	}
	for _, c := range [...]int{a, b} {
		if err := g.keepCard(seat, c); err != nil {
			return err
		}
	}
	if g.Mode == Digital {
		if p.Kept {
			p.Changes++
		}
		p.Hand = []HandCard{{Card: a}, {Card: b}}
		p.Kept = true
		if g.allKept() {
			for i := range g.Players {
				for _, c := range g.Players[i].Dealt {
					if !g.inHand(&g.Players[i], c) {
						g.Returned = append(g.Returned, c)
					}
				}
			}
			g.finishSetup()
		}
		return nil
	}
	if p.Kept {
		p.Changes++
	}
	p.Hand = []HandCard{{Card: a}, {Card: b}}
	p.Kept = true
	if g.allKept() {
		g.finishSetup()
	}
	return nil
}

// MaxChanges is how often a seat may replace its keep during setup, or its
// crossing during one turn. Replacing is for a slip of the finger; without a
// cap one seat could grow its game's log (and record) without end.
const MaxChanges = 20

// changeLimit is the refusal of a change beyond MaxChanges.
func changeLimit(seat int, what i18n.Message) error {
	return domain.Refuse("change-limit", "sg.refuse.change-limit", "seat", seat, "what", what, "count", MaxChanges)
}

// moveTypeList is the move types, for a refusal naming them.
var moveTypeList = strings.Join([]string{MoveKeep, MoveCross, MoveTake, MoveReveal, MoveDisplay}, ", ")

// quote writes s as Go's %q does, for ids and words a player typed.
func quote(s string) string { return strconv.Quote(s) }

// noCard is the refusal of a card id the game's catalog has not.
func (g *Game) noCard(id string) error {
	return domain.Fail(domain.Invalid, "sg.invalid.no-such-card", "card", quote(id), "catalog", g.Catalog)
}

func (g *Game) allKept() bool {
	for _, p := range g.Players {
		if !p.Kept {
			return false
		}
	}
	return true
}

func (g *Game) inHand(p *Player, c int) bool {
	for _, h := range p.Hand {
		if h.Card == c {
			return true
		}
	}
	return false
}

func (g *Game) handIndex(p *Player, id string) int {
	for i, h := range p.Hand {
		if g.cardID(h.Card) == id {
			return i
		}
	}
	return -1
}

// idList is the ids of cards, rendered as a list.
func (g *Game) idList(cards []int) any {
	if len(cards) == 0 {
		return i18n.M("sg.term.no-cards")
	}
	ids := make([]string, len(cards))
	for i, c := range cards {
		ids[i] = g.cardID(c)
	}
	return ids
}

// handCard returns the index in p's hand of card id, refusing a card the
// catalog does not have or p (at seat) does not hold (key: the message that
// says which card of the move it is).
func (g *Game) handCard(p *Player, seat int, id, key string) (int, error) {
	if hi := g.handIndex(p, id); hi >= 0 {
		return hi, nil
	}
	if _, ok := g.cat.Index(id); !ok {
		return -1, g.noCard(id)
	}
	return -1, domain.Refuse("own-card", key, "card", id, "seat", seat, "hand", g.handList(p))
}

// handList is the ids of p's cards, rendered as a list.
func (g *Game) handList(p *Player) any {
	ids := make([]int, len(p.Hand))
	for i, h := range p.Hand {
		ids[i] = h.Card
	}
	return g.idList(ids)
}

// cross applies action 2 for one player. It works on a copy of the player, so
// a rejected crossing changes nothing.
func (g *Game) cross(seat int, m *Move) error {
	if err := g.crossOpen(seat); err != nil {
		return err
	}
	orig := &g.Players[seat]
	replacing := orig.Crossed
	p := *orig
	p.Hand = append([]HandCard(nil), orig.Hand...)
	p.Palms = append([]int(nil), orig.Palms...)
	if p.Crossed { // replacing this turn's crossing: start again from before it
		for i := range p.Hand {
			p.Hand[i].Crossed = p.Undo.Crossed[i]
		}
		p.Coins, p.Palms = p.Undo.Coins, p.Palms[:p.Undo.Palms]
	}
	// The undo, its masks and the crossing kept (p.Undo, p.Crossing) share
	// one block: they are made together and never changed (Clone shares
	// them), and were three or more allocations of every crossing.
	blk := new(crossBlock)
	before := &blk.undo
	*before = undo{Crossed: blk.masks[:0], Coins: p.Coins, Palms: len(p.Palms)}
	for _, h := range p.Hand {
		before.Crossed = append(before.Crossed, h.Crossed)
	}

	hi, err := g.handCard(&p, seat, m.Card, "sg.refuse.own-card")
	if err != nil {
		return err
	}
	card := &g.cat.Cards[p.Hand[hi].Card]
	if len(m.Boxes) == 0 {
		return domain.Refuse("cross-something", "sg.refuse.cross-nothing")
	}
	// named is what this move names on each card, to tell a box named twice
	// from one crossed before.
	var namedBuf [8]Mask
	named := namedBuf[:0]
	for range p.Hand {
		named = append(named, 0)
	}
	var set Mask
	for _, b := range m.Boxes {
		bit, err := boxRule(card, p.Hand[hi].Crossed, b)
		if err != nil {
			return err
		}
		if set&bit != 0 {
			return domain.Refuse("box-once", "sg.refuse.box-named-twice", "box", b.String(), "card", card.ID)
		}
		set |= bit
	}
	named[hi] = set
	pat, _ := g.Current()
	if err := shapeRule(pat, set, m.Boxes); err != nil {
		return err
	}
	p.Hand[hi].Crossed |= set
	owed := (set & card.Crosses).Count()
	coins := (set & card.Coins).Count()
	palms := (set & card.Palms).Count()

	// Red-cross chain: every crossed red cross demands one more box anywhere.
	for _, e := range m.Extra {
		ei, err := g.handCard(&p, seat, e.Card, "sg.refuse.extra-own-card")
		if err != nil {
			return err
		}
		ec := &g.cat.Cards[p.Hand[ei].Card]
		if bit, ok := e.Box.Bit(); ok && named[ei]&bit != 0 {
			key := "sg.refuse.extra-named-twice"
			if ei == hi && set&bit != 0 {
				key = "sg.refuse.extra-named-in-boxes"
			}
			return domain.Refuse("box-once", key, "box", e.Box.String(), "card", ec.ID)
		}
		bit, err := boxRule(ec, p.Hand[ei].Crossed, e.Box)
		if err != nil {
			return err
		}
		named[ei] |= bit
		p.Hand[ei].Crossed |= bit
		owed += (bit & ec.Crosses).Count()
		coins += (bit & ec.Coins).Count()
		palms += (bit & ec.Palms).Count()
	}
	chainStart := (set & card.Crosses).Count()
	switch {
	case len(m.Extra) > 0 && chainStart == 0:
		return domain.Refuse("red-cross-chain", "sg.refuse.extra-not-demanded", "boxes", posList(m.Boxes), "card", card.ID)
	case len(m.Extra) > owed:
		return domain.Refuse("red-cross-chain", "sg.refuse.extra-too-many", "count", owed, "named", len(m.Extra))
	case len(m.Extra) < owed && g.uncrossed(&p) > 0:
		return domain.Refuse("red-cross-chain", "sg.refuse.extra-too-few", "count", owed, "named", len(m.Extra), "more", i18n.M("sg.n.more-boxes", "count", owed-len(m.Extra)))
	}

	// Coins go onto the track; the 13th and later are forfeited.
	oldRows := p.Coins / CoinsPerRow
	p.Coins = min(CoinBoxes, p.Coins+coins)
	p.Rows = p.Coins/CoinsPerRow - oldRows
	// Palms score at once from the display; the 5th and later score nothing.
	for ; palms > 0 && len(p.Palms) < PalmBoxes; palms-- {
		p.Palms = append(p.Palms, 1+g.displayPalms())
	}
	replaced := p.Crossed
	p.Crossed = true
	if replacing {
		p.Changes++
	}
	p.Undo = before
	ev := crossEvent{Seat: seat, Replaced: replaced, Boxes: make([]CrossedBox, 0, len(m.Boxes)+len(m.Extra)),
		RedCrosses: owed, CoinsGained: p.Coins - before.Coins, Coins: p.Coins,
		// Copies: arrays even when empty (never null), and not the player's
		// own slice, which later moves append to.
		PalmsGained: append([]int{}, p.Palms[before.Palms:]...), Palms: append([]int{}, p.Palms...), Rows: p.Rows,
		Cards: make([]CardCrossed, len(p.Hand))}
	for _, b := range m.Boxes {
		bit, _ := b.Bit()
		ev.Boxes = append(ev.Boxes, CrossedBox{Card: card.ID, Box: b, Symbol: card.symbol(bit)})
	}
	for _, e := range m.Extra {
		c := &g.cat.Cards[p.Hand[g.handIndex(&p, e.Card)].Card]
		bit, _ := e.Box.Bit()
		ev.Boxes = append(ev.Boxes, CrossedBox{Card: c.ID, Box: e.Box, Symbol: c.symbol(bit), Extra: true})
	}
	n := 0
	for _, h := range p.Hand {
		n += h.Crossed.Count()
	}
	crossed := make([]Pos, 0, n) // the cards' crossed boxes share one array
	for i, h := range p.Hand {
		c := &g.cat.Cards[h.Card]
		at := len(crossed)
		crossed = h.Crossed.appendPositions(crossed)
		ev.Cards[i] = CardCrossed{Card: c.ID, Crossed: crossed[at:len(crossed):len(crossed)], Left: (c.Boxes &^ h.Crossed).Count()}
	}
	g.emit("crossed", ev)
	norm := &blk.crossing
	*norm = *m
	norm.Extra = append([]Extra(nil), m.Extra...)
	p.Crossing = norm
	*orig = p
	g.maybeResolve()
	return nil
}

// crossBlock holds what a crossing leaves its player (Player.Undo,
// Player.Crossing) in one allocation; masks back the undo's Crossed for a
// hand of up to 8 cards.
type crossBlock struct {
	undo     undo
	crossing Move
	masks    [8]Mask
}

// crossEvent is the data of a "crossed" event: everything a table view needs
// to redraw the seat after a crossing.
type crossEvent struct {
	Seat int `json:"seat"`
	// Replaced says this crossing replaces the seat's earlier one this turn,
	// whose boxes, coins and palms were taken back first.
	Replaced bool `json:"replaced"`
	// Boxes are the boxes crossed, the pattern's (or the single box) first,
	// then the extra boxes in the order named.
	Boxes       []CrossedBox  `json:"boxes"`
	RedCrosses  int           `json:"red_crosses"`  // red crosses crossed: the extra boxes owed
	CoinsGained int           `json:"coins_gained"` // coin boxes marked by this crossing (at most 12 in all)
	Coins       int           `json:"coins"`        // the coin track after it
	PalmsGained []int         `json:"palms_gained"` // the palm box values written by this crossing
	Palms       []int         `json:"palms"`        // every palm box value after it
	Rows        int           `json:"coin_rows_completed"`
	Cards       []CardCrossed `json:"cards"` // the seat's cards after it
}

// CrossedBox is one box crossed, with its symbol.
type CrossedBox struct {
	Card   string `json:"card"`
	Box    Pos    `json:"box"`
	Symbol string `json:"symbol"` // blank, coin, palm or cross
	Extra  bool   `json:"extra"`  // crossed because a red cross demanded it
}

// CardCrossed is a card's crossed boxes after a crossing.
type CardCrossed struct {
	Card    string `json:"card"`
	Crossed []Pos  `json:"crossed"`
	Left    int    `json:"boxes_left"`
}

// posList writes boxes as "(r,c) (r,c) …".
func posList(ps []Pos) string {
	var b strings.Builder
	b.Grow(6 * len(ps))
	writePosList(&b, ps)
	return b.String()
}

// writePosList writes boxes to b as posList does.
func writePosList(b *strings.Builder, ps []Pos) {
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.String())
	}
}

// take is one replacement card chosen by the resolving player.
func (g *Game) take(seat int, m *Move, replay bool) error {
	if err := g.takeOpen(seat); err != nil {
		return err
	}
	p := &g.Players[seat]
	switch m.From {
	case FromDisplay:
		if len(m.Boxes) > 0 || len(m.Extra) > 0 {
			return domain.Fail(domain.Invalid, "sg.invalid.take-fields")
		}
		c, err := g.card(m.Card)
		if err != nil {
			return err
		}
		at, err := g.displayAt(c)
		if err != nil {
			return err
		}
		g.Display = append(g.Display[:at:at], g.Display[at+1:]...)
		p.Hand = append(p.Hand, HandCard{Card: c})
	case FromDeck:
		if err := g.deckOpen(); err != nil {
			return err
		}
		var c int
		if g.Mode == Digital {
			c = g.Deck[0]
			if m.Card != "" && (!replay || m.Card != g.cardID(c)) {
				if replay {
					return domain.Refuse("digital-draws", "sg.refuse.record-draw", "card", m.Card, "dealt", g.cardID(c))
				}
				return domain.Refuse("digital-draws", "sg.refuse.digital-draw")
			}
			g.Deck = g.Deck[1:]
			m.Card = g.cardID(c) // logged, so that the record shows the draw
		} else {
			if m.Card == "" {
				return domain.Fail(domain.Invalid, "sg.invalid.name-drawn-card")
			}
			var err error
			if c, err = g.card(m.Card); err != nil {
				return err
			}
			if err := g.deckCard(g.locate(), c); err != nil {
				return err
			}
		}
		p.Hand = append(p.Hand, HandCard{Card: c})
	default:
		return domain.Fail(domain.Invalid, "sg.invalid.take-from", "from", quote(m.From), "display", quote(FromDisplay), "deck", quote(FromDeck))
	}
	p.Takes--
	g.emit("card_taken", cardEvent{Seat: seat, Card: g.cardID(p.Hand[len(p.Hand)-1].Card), From: m.From})
	g.advance()
	return nil
}

func (g *Game) revealReport(m *Move) error {
	if err := g.revealOpen(); err != nil {
		return err
	}
	p, ok := ParsePattern(m.Expedition)
	if !ok {
		return domain.Fail(domain.Invalid, "sg.invalid.unknown-expedition", "code", quote(m.Expedition), "codes", patternCodes())
	}
	if err := g.revealable(p); err != nil {
		return err
	}
	g.reveal(p)
	return nil
}

func (g *Game) displayReport(m *Move) error {
	c, err := g.card(m.Card)
	if err != nil {
		return err
	}
	if err := g.displayOpen(); err != nil {
		return err
	}
	if err := g.deckCard(g.locate(), c); err != nil {
		return err
	}
	g.Display = append(g.Display, c)
	g.emit("display_card", displayEvent{Card: m.Card})
	if g.Phase == PhaseSetup {
		if g.displayOwed() == 0 {
			g.startRound()
		}
		return nil
	}
	g.advance()
	return nil
}

func containsInt(s []int, v int) bool { return indexInt(s, v) >= 0 }

func indexInt(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// waitingFor says what the game waits for, as a clause of a refusal.
func (g *Game) waitingFor() i18n.Message {
	aw := g.Awaiting()
	if len(aw) == 0 {
		return i18n.M("sg.wait.ended")
	}
	parts := make([]i18n.Message, 0, len(aw))
	for _, a := range aw {
		parts = append(parts, a.Message())
	}
	return i18n.M("sg.wait.for", "list", parts)
}

// Awaited is one thing the game waits for.
type Awaited struct {
	Actor  string `json:"actor"`          // "seat" or "host" (domain.ActorSeat, domain.ActorHost)
	Seat   *int   `json:"seat,omitempty"` // for a seat
	Action string `json:"action"`         // keep, cross, take, reveal, display
	Count  int    `json:"count"`          // how many (cards to take or to turn up); 1 otherwise
}

// String describes the wait for a person, in English.
func (a Awaited) String() string { return i18n.Text(a.Message()) }

// Message describes the wait for a person: the end of "the game waits for …".
func (a Awaited) Message() i18n.Message {
	if a.Actor == domain.ActorHost {
		if a.Action == MoveReveal {
			return i18n.M("sg.await.reveal")
		}
		return i18n.M("sg.await.display", "count", a.Count)
	}
	switch a.Action {
	case MoveKeep:
		return i18n.M("sg.await.keep", "seat", *a.Seat, "count", HandSize)
	case MoveTake:
		return i18n.M("sg.await.take", "seat", *a.Seat, "count", a.Count)
	}
	return i18n.M("sg.await.cross", "seat", *a.Seat)
}

// Awaiting lists what the game waits for now: which seats must keep, cross or
// take, and (physical) which report the table owes.
//
// Every accepted move's status event calls it, so it allocates once: the
// list and its seat numbers share one block (BenchmarkAwaiting compares it
// with the plain version in the tests, TestAwaitingPlain holds them equal).
func (g *Game) Awaiting() []Awaited {
	var w [MaxPlayers]await
	n := g.awaits(&w)
	if n == 0 {
		return nil
	}
	return new(awaitedBlock).fill(w[:n])
}

// awaitedBlock holds a list of Awaited and their seat numbers in one block.
type awaitedBlock struct {
	aw    [MaxPlayers]Awaited
	seats [MaxPlayers]int
}

// fill writes w into b as Awaited and returns them.
func (b *awaitedBlock) fill(w []await) []Awaited {
	for i, a := range w {
		b.aw[i] = Awaited{Actor: domain.ActorHost, Action: a.action, Count: a.count}
		if a.seat >= 0 {
			b.seats[i] = a.seat
			b.aw[i].Actor, b.aw[i].Seat = domain.ActorSeat, &b.seats[i]
		}
	}
	return b.aw[:len(w):len(w)]
}

// await is one thing the game waits for, as Awaited says it but without a
// pointer, so that a list of them can live on the stack.
type await struct {
	seat   int // -1: the host
	action string
	count  int
}

// awaits writes what Awaiting lists into w and returns how many.
func (g *Game) awaits(w *[MaxPlayers]await) int {
	n := 0
	add := func(seat int, action string, count int) {
		w[n] = await{seat: seat, action: action, count: count}
		n++
	}
	switch g.Phase {
	case PhaseSetup, PhaseCrossing:
		for i, p := range g.Players {
			switch {
			case g.Phase == PhaseSetup && !p.Kept:
				add(i, MoveKeep, 1)
			case g.Phase == PhaseCrossing && !p.Crossed && !p.Passed:
				add(i, MoveCross, 1)
			}
		}
		if n == 0 && g.Phase == PhaseSetup && g.Mode == Physical {
			add(-1, MoveDisplay, g.displayOwed())
		}
	case PhaseReveal:
		add(-1, MoveReveal, 1)
	case PhaseResolving:
		if p := g.Players[g.Resolving]; p.Takes > 0 {
			add(g.Resolving, MoveTake, p.Takes)
		} else {
			add(-1, MoveDisplay, g.displayOwed())
		}
	}
	return n
}
