package colorfultreasure

import (
	"encoding/json"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
)

// Move types. Every game's move types are distinct on the server.
const (
	MoveFlip     = "flip"      // reveal cards of the grid
	MoveCollect  = "collect"   // take the revealed cards of the chosen types
	MoveRob      = "rob"       // steal after pairing a key and a chest token
	MoveUseToken = "use_token" // use a one-time action token (advanced)
	MoveClaim    = "ct_claim"  // take an action token at the end of the turn (advanced)
	MoveEnd      = "ct_end"    // end the turn without taking an action token (advanced)
)

// TakeLocks is the take of every revealed key and chest card.
const TakeLocks = "keys_chests"

// Move is anything a seat can do. Which fields apply depends on Type; the
// JSON form is the one the API takes.
type Move struct {
	Type         string   `json:"type"`
	Seat         *int     `json:"seat,omitempty"`
	Cards        []Pos    `json:"cards,omitempty"`         // flip, use_token (peek)
	Shows        []Kind   `json:"shows,omitempty"`         // physical flip: what each card shows
	Take         []string `json:"take,omitempty"`          // collect: gem colours, "diamond" or "keys_chests"; none takes nothing
	Target       *int     `json:"target,omitempty"`        // rob: the seat robbed
	Card         *CardRef `json:"card,omitempty"`          // rob: the collected card stolen
	DiamondToken string   `json:"diamond_token,omitempty"` // rob: the wonder whose diamond token is stolen
	Token        int      `json:"token,omitempty"`         // use_token, ct_claim: the action token, 1 to 5
}

// AppendJSON appends the move as json.Marshal encodes it, without
// reflection: every entry of a listing and every logged move is one
// (TestMoveJSONPlain holds the two alike). A kind that is none of the
// game's is the error json.Marshal gives.
func (m *Move) AppendJSON(b []byte) ([]byte, error) {
	if !validKinds(m) {
		out, err := json.Marshal(m)
		return append(b, out...), err
	}
	b = append(b, `{"type":`...)
	b = domain.AppendJSONString(b, m.Type)
	if m.Seat != nil {
		b = strconv.AppendInt(append(b, `,"seat":`...), int64(*m.Seat), 10)
	}
	if len(m.Cards) > 0 {
		b = domain.AppendList(append(b, `,"cards":`...), m.Cards, appendPos)
	}
	if len(m.Shows) > 0 {
		b = domain.AppendList(append(b, `,"shows":`...), m.Shows, appendKind)
	}
	if len(m.Take) > 0 {
		b = domain.AppendList(append(b, `,"take":`...), m.Take, domain.AppendJSONString)
	}
	if m.Target != nil {
		b = strconv.AppendInt(append(b, `,"target":`...), int64(*m.Target), 10)
	}
	if m.Card != nil {
		b = domain.AppendJSONString(append(b, `,"card":{"wonder":`...), m.Card.Wonder)
		b = append(appendKind(append(b, `,"kind":`...), m.Card.Kind), '}')
	}
	if m.DiamondToken != "" {
		b = domain.AppendJSONString(append(b, `,"diamond_token":`...), m.DiamondToken)
	}
	if m.Token != 0 {
		b = strconv.AppendInt(append(b, `,"token":`...), int64(m.Token), 10)
	}
	return append(b, '}'), nil
}

// validKinds reports whether every kind m names is one of the game's.
func validKinds(m *Move) bool {
	for _, k := range m.Shows {
		if k < 0 || k >= NumKinds {
			return false
		}
	}
	return m.Card == nil || (m.Card.Kind >= 0 && m.Card.Kind < NumKinds)
}

// appendKind appends k, a kind of the game, as json.Marshal encodes it.
func appendKind(b []byte, k Kind) []byte {
	b = append(b, '"')
	b = append(b, kindNames[k]...)
	return append(b, '"')
}

// DecodeMove reads a move from JSON, refusing unknown fields.
func DecodeMove(b []byte) (Move, error) {
	var m Move
	if err := domain.DecodeMove(b, "Colorful Treasure", &m); err != nil {
		return Move{}, err
	}
	return m, nil
}

// SeatPtr returns a pointer to seat, for building moves (gamekit.SeatPtr).
var SeatPtr = gamekit.SeatPtr

// Play checks move m, made by actor, against the rules and applies it. A
// rejected move returns a *domain.Error and leaves the game exactly as it was.
func (g *Game) Play(actor domain.Actor, m *Move) error {
	g.events = g.events[:0]
	err := g.play(actor, m)
	if err == nil {
		g.Moves++
	} else {
		g.events = g.events[:0]
	}
	return err
}

