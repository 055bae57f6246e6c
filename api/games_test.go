package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestDigitalGame plays a whole seeded digital game for 4 players over HTTP,
// each seat with its own credential, to the final score.
func TestDigitalGame(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 4, "digital-game-seed")

	extras := 0
	moves := tb.playToEnd(t, false, func(m silvergold.Move, p playedJSON) {
		extras += len(m.Extra)
		for i, pl := range p.Game.State.Players {
			if i != *m.Seat && len(pl.Dealt) > 0 {
				t.Errorf("seat %d's answer shows the cards dealt to seat %d", *m.Seat, i)
			}
		}
	})
	if extras == 0 {
		t.Error("no crossing needed extra boxes; the red-cross chain went untested")
	}

	g, _ := tb.get(t, "")
	if !g.Ended || g.Phase != "ended" || g.Version != int64(moves) {
		t.Fatalf("after %d moves: ended %v phase %s version %d", moves, g.Ended, g.Phase, g.Version)
	}
	if g.Seed != "digital-game-seed" || g.SeedSalt == "" || domain.SeedCommitment(g.Seed, g.SeedSalt) != g.SeedCommitment {
		t.Errorf("the ended game shows seed %q, salt %q, commitment %q", g.Seed, g.SeedSalt, g.SeedCommitment)
	}
	r := s.Do(t, http.MethodGet, tb.path("/score"), nil)
	wantStatus(t, r, http.StatusOK)
	sc := decode[silvergold.Score](t, r.Body)
	if !sc.Final || len(sc.Players) != 4 || len(sc.Ranking) != 4 {
		t.Fatalf("score %+v", sc)
	}
	best := 0
	for _, p := range sc.Players {
		if p.Total != p.Lines.Sum() {
			t.Errorf("seat %d: total %d, lines add up to %d", p.Seat, p.Total, p.Lines.Sum())
		}
		best = max(best, p.Total)
	}
	if sc.Ranking[0].Rank != 1 || sc.Ranking[0].Total != best {
		t.Errorf("ranking %+v, best total %d", sc.Ranking, best)
	}
	if best == 0 {
		t.Error("nobody scored a point in a whole game")
	}

	r = s.Do(t, http.MethodGet, tb.path("/moves"), nil)
	wantStatus(t, r, http.StatusOK)
	log := decode[moveLogJSON](t, r.Body)
	if len(log.Moves) != moves {
		t.Fatalf("the log has %d moves, %d were played", len(log.Moves), moves)
	}
	for i, m := range log.Moves {
		if m.Seq != int64(i+1) || m.Actor.Host || m.Actor.Seat == nil || *m.Actor.Seat != *m.Move.Seat {
			t.Fatalf("log entry %d: %+v", i, m)
		}
	}

	// The game is over: any further move is refused and changes nothing.
	r = s.Do(t, http.MethodPost, tb.path("/moves"), silvergold.Move{Type: "take", Seat: silvergold.SeatPtr(0), From: "deck"}, cred(tb.seats[0]))
	if p := wantProblem(t, r, http.StatusUnprocessableEntity, "illegal_move"); p.Rule != "game-ended" {
		t.Errorf("rule %q, want game-ended", p.Rule)
	}
}

// TestPhysicalGame plays a whole physical game: the host credential reports
// the expedition cards, the display and the deck draws, and acts for every
// seat.
func TestPhysicalGame(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "physical", 4, "")

	reports := map[string]int{}
	moves := tb.playToEnd(t, true, func(m silvergold.Move, p playedJSON) {
		reports[m.Type]++
		if m.Type == silvergold.MoveTake && m.From == silvergold.FromDeck {
			reports["deck draw"]++
		}
	})
	if reports[silvergold.MoveReveal] != silvergold.Rounds*silvergold.TurnsPerRound {
		t.Errorf("%d expedition cards reported, want %d", reports[silvergold.MoveReveal], silvergold.Rounds*silvergold.TurnsPerRound)
	}
	if reports[silvergold.MoveDisplay] < silvergold.DisplaySize || reports[silvergold.MoveKeep] != 4 {
		t.Errorf("reports %v", reports)
	}

	g, _ := tb.get(t, "")
	if !g.Ended || g.Version != int64(moves) || g.Seed != "" || g.SeedCommitment != "" || g.SeedSalt != "" {
		t.Fatalf("physical game after %d moves: %+v", moves, g)
	}
	r := s.Do(t, http.MethodGet, tb.path("/score"), nil)
	wantStatus(t, r, http.StatusOK)
	if sc := decode[silvergold.Score](t, r.Body); !sc.Final || len(sc.Ranking) != 4 {
		t.Fatalf("score %+v", sc)
	}
	r = s.Do(t, http.MethodGet, tb.path("/moves?limit=1000"), nil)
	for _, m := range decode[moveLogJSON](t, r.Body).Moves {
		if !m.Actor.Host || m.Actor.Seat != nil {
			t.Fatalf("move %d logged as made by %+v, not the host", m.Seq, m.Actor)
		}
	}
}

