package silvergold

import (
	"fmt"
	"strings"

	"github.com/treasury-games/treasury/domain"
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

// SeatPtr returns a pointer to seat, for building moves.
func SeatPtr(seat int) *int { return &seat }

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
		return domain.Illegal("game-ended", "the game has ended after round %d; no more moves are possible", Rounds)
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
		return domain.Errorf(domain.Invalid, "the move has no type; use one of keep, cross, take, reveal, display")
	default:
		return domain.Errorf(domain.Invalid, "unknown move type %q; use one of keep, cross, take, reveal, display", m.Type)
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
	if m.Expedition != "" || (m.Type != MoveCross && (len(m.Boxes) > 0 || len(m.Extra) > 0)) ||
		(m.Type != MoveKeep && len(m.Cards) > 0) || (m.Type != MoveTake && m.From != "") {
		return 0, domain.Errorf(domain.Invalid, "a %s move has a field that belongs to another kind of move", m.Type)
	}
	return seat, nil
}

func (g *Game) authTable(actor domain.Actor, m *Move) error {
	if !actor.Host {
		return domain.Errorf(domain.Forbidden, "only the host credential reports what the table revealed or drew")
	}
	if g.Mode == Digital {
		return domain.Illegal("digital-draws", "in a digital game the server reveals and deals the cards; the table reports nothing")
	}
	if m.Seat != nil || len(m.Cards) > 0 || len(m.Boxes) > 0 || len(m.Extra) > 0 || m.From != "" ||
		(m.Type == MoveReveal && m.Card != "") || (m.Type == MoveDisplay && m.Expedition != "") {
		return domain.Errorf(domain.Invalid, "a %s report has a field that belongs to another kind of move", m.Type)
	}
	return nil
}

func (g *Game) card(id string) (int, error) {
	i, ok := g.cat.Index(id)
	if !ok {
		return 0, domain.Errorf(domain.Invalid, "there is no card %q in catalog %s", id, g.Catalog)
	}
	return i, nil
}

