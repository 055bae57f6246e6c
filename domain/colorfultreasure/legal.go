package colorfultreasure

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// FlipCell is a card that may be revealed. In a physical game Shows lists
// what the table may report it shows.
type FlipCell struct {
	Pos
	Shows []Kind `json:"shows,omitempty"`
}

// FlipOption is the flip a seat may make: Count cards, all different, among
// Cells (in a physical game two cards of one column never show the same kind).
type FlipOption struct {
	Count int        `json:"count"`
	Cells []FlipCell `json:"cells"`
}

// RobOption is one theft a seat may make.
type RobOption struct {
	Target       int      `json:"target"`
	Card         *CardRef `json:"card,omitempty"`
	DiamondToken string   `json:"diamond_token,omitempty"`
}

// TokenOption is an action token a seat may use now. A peek names from Min
// to Max different cards among Cells: of one wonder (SameWonder) or of
// different wonders (DifferentWonders).
type TokenOption struct {
	Token            int    `json:"token"`
	Effect           string `json:"effect"`
	Cells            []Pos  `json:"cells,omitempty"`
	Min              int    `json:"min,omitempty"`
	Max              int    `json:"max,omitempty"`
	SameWonder       bool   `json:"same_wonder,omitempty"`
	DifferentWonders bool   `json:"different_wonders,omitempty"`
}

// Legal is everything a seat may do now.
type Legal struct {
	Ruleset  string        `json:"ruleset"`
	Seat     int           `json:"seat"`
	Phase    Phase         `json:"phase"`
	Flip     *FlipOption   `json:"flip"`
	Collect  [][]string    `json:"collect"`   // each a take the seat may collect
	Rob      []RobOption   `json:"rob"`       // each a theft the seat may make
	UseToken []TokenOption `json:"use_token"` // the action tokens the seat may use
	Claim    []int         `json:"claim"`     // the action tokens the seat may take
	End      bool          `json:"end"`       // the seat may end its turn (ct_end)
	// Moves and Pools are the listing in the table language every ruleset
	// speaks (domain.LegalMove): each move ready to send or completed from
	// parts of a pool.
	Moves []domain.LegalMove `json:"moves"`
	Pools domain.Pools       `json:"pools"`
	// cardPools are the JSON of the parts of the pools made of the
	// catalog's card parts only, as Pools has them (Legal.cardPool).
	cardPools map[string][][]byte
}

// AppendJSON appends l as json.Marshal encodes it, without reflection: the
// listing of the seat on turn is built after each of its moves, and
// encoding/json of its own members was a third of its encoding in the load
// run's profile (TestLegalJSONPlain holds the two alike). A kind that is
// none of the game's is the error json.Marshal gives.
func (l *Legal) AppendJSON(b []byte) ([]byte, error) {
	if !l.validKinds() {
		out, err := json.Marshal(l)
		return append(b, out...), err
	}
	b = domain.AppendJSONString(append(b, `{"ruleset":`...), l.Ruleset)
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(l.Seat), 10)
	b = domain.AppendJSONString(append(b, `,"phase":`...), string(l.Phase))
	b = append(b, `,"flip":`...)
	if l.Flip == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(append(b, `{"count":`...), int64(l.Flip.Count), 10)
		b = domain.AppendList(append(b, `,"cells":`...), l.Flip.Cells, appendFlipCell)
		b = append(b, '}')
	}
	b = domain.AppendList(append(b, `,"collect":`...), l.Collect, func(b []byte, take []string) []byte {
		return domain.AppendList(b, take, domain.AppendJSONString)
	})
	b = domain.AppendList(append(b, `,"rob":`...), l.Rob, appendRobOption)
	b = domain.AppendList(append(b, `,"use_token":`...), l.UseToken, appendTokenOption)
	b = domain.AppendList(append(b, `,"claim":`...), l.Claim, func(b []byte, t int) []byte { return strconv.AppendInt(b, int64(t), 10) })
	b = strconv.AppendBool(append(b, `,"end":`...), l.End)
	b = domain.AppendLegalMoves(append(b, `,"moves":`...), l.Moves)
	b = l.appendPools(append(b, `,"pools":`...))
	return append(b, '}'), nil
}

