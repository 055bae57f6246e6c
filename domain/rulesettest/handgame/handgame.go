// Package handgame is a small card game with hidden hands that the tests play
// to prove that nothing in the platform is shaped after Silver & Gold: the
// service, the disclosure gate, records and the conformance suite must carry
// a game whose secrets stay secret during play.
//
// The rules: a deck of cards c01 to c20, worth their number. Every seat is
// dealt a hand (option hand_size, 3 by default) that only it sees. In turn,
// from the start player (option start_player), a seat plays one card face up
// and draws the top card of the deck while there is one. When every hand is
// empty the game ends; a seat scores the cards it played. In a physical game
// the server sees no hand: a seat reports the card it played, which must be
// one not played yet, and the server counts the cards in each hand.
package handgame

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/names"
)

// Name is the ruleset's name.
const Name = "hidden-hand-test-game"

// Cards is the size of the deck.
const Cards = 20

// Rules is the game as a domain.Ruleset.
type Rules struct{}

var _ domain.Ruleset = Rules{}

// Name returns the ruleset's name.
func (Rules) Name() string { return Name }

func intp(i int) *int { return &i }

var options = []domain.Option{
	domain.Option{Name: "hand_size", Type: "integer", Default: json.RawMessage(`3`), Minimum: intp(1), Maximum: intp(5)}.Described(i18n.M("hand.option.hand-size")),
	domain.Option{Name: "start_player", Type: "integer", Default: json.RawMessage(`0`), Seat: true}.Described(i18n.M("hand.option.start-player")),
}

// Info describes the game.
func (Rules) Info() domain.RulesetInfo {
	return domain.RulesetInfo{Name: Name, Title: "Hidden hand (test game)",
		MinPlayers: 2, MaxPlayers: 4, Modes: []string{domain.Digital, domain.Physical}, Options: options}.Summarized(i18n.M("hand.info.summary"))
}

// Game is the whole state.
type Game struct {
	Setup_   domain.CreateRequest `json:"setup"`
	HandSize int                  `json:"hand_size"`
	Turn     int                  `json:"turn"` // the seat to play
	Deck     []string             `json:"deck"` // digital: face down, top first
	Hands    [][]string           `json:"hands"`
	Counts   []int                `json:"counts"` // cards in each hand
	Drawn    int                  `json:"drawn"`  // cards drawn after the deal
	Played   []Play               `json:"played"`
	events   []domain.Event
}

// Play is a card played face up.
type Play struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// Move is the only move: a seat plays a card.
type Move struct {
	Type string `json:"type"`
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

func cardID(i int) string { return fmt.Sprintf("c%02d", i) }

func value(card string) int {
	var n int
	fmt.Sscanf(card, "c%d", &n)
	return n
}

// deck is the game's catalog: its content says what the cards are.
var deck = domain.CatalogBlob{Name: "deck", Hash: domain.ContentHash([]byte(deckContent)), Content: []byte(deckContent)}

const deckContent = "c01 to c20, each worth its number\n"

// Create deals a new game.
func (Rules) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	g, err := newGame(req)
	return g, deck, err
}

func newGame(req domain.CreateRequest) (*Game, error) {
	n := len(req.Players)
	if n < 2 || n > 4 {
		return nil, domain.Fail(domain.Invalid, "hand.invalid.players", "named", n)
	}
	if err := names.Check(req.Players); err != nil {
		return nil, err
	}
	opts, err := domain.ResolveOptions(options, req.Options, n)
	if err != nil {
		return nil, err
	}
	var o struct {
		HandSize    int `json:"hand_size"`
		StartPlayer int `json:"start_player"`
	}
	_ = json.Unmarshal(opts, &o) // ResolveOptions checked them
	req.Options = opts
	g := &Game{Setup_: req, HandSize: o.HandSize, Turn: o.StartPlayer, Deck: []string{}, Played: []Play{},
		Hands: make([][]string, n), Counts: make([]int, n)}
	for i := range g.Counts {
		g.Counts[i] = o.HandSize
		g.Hands[i] = []string{}
	}
	if req.Mode == domain.Digital {
		for i := 1; i <= Cards; i++ {
			g.Deck = append(g.Deck, cardID(i))
		}
		key := sha256.Sum256([]byte(req.Seed))
		rand.New(rand.NewChaCha8(key)).Shuffle(len(g.Deck), func(i, j int) { g.Deck[i], g.Deck[j] = g.Deck[j], g.Deck[i] })
		for i := range g.Hands {
			g.Hands[i] = append(g.Hands[i], g.Deck[:o.HandSize]...)
			g.Deck = g.Deck[o.HandSize:]
		}
	}
	return g, nil
}