// TestConcurrentCrossing has the 4 seats of a game cross in the same turn at
// the same instant, turn after turn, for 100 turns (over as many games as
// that takes): every crossing is applied, the versions handed out are
// distinct and increase, and no request fails.
func TestConcurrentCrossing(t *testing.T) {
	const turns = 100
	s := newServer(t)
	cat := catalog(t, s)
	played := 0
	for game := 0; played < turns; game++ {
		tb := newTable(t, s, "digital", 4, fmt.Sprintf("concurrent-%d", game))
		var seqs []int64
		for played < turns {
			g, _ := tb.get(t, tb.host)
			if g.Ended {
				break
			}
			aw := g.State.Awaiting
			if len(aw) == 0 || (aw[0].Action != silvergold.MoveCross && aw[0].Action != silvergold.MoveKeep) {
				credential, m := tb.nextMove(t, g.State, cat, false) // take, one seat at a time
				seqs = append(seqs, tb.play(t, credential, m).Seq)
				continue
			}
			// Every seat asked to keep or cross chooses first, then all send at once.
			type sent struct {
				credential string
				move       silvergold.Move
			}
			var batch []sent
			for _, a := range aw {
				seat := *a.Seat
				l := tb.legal(t, seat)
				m := silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(seat)}
				if a.Action == silvergold.MoveKeep {
					m.Cards = l.Keep[:2]
				} else {
					m = crossFor(seat, l, g.State)
				}
				batch = append(batch, sent{tb.seats[seat], m})
			}
			start := make(chan struct{})
			answers := make([]resp, len(batch))
			var wg sync.WaitGroup
			for i, b := range batch {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					answers[i] = s.Do(t, http.MethodPost, tb.path("/moves"), b.move, cred(b.credential))
				}()
			}
			close(start)
			wg.Wait()
			for i, r := range answers {
				if r.Status != http.StatusOK {
					t.Fatalf("seat %d: %d %s", *batch[i].move.Seat, r.Status, r.Body)
				}
				p := decode[playedJSON](t, r.Body)
				if p.Seq != p.Game.Version || r.Header.Get("ETag") != strconv.Quote(strconv.FormatInt(p.Seq, 10)) {
					t.Errorf("seq %d, game version %d, ETag %s", p.Seq, p.Game.Version, r.Header.Get("ETag"))
				}
				seqs = append(seqs, p.Seq)
			}
			if aw[0].Action == silvergold.MoveCross {
				played++
			}
		}
		slices.Sort(seqs)
		for i, q := range seqs {
			if q != int64(i+1) {
				t.Fatalf("game %d: the %d-th accepted move got seq %d; seqs %v", game, i+1, q, seqs)
			}
		}
		g, _ := tb.get(t, "")
		if g.Version != int64(len(seqs)) {
			t.Fatalf("game %d at version %d after %d accepted moves", game, g.Version, len(seqs))
		}
	}
}

// setupTable creates a 2-seat digital game and has both seats keep, so that
// it waits for both to cross.
func setupTable(t *testing.T, s *server) (*table, gameJSON) {
	t.Helper()
	tb := newTable(t, s, "digital", 2, "setup-seed")
	for seat := range 2 {
		l := tb.legal(t, seat)
		tb.play(t, tb.seats[seat], silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(seat), Cards: l.Keep[:2]})
	}
	g, _ := tb.get(t, tb.host)
	if g.Phase != "crossing" {
		t.Fatalf("phase %s after setup", g.Phase)
	}
	return tb, g
}