func (g *Game) play(actor domain.Actor, m *Move) error {
	switch m.Type {
	case MoveFlip, MoveCollect, MoveRob, MoveUseToken, MoveClaim, MoveEnd:
	case "":
		return domain.Fail(domain.Invalid, "ct.invalid.no-type")
	default:
		return domain.Fail(domain.Invalid, "ct.invalid.unknown-type", "type", m.Type)
	}
	seat, err := g.authSeat(actor, m)
	if err != nil {
		return err
	}
	if err := g.checkTurn(seat); err != nil {
		return err
	}
	switch m.Type {
	case MoveFlip:
		return g.flip(seat, m)
	case MoveCollect:
		return g.collect(seat, m)
	case MoveRob:
		return g.rob(seat, m)
	case MoveUseToken:
		return g.useToken(seat, m)
	case MoveClaim:
		return g.claim(seat, m)
	default:
		return g.end()
	}
}

// The rules below are each written once: applying a move checks it with
// them, and the listing (legal.go) offers exactly the moves they accept, as
// chess's ValidMoves. Each returns the refusal a player reads.

// checkTurn is the rule every move starts with: the game goes on and seat
// is on turn.
func (g *Game) checkTurn(seat int) error {
	if g.onTurn(seat) {
		return nil
	}
	if g.Phase == PhaseEnded {
		return domain.Refuse("game-ended", "ct.refuse.game-ended")
	}
	if seat != g.Turn {
		return domain.Refuse("not-your-turn", "ct.refuse.not-your-turn", "name", g.Players[g.Turn].Name, "turn", g.Turn, "seat", seat)
	}
	return nil
}

// onTurn is the rule checkTurn words; the listing, which needs no reason,
// asks it alone (as it asks phaseAllows, takeAllowed and tokenUsable).
func (g *Game) onTurn(seat int) bool { return g.Phase != PhaseEnded && seat == g.Turn }

// movePhase is the phase each move of the turn's later steps is made in.
var movePhase = map[string]Phase{MoveCollect: PhaseChoose, MoveRob: PhaseRob, MoveClaim: PhaseClaim, MoveEnd: PhaseClaim}

// phaseAllows reports whether a move of type move may be made in the
// current phase (movePhase).
func (g *Game) phaseAllows(move string) bool { return g.Phase == movePhase[move] }

// inPhase is the rule that move is made in its phase (movePhase).
func (g *Game) inPhase(move string) error {
	if !g.phaseAllows(move) {
		return g.phaseError(move)
	}
	return nil
}

// authSeat checks who may make m and that it has only its own fields.
func (g *Game) authSeat(actor domain.Actor, m *Move) (int, error) {
	seat, err := gamekit.MoveSeat(actor, m.Seat, len(g.Players), m.Type)
	if err != nil {
		return 0, err
	}
	t := m.Type
	if (len(m.Cards) > 0 && t != MoveFlip && t != MoveUseToken) || (len(m.Shows) > 0 && t != MoveFlip) ||
		(len(m.Take) > 0 && t != MoveCollect) || ((m.Target != nil || m.Card != nil || m.DiamondToken != "") && t != MoveRob) ||
		(m.Token != 0 && t != MoveUseToken && t != MoveClaim) {
		return 0, domain.Fail(domain.Invalid, "ct.invalid.foreign-field", "type", t)
	}
	return seat, nil
}

// checkFaceDown checks that cards are distinct face-down cards of the grid.
func (g *Game) checkFaceDown(cards []Pos) error {
	for i, p := range cards {
		c := g.cell(p)
		if c == nil {
			return domain.Fail(domain.Invalid, "ct.invalid.off-grid", "pos", posTerm(p), "last_column", NumWonders-1, "last_row", g.Rows()-1)
		}
		for _, q := range cards[:i] {
			if q == p {
				return domain.Refuse("distinct-cards", "ct.refuse.distinct-cards", "pos", posTerm(p))
			}
		}
		switch c.State {
		case CellGone:
			return domain.Refuse("card-in-grid", "ct.refuse.card-taken", "pos", posTerm(p))
		case CellUp:
			return domain.Refuse("card-face-down", "ct.refuse.card-face-up", "pos", posTerm(p))
		}
	}
	return nil
}

// flip reveals cards: the first two together, then one more (a fourth with
// the token).
func (g *Game) flip(seat int, m *Move) error {
	want, err := g.flipCount()
	if err != nil {
		return err
	}
	if len(m.Cards) != want {
		switch {
		case g.Phase == PhaseReveal && want == 2:
			return domain.Refuse("reveal-two", "ct.refuse.reveal-two", "count", len(m.Cards))
		case g.Phase == PhaseReveal:
			return domain.Refuse("reveal-two", "ct.refuse.reveal-last")
		default:
			return domain.Refuse("reveal-one-more", "ct.refuse.reveal-one-more", "count", len(m.Cards))
		}
	}
	if err := g.checkFaceDown(m.Cards); err != nil {
		return err
	}
	if g.Mode == Digital {
		if len(m.Shows) > 0 {
			return domain.Fail(domain.Invalid, "ct.invalid.digital-shows")
		}
	} else if err := g.checkReport(m.Cards, m.Shows); err != nil {
		return err
	}
	shown := make([]shownCard, len(m.Cards))
	for i, p := range m.Cards {
		c := g.cell(p)
		if g.Mode == Physical {
			c.Kind = int8(m.Shows[i])
		}
		c.State = CellUp
		g.Revealed = append(g.Revealed, p)
		shown[i] = shownCard{Pos: p, Wonder: g.wonder(p.Column), Kind: Kind(c.Kind)}
	}
	g.Phase = PhaseChoose
	// Shown to everyone watching now; a later reader finds the card face
	// down again (or, once taken, in cards_collected).
	g.events = append(g.events, event{typ: "cards_revealed", data: revealEvent{Seat: seat, Cards: shown}, forSeat: none, live: true})
	return nil
}