// Restore decodes a snapshot.
func (Rules) Restore(state []byte, _ domain.CatalogBlob) (domain.Game, error) {
	g := &Game{}
	if err := json.Unmarshal(state, g); err != nil {
		return nil, err
	}
	return g, nil
}

// Replay plays moves from the start.
func (r Rules) Replay(req domain.CreateRequest, _ domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	g, err := newGame(req)
	if err != nil {
		return nil, 0, err
	}
	for i, m := range moves {
		if _, err := g.Apply(m.Actor, m.Move); err != nil {
			return g, i + 1, err
		}
	}
	return g, 0, nil
}

func (g *Game) deckLeft() int {
	return Cards - len(g.Counts)*g.HandSize - g.Drawn
}

// Apply plays a card.
func (g *Game) Apply(actor domain.Actor, raw []byte) (domain.Logged, error) {
	g.events = nil
	var m Move
	if err := json.Unmarshal(raw, &m); err != nil || m.Type != "play" {
		return domain.Logged{}, domain.Fail(domain.Invalid, "hand.invalid.move", "example", `{"type":"play","seat":n,"card":"cNN"}`)
	}
	switch {
	case g.Ended():
		return domain.Logged{}, domain.Refuse("ended", "hand.refuse.ended")
	case actor.Host:
		return domain.Logged{}, domain.Fail(domain.Forbidden, "hand.forbidden.host")
	case actor.Seat != m.Seat:
		return domain.Logged{}, gamekit.CheckSeat(actor, m.Seat, len(g.Counts))
	case m.Seat != g.Turn:
		return domain.Logged{}, domain.Refuse("turn", "hand.refuse.turn", "seat", g.Turn)
	}
	if g.Setup_.Mode == domain.Digital {
		i := slices.Index(g.Hands[m.Seat], m.Card)
		if i < 0 {
			return domain.Logged{}, domain.Refuse("in-hand", "hand.refuse.in-hand", "card", m.Card)
		}
		g.Hands[m.Seat] = slices.Delete(g.Hands[m.Seat], i, i+1)
	} else {
		if v := value(m.Card); v < 1 || v > Cards || cardID(v) != m.Card {
			return domain.Logged{}, domain.Fail(domain.Invalid, "hand.invalid.card", "card", strconv.Quote(m.Card), "last", cardID(Cards))
		}
		if slices.ContainsFunc(g.Played, func(p Play) bool { return p.Card == m.Card }) {
			return domain.Logged{}, domain.Refuse("played-once", "hand.refuse.played-once", "card", m.Card)
		}
	}
	g.Counts[m.Seat]--
	g.Played = append(g.Played, Play{Seat: m.Seat, Card: m.Card})
	g.emit("card_played", nil, Play{Seat: m.Seat, Card: m.Card})
	if g.deckLeft() > 0 {
		g.Drawn++
		g.Counts[m.Seat]++
		if g.Setup_.Mode == domain.Digital {
			card := g.Deck[0]
			g.Deck = g.Deck[1:]
			g.Hands[m.Seat] = append(g.Hands[m.Seat], card)
			g.emit("card_drawn", &m.Seat, map[string]any{"seat": m.Seat, "card": card})
		}
		g.emit("seat_drew", nil, map[string]int{"seat": m.Seat, "deck_size": g.deckLeft()})
	}
	for k := 1; k <= len(g.Counts) && !g.Ended(); k++ {
		if next := (m.Seat + k) % len(g.Counts); g.Counts[next] > 0 {
			g.Turn = next
			break
		}
	}
	if g.Ended() {
		g.Turn = -1
	}
	move, _ := json.Marshal(m)
	return domain.Logged{Move: move}, nil
}

func (g *Game) emit(typ string, seat *int, data any) {
	b, _ := json.Marshal(data)
	e := domain.Event{Type: typ, Data: b}
	if seat != nil {
		s := *seat
		e.For, e.NotHost = &s, true
	}
	g.events = append(g.events, e)
}

// Snapshot encodes the whole state.
func (g *Game) Snapshot() ([]byte, error) { return json.Marshal(g) }

// Phase is "playing" or "ended".
func (g *Game) Phase() string {
	if g.Ended() {
		return "ended"
	}
	return "playing"
}