func TestIdempotencyKey(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "idem-seed")
	l := tb.legal(t, 0)
	keep := silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(0), Cards: l.Keep[:2]}
	post := func(m silvergold.Move, credential, key string) resp {
		return s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(credential), header("Idempotency-Key", key))
	}

	first := post(keep, tb.seats[0], "key-1")
	wantStatus(t, first, http.StatusOK)
	if got := first.Header.Get("Idempotency-Replayed"); got != "false" {
		t.Errorf("first answer: Idempotency-Replayed %q", got)
	}

	t.Run("retry returns the first answer and applies nothing", func(t *testing.T) {
		again := post(keep, tb.seats[0], "key-1")
		wantStatus(t, again, http.StatusOK)
		if !bytes.Equal(again.Body, first.Body) {
			t.Errorf("replayed body differs:\n%s\n%s", first.Body, again.Body)
		}
		if again.Header.Get("Idempotency-Replayed") != "true" || again.Header.Get("ETag") != `"1"` {
			t.Errorf("replay headers %v", again.Header)
		}
		if g, _ := tb.get(t, ""); g.Version != 1 {
			t.Errorf("version %d after a replay, want 1", g.Version)
		}
	})
	t.Run("a retry serialised differently is the same move", func(t *testing.T) {
		// Other key order, whitespace and escapes: what another JSON library,
		// or the same client after a restart, may send.
		body := fmt.Sprintf("{\n  \"cards\": [%q, %q],\n  \"seat\": 0,\n  \"type\": \"ke\\u0065p\"\n}", l.Keep[0], l.Keep[1])
		again := s.Do(t, http.MethodPost, tb.path("/moves"), body, cred(tb.seats[0]), header("Idempotency-Key", "key-1"))
		wantStatus(t, again, http.StatusOK)
		if !bytes.Equal(again.Body, first.Body) || again.Header.Get("Idempotency-Replayed") != "true" {
			t.Errorf("a re-serialised retry was not given the first answer: %v\n%s", again.Header, again.Body)
		}
	})
	t.Run("same key for another move", func(t *testing.T) {
		other := keep
		other.Cards = l.Keep[2:4]
		before, _ := tb.get(t, tb.host)
		wantProblem(t, post(other, tb.seats[0], "key-1"), http.StatusUnprocessableEntity, "idempotency_key_reused")
		if after, _ := tb.get(t, tb.host); after.Version != before.Version {
			t.Errorf("version %d -> %d", before.Version, after.Version)
		}
	})
	t.Run("keys belong to the credential that used them", func(t *testing.T) {
		l1 := tb.legal(t, 1)
		r := post(silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(1), Cards: l1.Keep[:2]}, tb.seats[1], "key-1")
		wantStatus(t, r, http.StatusOK)
		if r.Header.Get("Idempotency-Replayed") != "false" || decode[playedJSON](t, r.Body).Seq != 2 {
			t.Errorf("seat 1's first use of key-1: %v %s", r.Header, r.Body)
		}
		// The game has moved on; seat 0's retry is still its first move's
		// answer, with the game as it stands now (as a read gives it).
		again := post(keep, tb.seats[0], "key-1")
		if p := decode[playedJSON](t, again.Body); p.Seq != 1 || p.Game.Version != 2 || again.Header.Get("Idempotency-Replayed") != "true" {
			t.Errorf("retry after the game moved on:\n%s\n%s", first.Body, again.Body)
		}
	})
	t.Run("a refused move is not remembered", func(t *testing.T) {
		bad := silvergold.Move{Type: "take", Seat: silvergold.SeatPtr(0), From: "deck"}
		wantProblem(t, post(bad, tb.seats[0], "key-2"), http.StatusUnprocessableEntity, "illegal_move")
		g, _ := tb.get(t, tb.seats[0])
		l := tb.legal(t, 0)
		cross := crossFor(0, l, g.State)
		wantStatus(t, post(cross, tb.seats[0], "key-2"), http.StatusOK)
	})
}

func TestIfMatch(t *testing.T) {
	s := newServer(t)
	tb, g := setupTable(t, s) // version 2
	l := tb.legal(t, 0)
	cross := crossFor(0, l, g.State)
	post := func(ifMatch string) resp {
		return s.Do(t, http.MethodPost, tb.path("/moves"), cross, cred(tb.seats[0]), header("If-Match", ifMatch))
	}

	t.Run("stale", func(t *testing.T) {
		wantProblem(t, post(`"1"`), http.StatusPreconditionFailed, "precondition_failed")
		if after, _ := tb.get(t, ""); after.Version != 2 {
			t.Errorf("version %d after a stale If-Match", after.Version)
		}
	})
	t.Run("fresh", func(t *testing.T) {
		r := post(`"2"`)
		wantStatus(t, r, http.StatusOK)
		if r.Header.Get("ETag") != `"3"` {
			t.Errorf("ETag %q, want \"3\"", r.Header.Get("ETag"))
		}
	})
	t.Run("any", func(t *testing.T) {
		wantStatus(t, post(`*`), http.StatusOK) // seat 0 replaces its crossing
	})
	t.Run("not an ETag", func(t *testing.T) {
		wantProblem(t, post(`version 3`), http.StatusBadRequest, "validation_failed")
	})
}