// flipCount returns how many cards a flip reveals now, or why none may be.
func (g *Game) flipCount() (int, error) {
	switch g.Phase {
	case PhaseReveal:
		return min(2, g.Left()), nil
	case PhaseChoose:
		n := len(g.Revealed)
		switch {
		case g.Junior():
			return 0, domain.Refuse("junior-two", "ct.refuse.junior-two")
		case g.Left() == n:
			return 0, domain.Refuse("card-in-grid", "ct.refuse.all-face-up")
		case n == 2:
			return 1, nil
		case n == 3 && g.Fourth:
			return 1, nil
		case n == 3:
			return 0, domain.Refuse("third-card", "ct.refuse.third-card")
		default:
			return 0, domain.Refuse("third-card", "ct.refuse.most-cards", "count", n)
		}
	case PhaseRob:
		return 0, domain.Refuse("steal-first", "ct.refuse.steal-first")
	default:
		return 0, domain.Refuse("reveal-before-collect", "ct.refuse.reveal-before-collect")
	}
}

// checkReport checks a physical table's report of what cards show: each is a
// card its column may still hold face down (not taken, not face up
// elsewhere), and two cards of one column are not the same card. What a
// card showed when it was turned over before is not held against the
// report: the server forgets it once the card is face down again (see
// collect), as it would be a memory the players do not all have.
func (g *Game) checkReport(cards []Pos, shows []Kind) error {
	if len(shows) != len(cards) {
		return domain.Fail(domain.Invalid, "ct.invalid.report-count", "cards", len(cards), "shows", len(shows))
	}
	for i, p := range cards {
		k := shows[i]
		if k < 0 || k >= NumKinds {
			return domain.Fail(domain.Invalid, "ct.invalid.report-kind", "index", i)
		}
		if err := g.mayShow(p, k); err != nil {
			return err
		}
		for j, q := range cards[:i] {
			if q.Column == p.Column && shows[j] == k {
				return domain.Refuse("report-possible", "ct.refuse.report-twice", "wonder", wonderTerm(g.wonder(p.Column)), "kind", kindTerm(k), "first", posTerm(q), "pos", posTerm(p))
			}
		}
	}
	return nil
}

// mayShow is the rule of what the face-down card at p may be reported to
// show in a physical game: a card of its wonder neither taken nor face up
// now.
func (g *Game) mayShow(p Pos, k Kind) error {
	w := &g.cat.Wonders[p.Column]
	in, r := g.showConflict(p, k)
	switch {
	case !in:
		return domain.Refuse("report-possible", "ct.refuse.report-not-in-wonder", "wonder", wonderTerm(w.ID), "kind", kindTerm(k), "kinds", kindTerms(w.Cards(g.Junior())))
	case r >= 0 && g.Grid[p.Column][r].State == CellUp:
		return domain.Refuse("report-possible", "ct.refuse.report-face-up", "wonder", wonderTerm(w.ID), "kind", kindTerm(k), "at", posTerm(Pos{p.Column, r}), "pos", posTerm(p))
	case r >= 0:
		return domain.Refuse("report-possible", "ct.refuse.report-taken", "wonder", wonderTerm(w.ID), "kind", kindTerm(k), "pos", posTerm(p))
	}
	return nil
}

// showConflict is mayShow's rule without its words, which a listing asks
// of every kind of every face-down card: whether p's wonder has a card of
// kind k, and the row of p's column whose card of kind k is face up or
// taken (-1: none). Card p may show k when in and no such row.
func (g *Game) showConflict(p Pos, k Kind) (in bool, row int) {
	if !g.cat.Wonders[p.Column].Has(k, g.Junior()) {
		return false, -1
	}
	for r, o := range g.Grid[p.Column] {
		if o.Kind == int8(k) && o.State != CellDown {
			return true, r
		}
	}
	return true, -1
}

// takeChoice is a collect's take read and checked.
type takeChoice struct {
	locks bool
	kinds []Kind
}

// revealed returns which kinds the cards revealed this turn show, and
// whether a key or a chest is among them.
func (g *Game) revealed() (up [NumKinds]bool, locksUp bool) {
	for _, p := range g.Revealed {
		k := Kind(g.cell(p).Kind)
		up[k] = true
		locksUp = locksUp || k.IsLock()
	}
	return up, locksUp
}