// Ended reports whether every hand is empty.
func (g *Game) Ended() bool {
	for _, c := range g.Counts {
		if c > 0 {
			return false
		}
	}
	return true
}

// Players is the number of seats.
func (g *Game) Players() int { return len(g.Counts) }

type playerView struct {
	Seat     int      `json:"seat"`
	Name     string   `json:"name"`
	HandSize int      `json:"hand_size"`
	Hand     []string `json:"hand,omitempty"`
	Score    int      `json:"score"`
}

// AppendView shows the table, and a seat its own hand (the host sees none).
func (g *Game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	view := struct {
		Ruleset  string       `json:"ruleset"`
		Turn     int          `json:"turn"`
		DeckSize int          `json:"deck_size"`
		Played   []Play       `json:"played"`
		Players  []playerView `json:"players"`
	}{Ruleset: Name, Turn: g.Turn, DeckSize: g.deckLeft(), Played: g.Played}
	for i, name := range g.Setup_.Players {
		p := playerView{Seat: i, Name: name, HandSize: g.Counts[i], Score: g.score(i)}
		if (!v.Host && v.Seat == i) || g.Ended() {
			p.Hand = g.Hands[i]
		}
		view.Players = append(view.Players, p)
	}
	out, err := json.Marshal(view)
	return append(b, out...), err
}

func (g *Game) score(seat int) int {
	n := 0
	for _, p := range g.Played {
		if p.Seat == seat {
			n += value(p.Card)
		}
	}
	return n
}

// Legal is what a seat may do: play one of Cards.
type Legal struct {
	Ruleset string   `json:"ruleset"`
	Seat    int      `json:"seat"`
	Action  string   `json:"action"` // "play" or "wait"
	Cards   []string `json:"cards"`  // the cards it may play, as the viewer may know them
	// Moves are the same in the table language: one move per card.
	Moves []domain.LegalMove `json:"moves"`
	Pools domain.Pools       `json:"pools"`
}

// LegalMoves lists the cards seat may play: its hand (digital; shown to that
// seat only), or every card not played yet (physical).
func (g *Game) LegalMoves(v domain.Viewer, seat int) ([]byte, error) {
	l := Legal{Ruleset: Name, Seat: seat, Action: "wait", Cards: []string{}, Moves: []domain.LegalMove{}, Pools: domain.Pools{}}
	if seat >= 0 && seat == g.Turn && !g.Ended() {
		l.Action = "play"
		switch {
		case g.Setup_.Mode == domain.Physical:
			for i := 1; i <= Cards; i++ {
				if !slices.ContainsFunc(g.Played, func(p Play) bool { return p.Card == cardID(i) }) {
					l.Cards = append(l.Cards, cardID(i))
				}
			}
		case !v.Host && v.Seat == seat:
			l.Cards = slices.Sorted(slices.Values(g.Hands[seat]))
		}
	}
	for _, c := range l.Cards {
		l.Moves = append(l.Moves, domain.Entry(Move{Type: "play", Seat: seat, Card: c}, i18n.M("hand.label.play", "card", c)))
	}
	return json.Marshal(l)
}

// Table tells whose turn it is: the seat to play.
func (g *Game) Table() domain.TableStatus {
	st := domain.TableStatus{Awaiting: []domain.Await{}, TurnNumber: len(g.Played)}
	if !g.Ended() {
		st.TurnNumber++
		turn := g.Turn
		st.OnTurn = &turn
		st.Awaiting = append(st.Awaiting, domain.SeatAwait(g.Turn, "play", 1))
	}
	return st
}

// Score lists what each seat played, and the ranking.
func (g *Game) Score() ([]byte, error) {
	type line struct {
		Seat  int    `json:"seat"`
		Name  string `json:"name"`
		Total int    `json:"total"`
	}
	out := struct {
		Ruleset string `json:"ruleset"`
		Final   bool   `json:"final"`
		Players []line `json:"players"`
	}{Ruleset: Name, Final: g.Ended()}
	for i, name := range g.Setup_.Players {
		out.Players = append(out.Players, line{Seat: i, Name: strings.TrimSpace(name), Total: g.score(i)})
	}
	return json.Marshal(out)
}

// Setup returns what the game was created from, options filled in.
func (g *Game) Setup() domain.CreateRequest { return g.Setup_ }

// Events returns what the last move caused.
func (g *Game) Events() []domain.Event { return g.events }