func TestCredentials(t *testing.T) {
	s := newServer(t)
	tb, g := setupTable(t, s)
	cross0 := crossFor(0, tb.legal(t, 0), g.State)
	moves := tb.path("/moves")

	t.Run("no credential", func(t *testing.T) {
		r := s.Do(t, http.MethodPost, moves, cross0)
		wantProblem(t, r, http.StatusUnauthorized, "unauthorized")
		if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("WWW-Authenticate %q", r.Header.Get("WWW-Authenticate"))
		}
		wantProblem(t, s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil), http.StatusUnauthorized, "unauthorized")
	})
	t.Run("unknown credential", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, moves, cross0, cred("not-a-credential")), http.StatusUnauthorized, "unauthorized")
		wantProblem(t, s.Do(t, http.MethodGet, tb.path(""), nil, cred("not-a-credential")), http.StatusUnauthorized, "unauthorized")
	})
	t.Run("not a bearer credential", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, moves, cross0, header("Authorization", "Basic "+tb.seats[0])), http.StatusUnauthorized, "unauthorized")
	})
	t.Run("another game's credential", func(t *testing.T) {
		other := newTable(t, s, "digital", 2, "")
		wantProblem(t, s.Do(t, http.MethodPost, moves, cross0, cred(other.host)), http.StatusUnauthorized, "unauthorized")
	})
	t.Run("another seat's credential", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, moves, cross0, cred(tb.seats[1])), http.StatusForbidden, "forbidden")
		wantProblem(t, s.Do(t, http.MethodGet, tb.path("/legal-moves?seat=0"), nil, cred(tb.seats[1])), http.StatusForbidden, "forbidden")
	})
	t.Run("a seat may not report for the table", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, moves, silvergold.Move{Type: "reveal", Expedition: "T4"}, cred(tb.seats[0])), http.StatusForbidden, "forbidden")
	})
	t.Run("host acts for a seat", func(t *testing.T) {
		p := tb.play(t, tb.host, cross0)
		if !p.Game.State.Players[0].CrossedThisTurn {
			t.Error("the host's crossing for seat 0 did not happen")
		}
		r := s.Do(t, http.MethodGet, tb.path("/moves?after=2"), nil)
		log := decode[moveLogJSON](t, r.Body)
		if len(log.Moves) != 1 || !log.Moves[0].Actor.Host || log.Moves[0].Actor.Seat != nil {
			t.Errorf("log %+v", log)
		}
	})
	t.Run("host names the seat of legal moves, or none for the table's", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.host))
		wantStatus(t, r, http.StatusOK)
		if l := decode[silvergold.Legal](t, r.Body); l.Seat != -1 || l.Action != "wait" {
			t.Errorf("the table's legal moves in a digital game: %+v", l)
		}
		r = s.Do(t, http.MethodGet, tb.path("/legal-moves?seat=1"), nil, cred(tb.host))
		wantStatus(t, r, http.StatusOK)
		if l := decode[silvergold.Legal](t, r.Body); l.Seat != 1 || l.Action != "cross" {
			t.Errorf("legal %+v", l)
		}
	})
	t.Run("views", func(t *testing.T) {
		tb := newTable(t, s, "digital", 2, "")
		for _, c := range []struct {
			name     string
			cred     string
			seesDeal []bool
		}{
			{"public", "", []bool{false, false}},
			{"seat 0", tb.seats[0], []bool{true, false}},
			{"seat 1", tb.seats[1], []bool{false, true}},
			{"host", tb.host, []bool{true, true}},
		} {
			g, _ := tb.get(t, c.cred)
			for seat, want := range c.seesDeal {
				if got := len(g.State.Players[seat].Dealt) == silvergold.DealtCards; got != want {
					t.Errorf("%s sees seat %d's deal: %v, want %v", c.name, seat, got, want)
				}
			}
		}
	})
}

