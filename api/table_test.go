package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// The tests play Silver & Gold; everything Silver & Gold-specific about
// choosing moves lives in this file.

// gameJSON is the game object of the API with the Silver & Gold state.
type gameJSON struct {
	ID        string         `json:"id"`
	Ruleset   string         `json:"ruleset"`
	Mode      string         `json:"mode"`
	Version   int64          `json:"version"`
	Phase     string         `json:"phase"`
	Ended     bool           `json:"ended"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
	Options   map[string]any `json:"options"`
	// SeedCommitment, Seed and SeedSalt: a digital game's commitment, and
	// its seed and salt once it has ended.
	SeedCommitment string          `json:"seed_commitment"`
	Seed           string          `json:"seed"`
	SeedSalt       string          `json:"seed_salt"`
	State          silvergold.View `json:"state"`
}

type createdJSON struct {
	Game        gameJSON `json:"game"`
	Credentials struct {
		Host  string   `json:"host"`
		Seats []string `json:"seats"`
	} `json:"credentials"`
}

type playedJSON struct {
	Seq  int64    `json:"seq"`
	Game gameJSON `json:"game"`
}

type moveLogJSON struct {
	Moves []struct {
		Seq   int64 `json:"seq"`
		Actor struct {
			Host bool `json:"host"`
			Seat *int `json:"seat"`
		} `json:"actor"`
		Move silvergold.Move `json:"move"`
		At   time.Time       `json:"at"`
	} `json:"moves"`
}

// table is one game seen through the API, with every credential.
type table struct {
	s     *server
	id    string
	host  string
	seats []string
}

func players(n int) []map[string]string {
	names := []string{"Ann", "Ben", "Cat", "Dan"}
	out := make([]map[string]string, n)
	for i := range out {
		out[i] = map[string]string{"name": names[i]}
	}
	return out
}

// newTable creates a game over the API.
func newTable(t *testing.T, s *server, mode string, n int, seed string) *table {
	t.Helper()
	body := map[string]any{"ruleset": silvergold.RulesetName, "mode": mode, "players": players(n)}
	if seed != "" {
		body["seed"] = seed
	}
	r := s.Do(t, http.MethodPost, "/v1/games", body)
	wantStatus(t, r, http.StatusCreated)
	c := decode[createdJSON](t, r.Body)
	if got, want := r.Header.Get("Location"), "/v1/games/"+c.Game.ID; got != want {
		t.Errorf("Location %q, want %q", got, want)
	}
	if got := r.Header.Get("ETag"); got != `"0"` {
		t.Errorf("ETag %q, want \"0\"", got)
	}
	if c.Game.Version != 0 || len(c.Credentials.Seats) != n || c.Credentials.Host == "" {
		t.Fatalf("created %+v", c)
	}
	return &table{s: s, id: c.Game.ID, host: c.Credentials.Host, seats: c.Credentials.Seats}
}

func (tb *table) path(suffix string) string { return "/v1/games/" + tb.id + suffix }

// get reads the game with a credential ("" for none).
func (tb *table) get(t *testing.T, credential string) (gameJSON, resp) {
	t.Helper()
	var opts []opt
	if credential != "" {
		opts = append(opts, cred(credential))
	}
	r := tb.s.Do(t, http.MethodGet, tb.path(""), nil, opts...)
	wantStatus(t, r, http.StatusOK)
	g := decode[gameJSON](t, r.Body)
	if got, want := r.Header.Get("ETag"), strconv.Quote(strconv.FormatInt(g.Version, 10)); got != want {
		t.Errorf("ETag %s, want %s", got, want)
	}
	return g, r
}

// legal lists a seat's legal moves, asked with that seat's credential.
func (tb *table) legal(t *testing.T, seat int) silvergold.Legal {
	t.Helper()
	r := tb.s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.seats[seat]))
	wantStatus(t, r, http.StatusOK)
	return decode[silvergold.Legal](t, r.Body)
}

// play submits a move that must be accepted.
func (tb *table) play(t *testing.T, credential string, m silvergold.Move, opts ...opt) playedJSON {
	t.Helper()
	r := tb.s.Do(t, http.MethodPost, tb.path("/moves"), m, append(opts, cred(credential))...)
	if r.Status != http.StatusOK {
		mb, _ := json.Marshal(m)
		t.Fatalf("move %s: status %d: %s", mb, r.Status, r.Body)
	}
	p := decode[playedJSON](t, r.Body)
	if p.Seq != p.Game.Version {
		t.Errorf("seq %d but the game is at version %d", p.Seq, p.Game.Version)
	}
	if got, want := r.Header.Get("ETag"), strconv.Quote(strconv.FormatInt(p.Seq, 10)); got != want {
		t.Errorf("ETag %s, want %s", got, want)
	}
	// Sent whole, with its length, not in chunks (answers grow past 2 KB).
	if got, want := r.Header.Get("Content-Length"), strconv.Itoa(len(r.Body)); got != want {
		t.Errorf("Content-Length %q, want %s (the answer's %d bytes)", got, want, len(r.Body))
	}
	return p
}

// crossFor builds a crossing for seat from its legal moves and what the view
// shows of its cards: a placement of the pattern (one that covers a red cross
// when there is one, so that the chain of extra boxes is exercised), or a
// single box, plus one extra box for every red cross crossed.
func crossFor(seat int, l silvergold.Legal, v silvergold.View) silvergold.Move {
	var pick silvergold.Placement
	switch {
	case len(l.Placements) > 0:
		pick = l.Placements[0]
		for _, p := range l.Placements {
			if p.Crosses > 0 {
				pick = p
				break
			}
		}
	default:
		pick = l.Singles[0]
	}
	m := silvergold.Move{Type: silvergold.MoveCross, Seat: silvergold.SeatPtr(seat), Card: pick.Card, Boxes: pick.Boxes}
	m.Extra = extras(v.Players[seat].Cards, pick, pick.Crosses)
	return m
}

// extras picks owed boxes among the uncrossed boxes of cards, plain boxes
// first; a red cross picked demands one more.
func extras(cards []silvergold.CardView, pick silvergold.Placement, owed int) []silvergold.Extra {
	taken := map[string]bool{}
	for _, b := range pick.Boxes {
		taken[pick.Card+b.String()] = true
	}
	var plain, crosses []silvergold.Extra
	for _, c := range cards {
		crossed := map[silvergold.Pos]bool{}
		for _, b := range c.Crossed {
			crossed[b] = true
		}
		for r, row := range c.Grid {
			for col, sym := range row {
				b := silvergold.Pos{Row: r, Col: col}
				if sym == '.' || crossed[b] || taken[c.Card+b.String()] {
					continue
				}
				if sym == 'x' {
					crosses = append(crosses, silvergold.Extra{Card: c.Card, Box: b})
				} else {
					plain = append(plain, silvergold.Extra{Card: c.Card, Box: b})
				}
			}
		}
	}
	var out []silvergold.Extra
	for owed > 0 {
		switch {
		case len(plain) > 0:
			out, plain, owed = append(out, plain[0]), plain[1:], owed-1
		case len(crosses) > 0: // demands one more: owed stays
			out, crosses = append(out, crosses[0]), crosses[1:]
		default:
			return out // no box left: the rest of the debt lapses
		}
	}
	return out
}

// catalog returns the standard catalog as the API shows it.
func catalog(t *testing.T, s *server) silvergold.CatalogView {
	t.Helper()
	r := s.Do(t, http.MethodGet, "/v1/catalogs/standard?ruleset=silver-and-gold", nil)
	wantStatus(t, r, http.StatusOK)
	return decode[silvergold.CatalogView](t, r.Body)
}

// faceDown lists, for a physical game, the cards the view shows nowhere:
// those can be reported as drawn from the deck.
func faceDown(cat silvergold.CatalogView, v silvergold.View) []string {
	seen := map[string]bool{}
	for _, c := range v.Display {
		seen[c] = true
	}
	for _, p := range v.Players {
		for _, c := range p.Cards {
			seen[c.Card] = true
		}
		for _, c := range p.Pile {
			seen[c] = true
		}
	}
	var out []string
	for _, c := range cat.Cards {
		if !seen[c.ID] {
			out = append(out, c.ID)
		}
	}
	return out
}

// nextMove chooses a move for what the game awaits first: a seat's move,
// made with the seat's own credential (or the host's when asHost), or a
// table report (physical), made with the host credential. It returns the
// credential to send it with.
func (tb *table) nextMove(t *testing.T, v silvergold.View, cat silvergold.CatalogView, asHost bool) (string, silvergold.Move) {
	t.Helper()
	a := v.Awaiting[0]
	if a.Actor == domain.ActorHost {
		switch a.Action {
		case silvergold.MoveReveal:
			seen := map[string]int{}
			for _, r := range v.Revealed {
				seen[r]++
			}
			for _, e := range cat.Expeditions {
				if seen[e.Code] < e.Copies {
					return tb.host, silvergold.Move{Type: silvergold.MoveReveal, Expedition: e.Code}
				}
			}
			t.Fatalf("no expedition card left to reveal: %v", v.Revealed)
		case silvergold.MoveDisplay:
			return tb.host, silvergold.Move{Type: silvergold.MoveDisplay, Card: faceDown(cat, v)[0]}
		}
		t.Fatalf("unexpected table action %q", a.Action)
	}
	seat := *a.Seat
	credential := tb.seats[seat]
	var l silvergold.Legal
	if asHost {
		credential = tb.host
		r := tb.s.Do(t, http.MethodGet, tb.path(fmt.Sprintf("/legal-moves?seat=%d", seat)), nil, cred(tb.host))
		wantStatus(t, r, http.StatusOK)
		l = decode[silvergold.Legal](t, r.Body)
	} else {
		l = tb.legal(t, seat)
	}
	if l.Action != a.Action {
		t.Fatalf("the view awaits %s from seat %d, legal moves say %s", a.Action, seat, l.Action)
	}
	switch a.Action {
	case silvergold.MoveKeep:
		keep := l.Keep
		if v.Mode == silvergold.Physical { // any two cards nobody holds
			keep = faceDown(cat, v)
		}
		return credential, silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(seat), Cards: keep[:2]}
	case silvergold.MoveCross:
		return credential, crossFor(seat, l, v)
	case silvergold.MoveTake:
		m := silvergold.Move{Type: silvergold.MoveTake, Seat: silvergold.SeatPtr(seat), From: silvergold.FromDeck}
		if len(l.TakeFrom) > 0 {
			m.From, m.Card = silvergold.FromDisplay, l.TakeFrom[0]
		} else if v.Mode == silvergold.Physical {
			m.Card = faceDown(cat, v)[0]
		}
		return credential, m
	}
	t.Fatalf("unexpected action %q", a.Action)
	return "", silvergold.Move{}
}

// playToEnd plays the game to its end over the API, choosing each move from
// what the host's view awaits. after, when set, sees every accepted move.
// It returns the number of moves played.
func (tb *table) playToEnd(t *testing.T, asHost bool, after func(m silvergold.Move, p playedJSON)) int {
	t.Helper()
	cat := catalog(t, tb.s)
	n := 0
	for ; n < 2000; n++ {
		g, _ := tb.get(t, tb.host)
		if g.Ended {
			return n
		}
		if g.Version != int64(n) {
			t.Fatalf("version %d after %d moves", g.Version, n)
		}
		credential, m := tb.nextMove(t, g.State, cat, asHost)
		p := tb.play(t, credential, m)
		if p.Seq != int64(n+1) {
			t.Fatalf("move %d got seq %d", n+1, p.Seq)
		}
		if after != nil {
			after(m, p)
		}
	}
	t.Fatal("the game did not end after 2000 moves")
	return n
}

// actorOf is who a credential of tb stands for.
func actorOf(tb *table, credential string) domain.Actor {
	for i, c := range tb.seats {
		if c == credential {
			return domain.Actor{Seat: i}
		}
	}
	return domain.Actor{Host: true}
}

// viewerOf is how a credential of tb sees the game.
func viewerOf(tb *table, credential string) domain.Viewer {
	a := actorOf(tb, credential)
	return domain.ViewerOf(&a)
}

// TestGameAnswersNotStored: a game answer is made for the credential that
// asked and its ETag names the version alike for every viewer, so no cache
// may keep it: a browser that kept a seat's answer would revalidate it for
// the host (If-None-Match, 304) and show the host that seat's hand.
func TestGameAnswersNotStored(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "")
	for _, c := range []struct{ who, cred string }{{"seat 0", tb.seats[0]}, {"host", tb.host}, {"no credential", ""}} {
		for _, path := range []string{"/v1/games/" + tb.id, "/v1/games/" + tb.id + "/legal-moves"} {
			r := s.Do(t, http.MethodGet, path, nil, cred(c.cred))
			if r.Status != http.StatusOK {
				continue // the public has no listing
			}
			if got := r.Header.Get("Cache-Control"); got != "no-store" {
				t.Errorf("%s GET %s: Cache-Control %q, want no-store", c.who, path, got)
			}
		}
	}
}