func (g *Game) keep(seat int, m *Move) error {
	if g.Phase != PhaseSetup {
		return domain.Illegal("keep-in-setup", "cards are kept only during setup; the game is in round %d", g.Round)
	}
	p := &g.Players[seat]
	if g.Mode == Physical && g.allKept() {
		return domain.Illegal("keep-in-setup", "every player has kept two cards already")
	}
	if p.Kept && p.Changes >= MaxChanges {
		return changeLimit(seat, "keep")
	}
	if len(m.Cards) != HandSize {
		return domain.Illegal("keep-two", "keep exactly 2 cards; you named %d", len(m.Cards))
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
		return domain.Illegal("keep-two", "you named %s twice; keep two different cards", m.Cards[0])
	}
	if g.Mode == Digital {
		for _, c := range []int{a, b} {
			if !containsInt(p.Dealt, c) {
				return domain.Illegal("keep-dealt", "%s was not dealt to seat %d; choose 2 of %s", g.cardID(c), seat, g.idList(p.Dealt))
			}
		}
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
	for i, other := range g.Players {
		if i == seat {
			continue
		}
		for _, c := range []int{a, b} {
			if g.inHand(&other, c) {
				return domain.Illegal("card-in-play", "%s is already kept by seat %d (%s); a card exists once", g.cardID(c), i, other.Name)
			}
		}
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
func changeLimit(seat int, what string) error {
	return domain.Illegal("change-limit", "seat %d has already changed its %s %d times this turn, the most the rules allow; the cap is reached, so the %s stands as it is",
		seat, what, MaxChanges, what)
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

func (g *Game) idList(cards []int) string {
	ids := make([]string, len(cards))
	for i, c := range cards {
		ids[i] = g.cardID(c)
	}
	return strings.Join(ids, ", ")
}

func (g *Game) handList(p *Player) string {
	if len(p.Hand) == 0 {
		return "no cards"
	}
	ids := make([]string, len(p.Hand))
	for i, h := range p.Hand {
		ids[i] = g.cardID(h.Card)
	}
	return strings.Join(ids, " and ")
}

// cross applies action 2 for one player. It works on a copy of the player, so
// a rejected crossing changes nothing.
func (g *Game) cross(seat int, m *Move) error {
	orig := &g.Players[seat]
	switch {
	case g.Phase == PhaseResolving && orig.Crossed:
		return domain.Illegal("crossing-locked", "your crossing is locked: everyone has crossed and the turn has resolved; %s", g.waitingFor())
	case g.Phase == PhaseResolving:
		return domain.Illegal("crossing-locked", "crossings are locked: the turn has resolved; %s", g.waitingFor())
	case g.Phase == PhaseReveal:
		return domain.Illegal("cross-in-action-2", "no expedition card is face up yet: the table has to report the one it reveals")
	case g.Phase == PhaseSetup:
		return domain.Illegal("cross-in-action-2", "the game is still in setup: boxes are crossed once the first expedition card is revealed; %s", g.waitingFor())
	}
	if orig.Passed {
		return domain.Illegal("pass", "seat %d has no uncrossed box left and passes this turn", seat)
	}
	replacing := orig.Crossed
	if replacing && orig.Changes >= MaxChanges {
		return changeLimit(seat, "crossing")
	}
	p := *orig
	p.Hand = append([]HandCard(nil), orig.Hand...)
	p.Palms = append([]int(nil), orig.Palms...)
	if p.Crossed { // replacing this turn's crossing: start again from before it
		for i := range p.Hand {
			p.Hand[i].Crossed = p.Undo.Crossed[i]
		}
		p.Coins, p.Palms = p.Undo.Coins, p.Palms[:p.Undo.Palms]
	}
	before := undo{Coins: p.Coins, Palms: len(p.Palms)}
	for _, h := range p.Hand {
		before.Crossed = append(before.Crossed, h.Crossed)
	}

	hi := g.handIndex(&p, m.Card)
	if hi < 0 {
		if _, ok := g.cat.Index(m.Card); !ok {
			return domain.Errorf(domain.Invalid, "there is no card %q in catalog %s", m.Card, g.Catalog)
		}
		return domain.Illegal("own-card", "%s is not one of seat %d's cards (they hold %s)", m.Card, seat, g.handList(&p))
	}
	card := &g.cat.Cards[p.Hand[hi].Card]
	if len(m.Boxes) == 0 {
		return domain.Illegal("cross-something", "name the boxes you cross: the pattern, or one single box")
	}
	// named is what this move names on each card, to tell a box named twice
	// from one crossed before.
	named := make([]Mask, len(p.Hand))
	var set Mask
	for _, b := range m.Boxes {
		bit, err := g.checkBox(card, p.Hand[hi].Crossed, b)
		if err != nil {
			return err
		}
		if set&bit != 0 {
			return domain.Illegal("box-once", "you named box %s of %s twice in boxes; name each box once", b, card.ID)
		}
		set |= bit
	}
	named[hi] = set
	pat, _ := g.Current()
	if len(m.Boxes) != 1 {
		if len(m.Boxes) != pat.Size() {
			return domain.Illegal("pattern-shape", "the %s (%s) covers %d boxes and you named %d; cross the whole pattern or exactly one box", pat.Name(), pat.Code(), pat.Size(), len(m.Boxes))
		}
		if !pat.Matches(set) {
			return domain.Illegal("pattern-shape", "boxes %s do not form the %s (%s) in any rotation or mirror image", posList(m.Boxes), pat.Name(), pat.Code())
		}
	}
	p.Hand[hi].Crossed |= set
	owed := (set & card.Crosses).Count()
	coins := (set & card.Coins).Count()
	palms := (set & card.Palms).Count()

	// Red-cross chain: every crossed red cross demands one more box anywhere.
	extrasOnCard := make([]Mask, len(p.Hand))
	for _, e := range m.Extra {
		ei := g.handIndex(&p, e.Card)
		if ei < 0 {
			if _, ok := g.cat.Index(e.Card); !ok {
				return domain.Errorf(domain.Invalid, "there is no card %q in catalog %s", e.Card, g.Catalog)
			}
			return domain.Illegal("own-card", "extra box on %s: it is not one of seat %d's cards (they hold %s)", e.Card, seat, g.handList(&p))
		}
		ec := &g.cat.Cards[p.Hand[ei].Card]
		if bit, ok := e.Box.Bit(); ok && named[ei]&bit != 0 {
			where := "in extra"
			if ei == hi && set&bit != 0 {
				where = "in boxes and in extra"
			}
			return domain.Illegal("box-once", "you named box %s of %s twice (%s); each extra box must be another uncrossed box", e.Box, ec.ID, where)
		}
		bit, err := g.checkBox(ec, p.Hand[ei].Crossed, e.Box)
		if err != nil {
			return err
		}
		named[ei] |= bit
		p.Hand[ei].Crossed |= bit
		extrasOnCard[ei] |= bit
		owed += (bit & ec.Crosses).Count()
		coins += (bit & ec.Coins).Count()
		palms += (bit & ec.Palms).Count()
	}
	chainStart := (set & card.Crosses).Count()
	switch {
	case len(m.Extra) > 0 && chainStart == 0:
		return domain.Illegal("red-cross-chain", "extra boxes are crossed only when a red cross demands them, and none of boxes %s on %s shows a red cross", posList(m.Boxes), card.ID)
	case len(m.Extra) > owed:
		return domain.Illegal("red-cross-chain", "the red crosses you crossed demand %d extra box(es), and you named %d", owed, len(m.Extra))
	case len(m.Extra) < owed && g.uncrossed(&p) > 0:
		return domain.Illegal("red-cross-chain", "the red crosses you crossed demand %d extra box(es), and you named %d; add %d more box(es) anywhere on your cards", owed, len(m.Extra), owed-len(m.Extra))
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
	p.Undo = &before
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
	for i, h := range p.Hand {
		c := &g.cat.Cards[h.Card]
		ev.Cards[i] = CardCrossed{Card: c.ID, Crossed: h.Crossed.Positions(), Left: (c.Boxes &^ h.Crossed).Count()}
	}
	g.emit("crossed", ev)
	norm := *m
	norm.Extra = append([]Extra(nil), m.Extra...)
	p.Crossing = &norm
	*orig = p
	g.maybeResolve()
	return nil
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

// checkBox returns the bit of box b on card c if it can be crossed.
func (g *Game) checkBox(c *Card, crossed Mask, b Pos) (Mask, error) {
	bit, ok := b.Bit()
	if !ok || b.Row >= c.Rows || b.Col >= c.Cols {
		return 0, domain.Illegal("box-on-card", "box %s is off %s, whose grid is %d rows by %d columns", b, c.ID, c.Rows, c.Cols)
	}
	if c.Boxes&bit == 0 {
		return 0, domain.Illegal("box-on-card", "%s has no box at %s", c.ID, b)
	}
	if crossed&bit != 0 {
		return 0, domain.Illegal("box-once", "box %s of %s is already crossed", b, c.ID)
	}
	return bit, nil
}

func posList(ps []Pos) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

// take is one replacement card chosen by the resolving player.
func (g *Game) take(seat int, m *Move, replay bool) error {
	if g.Phase != PhaseResolving || g.Resolving != seat || g.Players[seat].Takes == 0 {
		return domain.Illegal("take-when-owed", "seat %d owes no replacement card now; %s", seat, g.waitingFor())
	}
	p := &g.Players[seat]
	switch m.From {
	case FromDisplay:
		if len(m.Boxes) > 0 || len(m.Extra) > 0 {
			return domain.Errorf(domain.Invalid, "a take move has from and card only")
		}
		c, err := g.card(m.Card)
		if err != nil {
			return err
		}
		at := indexInt(g.Display, c)
		if at < 0 {
			return domain.Illegal("take-from-display", "%s is not in the display (it shows %s)", m.Card, g.idList(g.Display))
		}
		g.Display = append(g.Display[:at:at], g.Display[at+1:]...)
		p.Hand = append(p.Hand, HandCard{Card: c})
	case FromDeck:
		if g.DeckSize() == 0 {
			return domain.Illegal("take-from-deck", "the deck is empty; take a card from the display")
		}
		var c int
		if g.Mode == Digital {
			c = g.Deck[0]
			if m.Card != "" && (!replay || m.Card != g.cardID(c)) {
				if replay {
					return domain.Illegal("digital-draws", "the record says %s was drawn from the deck, but the seed deals %s", m.Card, g.cardID(c))
				}
				return domain.Illegal("digital-draws", "in a digital game the server draws the top card of the deck; leave out card")
			}
			g.Deck = g.Deck[1:]
			m.Card = g.cardID(c) // logged, so that the record shows the draw
		} else {
			if m.Card == "" {
				return domain.Errorf(domain.Invalid, "in a physical game, name the card drawn from the deck")
			}
			var err error
			if c, err = g.card(m.Card); err != nil {
				return err
			}
			if err := g.inDeck(c); err != nil {
				return err
			}
		}
		p.Hand = append(p.Hand, HandCard{Card: c})
	default:
		return domain.Errorf(domain.Invalid, "take from %q: a replacement comes from %q or %q", m.From, FromDisplay, FromDeck)
	}
	p.Takes--
	g.emit("card_taken", cardEvent{Seat: seat, Card: g.cardID(p.Hand[len(p.Hand)-1].Card), From: m.From})
	g.advance()
	return nil
}

// inDeck checks (physical) that card c can be in the deck.
func (g *Game) inDeck(c int) error {
	switch g.locate()[c] {
	case inDisplay:
		return domain.Illegal("card-in-play", "%s lies in the display, so it cannot come from the deck", g.cardID(c))
	case inHand:
		return domain.Illegal("card-in-play", "%s is already in front of a player", g.cardID(c))
	case inPile:
		return domain.Illegal("card-in-play", "%s was already completed and scored", g.cardID(c))
	}
	return nil
}

func (g *Game) revealReport(m *Move) error {
	if g.Phase != PhaseReveal {
		if g.Phase != PhaseSetup && len(g.Revealed) == TurnsPerRound {
			return domain.Illegal("seven-reveals", "7 expedition cards were already revealed in round %d; the 8th stays face down", g.Round)
		}
		return domain.Illegal("reveal-when-owed", "no expedition card is to be revealed now; %s", g.waitingFor())
	}
	p, ok := ParsePattern(m.Expedition)
	if !ok {
		return domain.Errorf(domain.Invalid, "unknown expedition card %q; use D2, I3, L3, T4, L4 or O4", m.Expedition)
	}
	seen := 0
	for _, r := range g.Revealed {
		if r == p {
			seen++
		}
	}
	if seen >= p.Copies() {
		return domain.Illegal("expedition-copies", "the %s (%s) has %d card(s) and all were revealed this round already", p.Name(), p.Code(), p.Copies())
	}
	g.reveal(p)
	return nil
}

func (g *Game) displayReport(m *Move) error {
	c, err := g.card(m.Card)
	if err != nil {
		return err
	}
	setupOwes := g.Phase == PhaseSetup && g.allKept()
	resolvingOwes := g.Phase == PhaseResolving && g.Started && g.Players[g.Resolving].Takes == 0
	if !setupOwes && !resolvingOwes {
		return domain.Illegal("display-when-owed", "no display card is owed now; %s", g.waitingFor())
	}
	if len(g.Display) >= DisplaySize {
		return domain.Illegal("display-full", "the display already shows %d cards (%s)", DisplaySize, g.idList(g.Display))
	}
	if err := g.inDeck(c); err != nil {
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

// waitingFor describes, in words, what the game waits for.
func (g *Game) waitingFor() string {
	aw := g.Awaiting()
	if len(aw) == 0 {
		return "the game has ended"
	}
	parts := make([]string, 0, len(aw))
	for _, a := range aw {
		parts = append(parts, a.String())
	}
	return "the game waits for " + strings.Join(parts, ", ")
}

// Awaited is one thing the game waits for.
type Awaited struct {
	Actor  string `json:"actor"`          // "seat" or "host" (domain.ActorSeat, domain.ActorHost)
	Seat   *int   `json:"seat,omitempty"` // for a seat
	Action string `json:"action"`         // keep, cross, take, reveal, display
	Count  int    `json:"count"`          // how many (cards to take or to turn up); 1 otherwise
}

// String describes the wait for a person.
func (a Awaited) String() string {
	if a.Actor == domain.ActorHost {
		if a.Action == MoveReveal {
			return "the table to report the revealed expedition card"
		}
		return fmt.Sprintf("the table to report %d display card(s)", a.Count)
	}
	switch a.Action {
	case MoveKeep:
		return fmt.Sprintf("seat %d to keep 2 cards", *a.Seat)
	case MoveTake:
		return fmt.Sprintf("seat %d to take %d replacement card(s)", *a.Seat, a.Count)
	}
	return fmt.Sprintf("seat %d to cross", *a.Seat)
}

// Awaiting lists what the game waits for now: which seats must keep, cross or
// take, and (physical) which report the table owes.
//
// Every accepted move's status event calls it, so it allocates once: the
// list and its seat numbers share one block (BenchmarkAwaiting compares it
// with the plain version in the tests, TestAwaitingPlain holds them equal).
func (g *Game) Awaiting() []Awaited {
	switch g.Phase {
	case PhaseSetup, PhaseCrossing:
		type block struct {
			aw    [MaxPlayers]Awaited
			seats [MaxPlayers]int
		}
		var b *block
		n := 0
		for i, p := range g.Players {
			if (g.Phase == PhaseSetup && !p.Kept) || (g.Phase == PhaseCrossing && !p.Crossed && !p.Passed) {
				if b == nil {
					b = new(block)
				}
				action := MoveCross
				if g.Phase == PhaseSetup {
					action = MoveKeep
				}
				b.seats[n] = i
				b.aw[n] = Awaited{Actor: domain.ActorSeat, Seat: &b.seats[n], Action: action, Count: 1}
				n++
			}
		}
		if b != nil {
			return b.aw[:n:n]
		}
		if g.Phase == PhaseSetup && g.Mode == Physical {
			return []Awaited{{Actor: domain.ActorHost, Action: MoveDisplay, Count: g.displayOwed()}}
		}
		return nil
	case PhaseReveal:
		return []Awaited{{Actor: domain.ActorHost, Action: MoveReveal, Count: 1}}
	case PhaseResolving:
		if p := g.Players[g.Resolving]; p.Takes > 0 {
			return []Awaited{{Actor: domain.ActorSeat, Seat: SeatPtr(g.Resolving), Action: MoveTake, Count: p.Takes}}
		}
		return []Awaited{{Actor: domain.ActorHost, Action: MoveDisplay, Count: g.displayOwed()}}
	}
	return nil
}