// locksUp reports whether a key or a chest is among the cards revealed this
// turn.
func (g *Game) locksUp() bool {
	_, l := g.revealed()
	return l
}

// checkTake is the rule of a collect: the take is made in the choose phase
// and fits the revealed cards and the seat's tokens.
func (g *Game) checkTake(seat int, take []string) (takeChoice, error) {
	var tc takeChoice
	if err := g.inPhase(MoveCollect); err != nil {
		return tc, err
	}
	up, locksUp := g.revealed()
	for i, s := range take {
		if s == TakeLocks {
			tc.locks = true
			continue
		}
		k, ok := ParseKind(s)
		if !ok || k.IsLock() {
			return tc, domain.Fail(domain.Invalid, "ct.invalid.take", "index", i, "take", s)
		}
		for _, o := range tc.kinds {
			if o == k {
				return tc, domain.Refuse("take-one-type", "ct.refuse.take-twice", "kind", kindTerm(k))
			}
		}
		if !up[k] {
			return tc, domain.Refuse("take-revealed", "ct.refuse.take-not-revealed", "kind", kindTerm(k))
		}
		tc.kinds = append(tc.kinds, k)
	}
	if g.takeAllowed(seat, tc.locks, len(tc.kinds), locksUp) {
		return tc, nil
	}
	switch {
	case locksUp && g.has(seat, Instead):
		return tc, domain.Refuse("take-locks", "ct.refuse.take-locks-instead")
	case locksUp:
		return tc, domain.Refuse("take-locks", "ct.refuse.take-locks")
	case tc.locks:
		return tc, domain.Refuse("take-revealed", "ct.refuse.no-locks-revealed")
	default: // more kinds than takeAllowed lets the seat take
		return tc, domain.Refuse("take-one-type", "ct.refuse.take-one-type", "count", len(tc.kinds))
	}
}

// takeAllowed is the rule checkTake words for a take of the revealed cards
// (all keys and chests when locks, and kinds other kinds): with a key or a
// chest revealed, all keys and chests are taken, or with the Instead token
// one other kind; else nothing, one kind, or two with the two-types token.
func (g *Game) takeAllowed(seat int, locks bool, kinds int, locksUp bool) bool {
	if locksUp {
		return (locks && kinds == 0) || (!locks && kinds == 1 && g.has(seat, Instead))
	}
	return !locks && (kinds <= 1 || (kinds == 2 && g.TwoTypes))
}

// collect takes the chosen revealed cards, turns the others face down and
// pairs key and chest tokens.
func (g *Game) collect(seat int, m *Move) error {
	tc, err := g.checkTake(seat, m.Take)
	if err != nil {
		return err
	}
	p := &g.Players[seat]
	ev := collectEvent{Seat: seat, Cards: []shownCard{}, DiamondTokens: []string{}, LockTokens: []string{}, TurnedDown: []Pos{}}
	locksUp := g.locksUp()
	for _, pos := range g.Revealed {
		c := g.cell(pos)
		k := Kind(c.Kind)
		take := (tc.locks && k.IsLock())
		for _, want := range tc.kinds {
			take = take || k == want
		}
		if !take {
			c.State = CellDown
			if g.Mode == Physical {
				// Face down, a real card is unknown again to the server
				// as to anyone who did not remember it.
				c.Kind = unknown
			}
			ev.TurnedDown = append(ev.TurnedDown, pos)
			continue
		}
		c.State = CellGone
		col := pos.Column
		p.Cards = append(p.Cards, Card{Wonder: col, Kind: k})
		ev.Cards = append(ev.Cards, shownCard{Pos: pos, Wonder: g.wonder(col), Kind: k})
		switch {
		case k == Diamond && g.DiamondTokens[col]:
			g.DiamondTokens[col] = false
			p.DiamondTokens = append(p.DiamondTokens, col)
			ev.DiamondTokens = append(ev.DiamondTokens, g.wonder(col))
		case k == Key && g.LockTokens[col]:
			g.LockTokens[col] = false
			p.KeyTokens++
			ev.LockTokens = append(ev.LockTokens, g.wonder(col))
		case k == Chest && g.LockTokens[col]:
			g.LockTokens[col] = false
			p.ChestTokens++
			ev.LockTokens = append(ev.LockTokens, g.wonder(col))
		}
	}
	if locksUp && !tc.locks {
		ev.Instead = true
	}
	g.Revealed = g.Revealed[:0]
	g.emit("cards_collected", ev)
	pairs := min(p.KeyTokens, p.ChestTokens)
	if pairs > 0 {
		p.KeyTokens -= pairs
		p.ChestTokens -= pairs
		g.emit("tokens_paired", pairEvent{Seat: seat, Pairs: pairs})
		g.Thefts += pairs
	}
	g.Resume = phaseFinish
	g.proceed()
	return nil
}