// appendPools appends l.Pools as json.Marshal encodes them: from the
// catalog's JSON of their parts when they are all pools of card parts
// (l.cardPools), as a digital game's are.
func (l *Legal) appendPools(b []byte) []byte {
	if len(l.cardPools) == 0 || len(l.cardPools) != len(l.Pools) {
		return domain.AppendPools(b, l.Pools)
	}
	var nb [8]string
	names := nb[:0]
	for name := range l.Pools {
		if len(l.cardPools[name]) != len(l.Pools[name]) {
			return domain.AppendPools(b, l.Pools)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(domain.AppendJSONString(b, name), ':')
		b = domain.AppendList(b, l.cardPools[name], func(b, part []byte) []byte { return append(b, part...) })
	}
	return append(b, '}')
}

// validKinds reports whether every kind l names is one of the game's.
func (l *Legal) validKinds() bool {
	if l.Flip != nil {
		for _, c := range l.Flip.Cells {
			if !validKinds(&Move{Shows: c.Shows}) {
				return false
			}
		}
	}
	for _, r := range l.Rob {
		if !validKinds(&Move{Card: r.Card}) {
			return false
		}
	}
	return true
}

// appendFlipCell appends c, whose kinds are the game's.
func appendFlipCell(b []byte, c FlipCell) []byte {
	b = appendPos(b, c.Pos)
	if len(c.Shows) == 0 {
		return b
	}
	return append(domain.AppendList(append(b[:len(b)-1], `,"shows":`...), c.Shows, appendKind), '}')
}

func appendRobOption(b []byte, r RobOption) []byte {
	b = strconv.AppendInt(append(b, `{"target":`...), int64(r.Target), 10)
	if r.Card != nil {
		b = domain.AppendJSONString(append(b, `,"card":{"wonder":`...), r.Card.Wonder)
		b = append(appendKind(append(b, `,"kind":`...), r.Card.Kind), '}')
	}
	if r.DiamondToken != "" {
		b = domain.AppendJSONString(append(b, `,"diamond_token":`...), r.DiamondToken)
	}
	return append(b, '}')
}

func appendTokenOption(b []byte, t TokenOption) []byte {
	b = strconv.AppendInt(append(b, `{"token":`...), int64(t.Token), 10)
	b = domain.AppendJSONString(append(b, `,"effect":`...), t.Effect)
	if len(t.Cells) > 0 {
		b = domain.AppendList(append(b, `,"cells":`...), t.Cells, appendPos)
	}
	if t.Min != 0 {
		b = strconv.AppendInt(append(b, `,"min":`...), int64(t.Min), 10)
	}
	if t.Max != 0 {
		b = strconv.AppendInt(append(b, `,"max":`...), int64(t.Max), 10)
	}
	if t.SameWonder {
		b = append(b, `,"same_wonder":true`...)
	}
	if t.DifferentWonders {
		b = append(b, `,"different_wonders":true`...)
	}
	return append(b, '}')
}

// LegalMoves lists what seat may do now; seat -1 (the table) never has a move
// of its own: in a physical game the seat on turn reports its own cards.
func (g *Game) LegalMoves(seat int) Legal {
	l := g.legalMoves(seat)
	l.Moves, l.Pools = []domain.LegalMove{}, domain.Pools{}
	g.entries(&l)
	return l
}

// legalMoves offers every move the rules of move.go accept from seat now:
// each list is the candidates its rule lets through, asked through the
// rule's yes/no core (onTurn, phaseAllows, takeAllowed, stealable,
// tokenUsable, canClaim, onOffer), which its check (checkTurn, checkTake,
// checkRob, checkToken, checkClaim, checkEnd) words as a refusal.
func (g *Game) legalMoves(seat int) Legal {
	l := Legal{Ruleset: RulesetName, Seat: seat, Phase: g.Phase, Collect: [][]string{}, Rob: []RobOption{}, UseToken: []TokenOption{}, Claim: []int{}}
	if !g.onTurn(seat) {
		return l
	}
	if n, err := g.flipCount(); err == nil && n > 0 {
		l.Flip = &FlipOption{Count: n, Cells: g.flipCells()}
	}
	l.Collect = g.takes(seat)
	l.Rob = g.robOptions(seat)
	l.UseToken = g.tokenOptions(seat)
	l.Claim = g.claims()
	l.End = g.phaseAllows(MoveEnd) // checkEnd
	return l
}

// faceDown returns the face-down cells of the grid.
func (g *Game) faceDown() []Pos {
	var out []Pos
	for c := range g.Grid {
		for r, cell := range g.Grid[c] {
			if cell.State == CellDown {
				out = append(out, Pos{c, r})
			}
		}
	}
	return out
}

func (g *Game) flipCells() []FlipCell {
	down := g.faceDown()
	out := make([]FlipCell, len(down))
	for i, p := range down {
		out[i].Pos = p
		if g.Mode == Physical {
			out[i].Shows = g.possible(p)
		}
	}
	return out
}

// possible returns what the face-down card at p may be reported to show in
// a physical game (mayShow).
func (g *Game) possible(p Pos) []Kind {
	var out []Kind
	for _, k := range g.cat.Wonders[p.Column].Cards(g.Junior()) {
		if in, r := g.showConflict(p, k); in && r < 0 { // mayShow's rule
			out = append(out, k)
		}
	}
	return out
}

// takes lists every take a collect may name now: of the takes of the
// revealed kinds (all keys and chests, nothing, one kind, two kinds), those
// takeAllowed (checkTake's rule) accepts.
func (g *Game) takes(seat int) [][]string {
	out := [][]string{}
	if !g.phaseAllows(MoveCollect) {
		return out
	}
	up, locksUp := g.revealed()
	if g.takeAllowed(seat, true, 0, locksUp) {
		out = append(out, []string{TakeLocks})
	}
	if g.takeAllowed(seat, false, 0, locksUp) {
		out = append(out, []string{})
	}
	if g.takeAllowed(seat, false, 1, locksUp) {
		for k := Diamond; k < NumKinds; k++ {
			if up[k] && !k.IsLock() {
				out = append(out, []string{k.String()})
			}
		}
	}
	if g.takeAllowed(seat, false, 2, locksUp) {
		for a := Diamond; a < NumKinds; a++ {
			for b := a + 1; b < NumKinds; b++ {
				if up[a] && up[b] && !a.IsLock() && !b.IsLock() {
					out = append(out, []string{a.String(), b.String()})
				}
			}
		}
	}
	return out
}

// robOptions lists every theft seat may make now: in the rob phase, each
// card and diamond token of the opponents stealable (checkRob's rule) lets
// it take.
func (g *Game) robOptions(seat int) []RobOption {
	out := []RobOption{}
	if !g.phaseAllows(MoveRob) {
		return out
	}
	for v := range g.Players {
		ok, cards := g.stealable(seat, v)
		if !ok {
			continue
		}
		p := &g.Players[v]
		if cards {
			for _, c := range p.Cards {
				r := g.ref(c)
				out = append(out, RobOption{Target: v, Card: &r})
			}
		}
		for _, col := range p.DiamondTokens {
			out = append(out, RobOption{Target: v, DiamondToken: g.wonder(col)})
		}
	}
	return out
}

// tokenOptions lists the action tokens seat may use now (tokenUsable,
// checkToken's rule), a peek only while it has cards to look at.
func (g *Game) tokenOptions(seat int) []TokenOption {
	out := []TokenOption{}
	for _, t := range g.Players[seat].Actions {
		e := g.effect(t)
		if !g.tokenUsable(seat, e) {
			continue
		}
		o := TokenOption{Token: t + 1, Effect: e.String()}
		if e == PeekTwo || e == PeekThree {
			down := g.faceDown()
			if !g.canPeek(e, down) {
				continue // no face-down card, or (peek_two) all of one wonder
			}
			o.Cells = down
			if e == PeekTwo {
				o.Min, o.Max, o.DifferentWonders = 2, 2, true
			} else {
				o.Min, o.Max, o.SameWonder = 1, 3, true
			}
		}
		out = append(out, o)
	}
	return out
}

// claims lists the action tokens the seat on turn may take now (checkClaim's
// rule: canClaim, onOffer).
func (g *Game) claims() []int {
	out := []int{}
	if !g.phaseAllows(MoveClaim) || !g.canClaim() {
		return out
	}
	for t := range g.Actions {
		if g.onOffer(t) {
			out = append(out, t+1)
		}
	}
	return out
}

// AppendListingKey appends seat's listing key (domain.ListingKeyed): a seat
// not on turn (and the table, which never has a move of its own) lists
// nothing but the phase, so the moves of the seat on turn leave its key as
// it was while the phase stays; the seat on turn tells none (keyed by the
// game's version). The conformance suite holds equal keys to equal
// listings after every move.
func (g *Game) AppendListingKey(b []byte, seat int) []byte {
	if !g.onTurn(seat) {
		return append(append(b, "wait "...), g.Phase...)
	}
	return b
}