// TestBadInput sends every kind of bad request and checks the documented
// status and code, and that the stored game did not change at all.
func TestBadInput(t *testing.T) {
	s := newServer(t)
	tb, g := setupTable(t, s)
	seat0 := g.State.Players[0]
	card := seat0.Cards[0]
	// A box inside the 4×4 bounds that is not a box of this card.
	var offCard silvergold.Pos
	func() {
		for r := 0; r < silvergold.MaxRows; r++ {
			for c := 0; c < silvergold.MaxCols; c++ {
				if r >= len(card.Grid) || c >= len(card.Grid[r]) || card.Grid[r][c] == '.' {
					offCard = silvergold.Pos{Row: r, Col: c}
					return
				}
			}
		}
		t.Fatalf("card %s fills the whole grid", card.Card)
	}()
	var notMine string
	for _, c := range g.State.Players[1].Cards {
		notMine = c.Card
	}
	box := func(p silvergold.Pos) string { return fmt.Sprintf("[%d,%d]", p.Row, p.Col) }

	for _, c := range []struct {
		name   string
		body   string
		opts   []opt
		status int
		code   string
		rule   string
	}{
		{name: "malformed JSON", body: `{"type":"cross","seat":0,`, status: 400, code: "malformed_json"},
		{name: "trailing data", body: `{"type":"keep","seat":0,"cards":["a","b"]} {}`, status: 400, code: "malformed_json"},
		{name: "empty body", body: ``, status: 400, code: "validation_failed"},
		{name: "not an object", body: `[1,2]`, status: 400, code: "validation_failed"},
		{name: "unknown field", body: `{"type":"cross","seat":0,"card":"` + card.Card + `","boxes":[[0,0]],"colour":"red"}`, status: 400, code: "validation_failed"},
		{name: "unknown move type", body: `{"type":"jump","seat":0}`, status: 400, code: "validation_failed"},
		{name: "no move type", body: `{"seat":0,"card":"` + card.Card + `"}`, status: 400, code: "validation_failed"},
		{name: "seat is a string", body: `{"type":"cross","seat":"0","card":"` + card.Card + `","boxes":[[0,0]]}`, status: 400, code: "validation_failed"},
		{name: "box is not a pair", body: `{"type":"cross","seat":0,"card":"` + card.Card + `","boxes":[[0]]}`, status: 400, code: "validation_failed"},
		{name: "box outside every grid", body: `{"type":"cross","seat":0,"card":"` + card.Card + `","boxes":[[0,9]]}`, status: 400, code: "validation_failed"},
		{name: "missing seat", body: `{"type":"cross","card":"` + card.Card + `","boxes":[[0,0]]}`, status: 400, code: "validation_failed"},
		{name: "seat that does not exist", body: `{"type":"cross","seat":5,"card":"` + card.Card + `","boxes":[[0,0]]}`, opts: []opt{cred(tb.host)}, status: 400, code: "invalid"},
		{name: "box off the card", body: `{"type":"cross","seat":0,"card":"` + card.Card + `","boxes":[` + box(offCard) + `]}`, status: 422, code: "illegal_move", rule: "box-on-card"},
		{name: "unknown card", body: `{"type":"cross","seat":0,"card":"gold-99","boxes":[[0,0]]}`, status: 400, code: "invalid"},
		{name: "another player's card", body: `{"type":"cross","seat":0,"card":"` + notMine + `","boxes":[[0,0]]}`, status: 422, code: "illegal_move", rule: "own-card"},
		{name: "pattern of the wrong shape", body: `{"type":"cross","seat":0,"card":"` + card.Card + `","boxes":[[0,0],[2,2]]}`, status: 422, code: "illegal_move", rule: "pattern-shape"},
		{name: "keep in the wrong phase", body: `{"type":"keep","seat":0,"cards":["` + seat0.Cards[0].Card + `","` + seat0.Cards[1].Card + `"]}`, status: 422, code: "illegal_move", rule: "keep-in-setup"},
		{name: "take in the wrong phase", body: `{"type":"take","seat":0,"from":"deck"}`, status: 422, code: "illegal_move", rule: "take-when-owed"},
		{name: "table report in a digital game", body: `{"type":"reveal","expedition":"T4"}`, opts: []opt{cred(tb.host)}, status: 422, code: "illegal_move", rule: "digital-draws"},
		{name: "not JSON", body: `{}`, opts: []opt{header("Content-Type", "text/plain")}, status: 415, code: "unsupported_media_type"},
		{name: "too large", body: `{"type":"cross","seat":0,"card":"` + strings.Repeat("x", 70<<10) + `","boxes":[[0,0]]}`, status: 413, code: "payload_too_large"},
		{name: "If-Match not an ETag", body: `{"type":"take","seat":0,"from":"deck"}`, opts: []opt{header("If-Match", "yesterday")}, status: 400, code: "validation_failed"},
		{name: "Idempotency-Key too long", body: `{"type":"take","seat":0,"from":"deck"}`, opts: []opt{header("Idempotency-Key", strings.Repeat("k", 300))}, status: 400, code: "validation_failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, before := tb.get(t, tb.host)
			opts := append([]opt{cred(tb.seats[0])}, c.opts...)
			p := wantProblem(t, s.Do(t, http.MethodPost, tb.path("/moves"), c.body, opts...), c.status, c.code)
			if p.Rule != c.rule {
				t.Errorf("rule %q, want %q (%s)", p.Rule, c.rule, p.Detail)
			}
			if _, after := tb.get(t, tb.host); !bytes.Equal(before.Body, after.Body) || before.Header.Get("ETag") != after.Header.Get("ETag") {
				t.Errorf("the game changed:\n%s\n%s", before.Body, after.Body)
			}
		})
	}

	t.Run("other requests", func(t *testing.T) {
		_, before := tb.get(t, tb.host)
		for _, c := range []struct {
			name, method, path string
			body               any
			opts               []opt
			status             int
			code               string
		}{
			{"game that does not exist", "GET", "/v1/games/AAAAAAAAAAAAAAAA", nil, nil, 404, "not_found"},
			{"move in a game that does not exist", "POST", "/v1/games/AAAAAAAAAAAAAAAA/moves", `{"type":"take","seat":0,"from":"deck"}`, []opt{cred(tb.host)}, 404, "not_found"},
			{"score of a game that does not exist", "GET", "/v1/games/AAAAAAAAAAAAAAAA/score", nil, nil, 404, "not_found"},
			{"log of a game that does not exist", "GET", "/v1/games/AAAAAAAAAAAAAAAA/moves", nil, nil, 404, "not_found"},
			{"game id with bad characters", "GET", "/v1/games/no$such", nil, nil, 400, "validation_failed"},
			{"no such path", "GET", "/v1/tables", nil, nil, 404, "route_not_found"},
			{"wrong method", "DELETE", tb.path(""), nil, nil, 405, "method_not_allowed"},
			{"seat not a number", "GET", tb.path("/legal-moves?seat=one"), nil, []opt{cred(tb.host)}, 400, "validation_failed"},
			{"negative seat", "GET", tb.path("/legal-moves?seat=-1"), nil, []opt{cred(tb.host)}, 400, "validation_failed"},
			{"seat that does not exist", "GET", tb.path("/legal-moves?seat=9"), nil, []opt{cred(tb.host)}, 400, "invalid"},
			{"limit 0", "GET", tb.path("/moves?limit=0"), nil, nil, 400, "validation_failed"},
			{"unknown catalog", "GET", "/v1/catalogs/deluxe", nil, nil, 404, "not_found"},
			{"unknown ruleset of a catalog", "GET", "/v1/catalogs/standard?ruleset=chess", nil, nil, 400, "invalid"},
			{"create: unknown ruleset", "POST", "/v1/games", map[string]any{"ruleset": "chess", "mode": "digital", "players": players(2)}, nil, 400, "invalid"},
			{"create: unknown mode", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "paper", "players": players(2)}, nil, 400, "validation_failed"},
			{"create: five players", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": append(players(4), map[string]string{"name": "Eve"})}, nil, 400, "invalid"},
			{"create: no players", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": []any{}}, nil, 400, "validation_failed"},
			{"create: same name twice", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": []map[string]string{{"name": "Ann"}, {"name": "ann"}}}, nil, 400, "invalid"},
			{"create: seed in a physical game", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "physical", "players": players(2), "seed": "x"}, nil, 400, "invalid"},
			{"create: unknown catalog", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": players(2), "catalog": "deluxe"}, nil, 400, "invalid"},
			{"create: unknown field", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": players(2), "bots": 2}, nil, 400, "validation_failed"},
			{"create: unknown field in a player", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": []map[string]any{{"name": "Ann", "age": 9}}}, nil, 400, "validation_failed"},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantProblem(t, s.Do(t, c.method, c.path, c.body, c.opts...), c.status, c.code)
			})
		}
		if _, after := tb.get(t, tb.host); !bytes.Equal(before.Body, after.Body) {
			t.Errorf("the game changed:\n%s\n%s", before.Body, after.Body)
		}
	})
}

// TestHiddenInformation plays a whole digital game with a known seed while a
// copy of the game, built from the same seed, tracks which cards lie face
// down: until the end no answer contains the seed or names a face-down card,
// and at every step the server's game is the copy's.
func TestHiddenInformation(t *testing.T) {
	const seed = "hidden-seed-6b1f0c"
	s := newServer(t)
	cat := catalog(t, s) // names every card, so read before watching
	mirror, err := silvergold.New(silvergold.Standard(), silvergold.Setup{Mode: silvergold.Digital, Players: []string{"Ann", "Ben", "Cat"}, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	// Answers are checked against the copy once it has caught up with them:
	// a read at once, a move's answer once the copy has made the move too.
	var mu sync.Mutex
	var unchecked [][]byte
	checked := 0
	s.Inspect(func(r resp) {
		mu.Lock()
		unchecked = append(unchecked, r.Body)
		mu.Unlock()
	})
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		for _, b := range unchecked {
			checked++
			body := string(b)
			if mirror.Phase != silvergold.PhaseEnded && strings.Contains(body, seed) {
				t.Errorf("an answer before the end contains the seed: %s", body)
			}
			for _, c := range mirror.Deck {
				if id := strconv.Quote(mirror.CatalogData().Cards[c].ID); strings.Contains(body, id) {
					t.Errorf("an answer names %s, which lies face down in the deck: %s", id, body)
				}
			}
		}
		unchecked = unchecked[:0]
	}

	tb := newTable(t, s, "digital", 3, seed)
	for {
		g, _ := tb.get(t, tb.host)
		if g.Ended {
			break
		}
		// Every seat and the public read the game, as clients would.
		for _, c := range append([]string{""}, tb.seats...) {
			tb.get(t, c)
		}
		s.Do(t, http.MethodGet, tb.path("/score"), nil)
		s.Do(t, http.MethodGet, tb.path("/moves"), nil)
		s.Do(t, http.MethodGet, tb.path("/record"), nil)
		credential, m := tb.nextMove(t, g.State, cat, false)
		check()
		p := tb.play(t, credential, m)
		mu.Lock()
		err := mirror.Play(actorOf(tb, credential), &m)
		mu.Unlock()
		if err != nil {
			t.Fatalf("the copy refuses a move the server took: %v", err)
		}
		check()
		// The server's game is the copy's, seen by the same seat.
		want := mirror.View(viewerOf(tb, credential))
		got, _ := json.Marshal(p.Game.State)
		if wantJSON, _ := json.Marshal(want); !bytes.Equal(got, wantJSON) {
			t.Fatalf("after move %d the server shows\n%s\nthe copy\n%s", p.Seq, got, wantJSON)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d answers were checked", checked)
	}
	if g, _ := tb.get(t, ""); g.Seed != seed {
		t.Errorf("the ended game shows seed %q", g.Seed)
	}
}

func TestReads(t *testing.T) {
	s := newServer(t)
	tb, _ := setupTable(t, s)

	t.Run("If-None-Match", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, tb.path(""), nil, header("If-None-Match", `"2"`))
		if r.Status != http.StatusNotModified || len(r.Body) != 0 || r.Header.Get("ETag") != `"2"` {
			t.Errorf("current ETag: %d %v %s", r.Status, r.Header, r.Body)
		}
		r = s.Do(t, http.MethodGet, tb.path(""), nil, header("If-None-Match", `"0", W/"1"`))
		wantStatus(t, r, http.StatusOK)
	})
	t.Run("move log pages", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, tb.path("/moves?after=0&limit=1"), nil)
		wantStatus(t, r, http.StatusOK)
		page := decode[moveLogJSON](t, r.Body)
		if len(page.Moves) != 1 || page.Moves[0].Seq != 1 || page.Moves[0].Move.Type != "keep" {
			t.Errorf("first page %+v", page)
		}
		r = s.Do(t, http.MethodGet, tb.path("/moves?after=1"), nil)
		if page := decode[moveLogJSON](t, r.Body); len(page.Moves) != 1 || page.Moves[0].Seq != 2 {
			t.Errorf("second page %+v", page)
		}
		r = s.Do(t, http.MethodGet, tb.path("/moves?after=2"), nil)
		if page := decode[moveLogJSON](t, r.Body); page.Moves == nil || len(page.Moves) != 0 {
			t.Errorf("past the end: %s", r.Body)
		}
	})
	t.Run("catalog", func(t *testing.T) {
		c := catalog(t, s)
		if c.Name != "standard" || len(c.Cards) != 47 || len(c.Expeditions) != int(silvergold.NumPatterns) {
			t.Errorf("catalog %s: %d cards, %d expeditions", c.Name, len(c.Cards), len(c.Expeditions))
		}
		r := s.Do(t, http.MethodGet, "/v1/catalogs/standard?ruleset=silver-and-gold", nil)
		wantStatus(t, r, http.StatusOK)
	})
	t.Run("openapi.yaml", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, "/openapi.yaml", nil)
		wantStatus(t, r, http.StatusOK)
		if !bytes.HasPrefix(r.Body, []byte("openapi: 3.")) || r.Header.Get("Content-Type") != "application/yaml" {
			t.Errorf("%v %.40s", r.Header, r.Body)
		}
	})
	t.Run("health", func(t *testing.T) {
		wantStatus(t, s.Do(t, http.MethodGet, "/healthz", nil), http.StatusOK)
	})
	t.Run("request id", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, "/v1/nowhere", nil)
		p := wantProblem(t, r, http.StatusNotFound, "route_not_found")
		if p.RequestID == "" || p.RequestID != r.Header.Get("X-Request-Id") {
			t.Errorf("request id %q, header %q", p.RequestID, r.Header.Get("X-Request-Id"))
		}
	})
}