// stealable reports whether thief may steal anything from victim, and
// whether cards (not only diamond tokens) may be taken.
func (g *Game) stealable(thief, victim int) (ok, cards bool) {
	if victim == thief || g.has(thief, NoStealing) || g.has(victim, NoStealing) {
		return false, false
	}
	v := &g.Players[victim]
	cards = !g.has(victim, Protected) && len(v.Cards) > 0
	return cards || len(v.DiamondTokens) > 0, cards
}

// canSteal reports whether the seat on turn can steal from anyone.
func (g *Game) canSteal() bool {
	for v := range g.Players {
		if ok, _ := g.stealable(g.Turn, v); ok {
			return true
		}
	}
	return false
}

// proceed goes on after a collect, a theft or a pairing: thefts owed first
// (discarded when nobody can be robbed), then where the turn resumes.
func (g *Game) proceed() {
	if g.Thefts > 0 {
		if g.canSteal() {
			g.Phase = PhaseRob
			return
		}
		g.emit("theft_skipped", theftSkippedEvent{Seat: g.Turn, Pairs: g.Thefts})
		g.Thefts = 0
	}
	if g.Resume != phaseFinish && g.Resume != PhaseClaim {
		g.Phase = g.Resume
		return
	}
	g.checkAwards(g.Turn)
	g.Phase = PhaseClaim
	g.endIfDone()
}

// endIfDone passes the turn in the claim step once nothing is left to do in
// it: no token to take, and no action token the seat may still use (a peek,
// the wild pair). Tokens may be used "anytime during your turn, even on the
// turn that you gain them", so the step waits for ct_end while one may.
func (g *Game) endIfDone() {
	if g.Phase == PhaseClaim && !g.canClaim() && len(g.tokenOptions(g.Turn)) == 0 {
		g.endTurn()
	}
}

// theft is a rob checked: the seat robbed, and the index of the card or
// diamond token taken among its own.
type theft struct {
	target, card, token int // card or token is -1
}

// checkRob is the rule of a theft: in the rob phase, of one card or one
// diamond token an opponent holds and may lose.
func (g *Game) checkRob(seat int, m *Move) (theft, error) {
	th := theft{card: -1, token: -1}
	if err := g.inPhase(MoveRob); err != nil {
		return th, err
	}
	if m.Target == nil {
		return th, domain.Fail(domain.Invalid, "ct.invalid.rob-target")
	}
	t := *m.Target
	if t < 0 || t >= len(g.Players) {
		return th, gamekit.NoSuchSeat(t, len(g.Players))
	}
	if t == seat {
		return th, domain.Refuse("rob-opponent", "ct.refuse.rob-opponent")
	}
	if (m.Card == nil) == (m.DiamondToken == "") {
		return th, domain.Fail(domain.Invalid, "ct.invalid.rob-one-thing")
	}
	th.target = t
	victim := &g.Players[t]
	ok, cards := g.stealable(seat, t)
	if !ok {
		if g.has(t, NoStealing) {
			return th, domain.Refuse("rob-protected", "ct.refuse.rob-no-stealing", "name", victim.Name)
		}
		return th, domain.Refuse("rob-nothing", "ct.refuse.rob-nothing", "name", victim.Name)
	}
	if m.Card != nil {
		if !cards {
			if g.has(t, Protected) {
				return th, domain.Refuse("rob-protected", "ct.refuse.rob-protected", "name", victim.Name)
			}
			return th, domain.Refuse("rob-nothing", "ct.refuse.rob-no-card", "name", victim.Name)
		}
		col, ok := g.cat.Index(m.Card.Wonder)
		if !ok {
			return th, domain.Fail(domain.Invalid, "ct.invalid.no-such-wonder", "wonder", m.Card.Wonder, "catalog", g.Catalog)
		}
		if th.card = victim.holds(Card{Wonder: col, Kind: m.Card.Kind}); th.card < 0 {
			return th, domain.Refuse("rob-held", "ct.refuse.rob-card-not-held", "name", victim.Name, "wonder", wonderTerm(m.Card.Wonder), "kind", kindTerm(m.Card.Kind))
		}
		return th, nil
	}
	col, ok := g.cat.Index(m.DiamondToken)
	if !ok {
		return th, domain.Fail(domain.Invalid, "ct.invalid.no-such-wonder", "wonder", m.DiamondToken, "catalog", g.Catalog)
	}
	if th.token = indexInt(victim.DiamondTokens, col); th.token < 0 {
		return th, domain.Refuse("rob-held", "ct.refuse.rob-token-not-held", "name", victim.Name, "wonder", wonderTerm(m.DiamondToken))
	}
	return th, nil
}

// rob steals a collected card or a diamond token from an opponent.
func (g *Game) rob(seat int, m *Move) error {
	th, err := g.checkRob(seat, m)
	if err != nil {
		return err
	}
	t := th.target
	victim := &g.Players[t]
	ev := theftEvent{Seat: seat, Target: t}
	if i := th.card; i >= 0 {
		c := victim.Cards[i]
		victim.Cards = append(victim.Cards[:i:i], victim.Cards[i+1:]...)
		g.Players[seat].Cards = append(g.Players[seat].Cards, c)
		if c.Kind.IsGem() && victim.gems()[c.Kind.colourIndex()] < 3 {
			victim.Claimed[c.Kind.colourIndex()] = false
		}
		r := g.ref(c)
		ev.Card = &r
	} else {
		i := th.token
		col := victim.DiamondTokens[i]
		victim.DiamondTokens = append(victim.DiamondTokens[:i:i], victim.DiamondTokens[i+1:]...)
		g.Players[seat].DiamondTokens = append(g.Players[seat].DiamondTokens, col)
		ev.DiamondToken = m.DiamondToken
	}
	g.emit("stolen", ev)
	g.Thefts--
	g.proceed()
	return nil
}

func indexInt(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// checkToken is the rule of using action token (1 to 5) now, but for the
// cards a peek names (checkPeek): the seat holds it, it is one-time, and
// its effect may be had now. cards are the move's.
func (g *Game) checkToken(seat, token int, cards []Pos) (Effect, error) {
	if g.Variant != VariantAdvanced {
		return 0, domain.Refuse("advanced-only", "ct.refuse.advanced-only", "variant", variantTerm(g.Variant))
	}
	t := token - 1
	if t < 0 || t >= NumTokens {
		return 0, domain.Fail(domain.Invalid, "ct.invalid.token", "last", NumTokens, "token", token)
	}
	if indexInt(g.Players[seat].Actions, t) < 0 {
		return 0, domain.Refuse("token-held", "ct.refuse.token-held", "token", token)
	}
	e := g.effect(t)
	if !e.OneTime() {
		return e, domain.Refuse("token-permanent", "ct.refuse.token-permanent", "token", token, "effect", effectTerm(e))
	}
	if g.Phase == PhaseRob {
		return e, domain.Refuse("steal-first", "ct.refuse.steal-first")
	}
	if len(cards) > 0 && e != PeekTwo && e != PeekThree {
		return e, domain.Fail(domain.Invalid, "ct.invalid.token-cards", "token", token, "effect", effectTerm(e))
	}
	if g.tokenUsable(seat, e) {
		return e, nil
	}
	switch e {
	case PeekTwo, PeekThree:
		if g.Phase != PhaseReveal && g.Phase != PhaseChoose && g.Phase != PhaseClaim {
			return e, g.phaseError("use_token")
		}
	case FourthCard:
		if g.Phase != PhaseChoose || len(g.Revealed) != 3 || g.Fourth {
			return e, domain.Refuse("token-when", "ct.refuse.fourth-when")
		}
		if g.Left() == len(g.Revealed) {
			return e, domain.Refuse("card-in-grid", "ct.refuse.all-face-up-already")
		}
	case TwoTypes:
		if g.Phase != PhaseChoose || g.TwoTypes {
			return e, domain.Refuse("token-when", "ct.refuse.two-types-when")
		}
		if g.locksUp() {
			return e, domain.Refuse("token-when", "ct.refuse.two-types-locks")
		}
	case WildPair:
		if p := &g.Players[seat]; p.KeyTokens+p.ChestTokens == 0 {
			return e, domain.Refuse("token-when", "ct.refuse.wild-when")
		}
	}
	return e, nil
}

// tokenUsable is the rule checkToken words for a token of effect e that
// seat holds: a one-time token of the advanced game, out of the rob phase;
// a peek before the claim step ends, the fourth card with three cards
// revealed and one more face down, two types with no key or chest revealed,
// the wild pair with a key or chest token to pair.
func (g *Game) tokenUsable(seat int, e Effect) bool {
	if g.Variant != VariantAdvanced || !e.OneTime() || g.Phase == PhaseRob {
		return false
	}
	switch e {
	case PeekTwo, PeekThree:
		return g.Phase == PhaseReveal || g.Phase == PhaseChoose || g.Phase == PhaseClaim
	case FourthCard:
		return g.Phase == PhaseChoose && len(g.Revealed) == 3 && !g.Fourth && g.Left() != len(g.Revealed)
	case TwoTypes:
		return g.Phase == PhaseChoose && !g.TwoTypes && !g.locksUp()
	case WildPair:
		p := &g.Players[seat]
		return p.KeyTokens+p.ChestTokens > 0
	}
	return false
}

// useToken uses one of the seat's one-time action tokens.
func (g *Game) useToken(seat int, m *Move) error {
	e, err := g.checkToken(seat, m.Token, m.Cards)
	if err != nil {
		return err
	}
	t := m.Token - 1
	switch e {
	case PeekTwo, PeekThree:
		if err := g.checkPeek(e, m.Cards); err != nil {
			return err
		}
		g.spend(seat, t)
		g.emit("token_used", tokenEvent{Seat: seat, Token: t + 1, Effect: e.String(), Cards: m.Cards})
		if g.Mode == Digital {
			shown := make([]shownCard, len(m.Cards))
			for i, p := range m.Cards {
				shown[i] = shownCard{Pos: p, Wonder: g.wonder(p.Column), Kind: Kind(g.cell(p).Kind)}
			}
			// The peeking seat alone sees the cards, once, as it happens.
			g.events = append(g.events, event{typ: "peeked", data: peekEvent{Seat: seat, Cards: shown}, forSeat: seat, notHost: true, live: true})
		}
		g.endIfDone()
		return nil
	case FourthCard:
		g.Fourth = true
	case TwoTypes:
		g.TwoTypes = true
	case WildPair:
		p := &g.Players[seat]
		if p.KeyTokens > 0 {
			p.KeyTokens--
		} else {
			p.ChestTokens--
		}
		g.spend(seat, t)
		g.emit("token_used", tokenEvent{Seat: seat, Token: t + 1, Effect: e.String()})
		g.emit("tokens_paired", pairEvent{Seat: seat, Pairs: 1})
		g.Thefts++
		g.Resume = g.Phase
		g.proceed()
		return nil
	}
	g.spend(seat, t)
	g.emit("token_used", tokenEvent{Seat: seat, Token: t + 1, Effect: e.String()})
	return nil
}

// checkPeek is the rule of the cards a peek names: face down, two of
// different wonders or one to three of one wonder.
func (g *Game) checkPeek(e Effect, cards []Pos) error {
	if err := g.checkFaceDown(cards); err != nil {
		return err
	}
	if e == PeekTwo {
		if len(cards) != 2 || cards[0].Column == cards[1].Column {
			return domain.Refuse("peek-cards", "ct.refuse.peek-two")
		}
		return nil
	}
	if len(cards) < 1 || len(cards) > 3 {
		return domain.Refuse("peek-cards", "ct.refuse.peek-three-count", "count", len(cards))
	}
	for _, p := range cards[1:] {
		if p.Column != cards[0].Column {
			return domain.Refuse("peek-cards", "ct.refuse.peek-three-wonder", "first", posTerm(cards[0]), "pos", posTerm(p))
		}
	}
	return nil
}

// canClaim reports whether the seat on turn may take an action token now.
func (g *Game) canClaim() bool {
	if g.Variant != VariantAdvanced || g.Claimed || g.claimColour(g.Turn) < 0 {
		return false
	}
	for _, h := range g.Actions {
		if h == none {
			return true
		}
	}
	return false
}

// claimColour returns a colour of which seat holds 3 gems that has not yet
// earned a token, or -1.
func (g *Game) claimColour(seat int) int {
	p := &g.Players[seat]
	n := p.gems()
	for c := range n {
		if n[c] >= 3 && !p.Claimed[c] {
			return c
		}
	}
	return -1
}

// canPeek reports whether a peek with effect e has cards to look at among
// the face-down cards down (in grid order).
func (g *Game) canPeek(e Effect, down []Pos) bool {
	if e == PeekTwo {
		return len(down) > 0 && down[0].Column != down[len(down)-1].Column
	}
	return len(down) > 0
}

// checkClaim is the rule of taking action token (1 to 5): in the claim
// step, once a turn, for a third gem of a colour, a token still on offer.
func (g *Game) checkClaim(token int) error {
	if err := g.inPhase(MoveClaim); err != nil {
		return err
	}
	t := token - 1
	if t < 0 || t >= NumTokens {
		return domain.Fail(domain.Invalid, "ct.invalid.token", "last", NumTokens, "token", token)
	}
	if !g.canClaim() {
		if g.Claimed {
			return domain.Refuse("claim-once", "ct.refuse.claim-once")
		}
		return domain.Refuse("claim-three-gems", "ct.refuse.claim-three-gems")
	}
	if !g.onOffer(t) {
		return domain.Refuse("claim-available", "ct.refuse.claim-available", "token", token)
	}
	return nil
}

// onOffer reports whether action token t (0 to 4) is still on offer.
func (g *Game) onOffer(t int) bool { return g.Actions[t] == none }

// claim takes an action token at the end of the turn.
func (g *Game) claim(seat int, m *Move) error {
	if err := g.checkClaim(m.Token); err != nil {
		return err
	}
	t := m.Token - 1
	c := g.claimColour(seat)
	p := &g.Players[seat]
	p.Claimed[c] = true
	p.Actions = append(p.Actions, t)
	g.Actions[t] = seat
	g.Claimed = true
	g.emit("token_taken", tokenEvent{Seat: seat, Token: t + 1, Effect: g.effect(t).String(), Colour: Colours[c].String()})
	g.endIfDone()
	return nil
}

// checkEnd is the rule of ending the turn: in the claim step.
func (g *Game) checkEnd() error { return g.inPhase(MoveEnd) }

// end ends the turn in the claim step.
func (g *Game) end() error {
	if err := g.checkEnd(); err != nil {
		return err
	}
	g.endTurn()
	return nil
}

func (g *Game) phaseError(what string) error {
	switch g.Phase {
	case PhaseReveal:
		return domain.Refuse("reveal-first", "ct.refuse.reveal-first", "move", what)
	case PhaseChoose:
		return domain.Refuse("collect-first", "ct.refuse.collect-first", "move", what)
	case PhaseRob:
		return domain.Refuse("steal-first", "ct.refuse.steal-first-not", "move", what)
	default:
		return domain.Refuse("turn-over", "ct.refuse.turn-over", "move", what)

	}
}

// checkAwards gives seat the Colorful Gems and Explorer awards it has earned
// and nobody holds.
func (g *Game) checkAwards(seat int) {
	if g.Junior() {
		return
	}
	p := &g.Players[seat]
	if g.Colorful == none && g.colours(seat) >= g.colorfulNeed() {
		g.Colorful = seat
		g.emit("award_taken", awardEvent{Seat: seat, Award: AwardColorful, Points: g.colorfulPoints()})
	}
	if g.Explorer == none && p.wonders() >= ExplorerWonders {
		g.Explorer = seat
		g.emit("award_taken", awardEvent{Seat: seat, Award: AwardExplorer, Points: ExplorerPoints})
	}
}

// colours returns how many gem colours seat has for Colorful Gems.
func (g *Game) colours(seat int) int {
	n := 0
	for _, c := range g.Players[seat].gems() {
		if c > 0 {
			n++
		}
	}
	if g.has(seat, SixthColour) {
		n++
	}
	return n
}

func (g *Game) colorfulNeed() int {
	if len(g.Players) == 4 {
		return 4
	}
	return 5
}

func (g *Game) colorfulPoints() int {
	if len(g.Players) == 4 {
		return 6
	}
	return 9
}

// endTurn checks the awards, the end of the game, and passes the turn.
func (g *Game) endTurn() {
	seat := g.Turn
	g.checkAwards(seat)
	g.Players[seat].Turns++
	g.Revealed = g.Revealed[:0]
	g.Fourth, g.TwoTypes, g.Claimed, g.Thefts = false, false, false, 0
	g.Resume = ""
	left := g.Left()
	n := len(g.Players)
	if !g.Junior() && left <= EndThreshold && !g.LastRound {
		g.LastRound = true
		g.emit("last_round", lastRoundEvent{CardsLeft: left})
	}
	if left == 0 || (g.LastRound && seat == (g.Start+n-1)%n) {
		g.Phase = PhaseEnded
		g.emit("game_ended", endEvent{Round: g.Round, CardsLeft: left})
		return
	}
	g.Turn = (seat + 1) % n
	if g.Turn == g.Start {
		g.Round++
	}
	g.Phase = PhaseReveal
	g.emit("turn_started", turnEvent{Seat: g.Turn, Round: g.Round})
}

// Awards.
const (
	AwardColorful   = "colorful_gems"
	AwardExplorer   = "explorer"
	AwardChest      = "chest"
	ExplorerPoints  = 5
	ExplorerWonders = 8
	ChestPoints     = 7
)

type shownCard struct {
	Pos
	Wonder string `json:"wonder"`
	Kind   Kind   `json:"kind"`
}

type revealEvent struct {
	Seat  int         `json:"seat"`
	Cards []shownCard `json:"cards"`
}

type peekEvent = revealEvent

type collectEvent struct {
	Seat          int         `json:"seat"`
	Cards         []shownCard `json:"cards"`
	DiamondTokens []string    `json:"diamond_tokens"`
	LockTokens    []string    `json:"lock_tokens"`
	TurnedDown    []Pos       `json:"turned_down"`
	Instead       bool        `json:"instead,omitempty"`
}

type pairEvent struct {
	Seat  int `json:"seat"`
	Pairs int `json:"pairs"`
}

type theftSkippedEvent = pairEvent

type theftEvent struct {
	Seat         int      `json:"seat"`
	Target       int      `json:"target"`
	Card         *CardRef `json:"card,omitempty"`
	DiamondToken string   `json:"diamond_token,omitempty"`
}

type tokenEvent struct {
	Seat   int    `json:"seat"`
	Token  int    `json:"token"`
	Effect string `json:"effect"`
	Cards  []Pos  `json:"cards,omitempty"`
	Colour string `json:"colour,omitempty"`
}

type awardEvent struct {
	Seat   int    `json:"seat"`
	Award  string `json:"award"`
	Points int    `json:"points"`
}

type lastRoundEvent struct {
	CardsLeft int `json:"cards_left"`
}

type endEvent struct {
	Round     int `json:"round"`
	CardsLeft int `json:"cards_left"`
}

type turnEvent struct {
	Seat  int `json:"seat"`
	Round int `json:"round"`
}