// TestRestart stops the server, opens the same file again, and finds every
// game exactly as it was; play goes on, and an idempotent retry still
// returns its first answer.
func TestRestart(t *testing.T) {
	s := newServer(t)
	cat := catalog(t, s)
	var tables []*table
	for i, mode := range []string{"digital", "physical", "digital"} {
		seed := ""
		if mode == "digital" {
			seed = fmt.Sprintf("restart-%d", i)
		}
		tb := newTable(t, s, mode, 3, seed)
		for n := 0; n < 10*i; n++ {
			g, _ := tb.get(t, tb.host)
			credential, m := tb.nextMove(t, g.State, cat, false)
			tb.play(t, credential, m)
		}
		tables = append(tables, tb)
	}
	ended := newTable(t, s, "digital", 1, "restart-ended")
	ended.playToEnd(t, false, nil)
	tables = append(tables, ended)

	last := tables[2]
	g, _ := last.get(t, last.host)
	credential, next := last.nextMove(t, g.State, cat, false)
	firstTry := s.Do(t, http.MethodPost, last.path("/moves"), next, cred(credential), header("Idempotency-Key", "before-restart"))
	wantStatus(t, firstTry, http.StatusOK)

	snapshot := func(s *server, tb *table) []string {
		var out []string
		for _, c := range append([]string{"", tb.host}, tb.seats...) {
			var opts []opt
			if c != "" {
				opts = append(opts, cred(c))
			}
			r := s.Do(t, http.MethodGet, tb.path(""), nil, opts...)
			out = append(out, r.Header.Get("ETag")+string(r.Body))
		}
		for _, p := range []string{"/moves", "/score"} {
			out = append(out, string(s.Do(t, http.MethodGet, tb.path(p), nil).Body))
		}
		return out
	}
	var before [][]string
	for _, tb := range tables {
		before = append(before, snapshot(s, tb))
	}

	s.Stop()
	s2 := startServer(t, s.Path)
	for i, tb := range tables {
		tb.s = s2
		if after := snapshot(s2, tb); !slices.Equal(before[i], after) {
			t.Errorf("game %d differs after the restart:\n%q\n%q", i, before[i], after)
		}
	}

	again := s2.Do(t, http.MethodPost, last.path("/moves"), next, cred(credential), header("Idempotency-Key", "before-restart"))
	if again.Status != http.StatusOK || !bytes.Equal(again.Body, firstTry.Body) || again.Header.Get("Idempotency-Replayed") != "true" {
		t.Errorf("retry after the restart: %d %v\n%s\n%s", again.Status, again.Header, firstTry.Body, again.Body)
	}
	g, _ = last.get(t, last.host)
	credential, m := last.nextMove(t, g.State, cat, false)
	if p := last.play(t, credential, m); p.Seq != g.Version+1 {
		t.Errorf("first move after the restart got seq %d, want %d", p.Seq, g.Version+1)
	}
}
