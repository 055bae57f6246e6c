package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/treasury-games/treasury/domain"
	ct "github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// Colorful Treasure through the real server: whole games chosen from the
// legal-move listings, as a client would, and a scan of every answer and
// event of a running digital game for a face-down card.

type ctGameJSON struct {
	ID      string         `json:"id"`
	Version int64          `json:"version"`
	Ended   bool           `json:"ended"`
	Seed    string         `json:"seed"`
	Options map[string]any `json:"options"`
	State   ct.View        `json:"state"`
}

// newCTTable creates a Colorful Treasure game over the API.
func newCTTable(t *testing.T, s *server, mode string, n int, seed string, options map[string]any) *table {
	t.Helper()
	body := map[string]any{"ruleset": ct.RulesetName, "mode": mode, "players": players(n)}
	if options != nil {
		body["options"] = options
	}
	if seed != "" {
		body["seed"] = seed
	}
	r := s.Do(t, http.MethodPost, "/v1/games", body)
	wantStatus(t, r, http.StatusCreated)
	c := decode[struct {
		Game        ctGameJSON `json:"game"`
		Credentials struct {
			Host  string   `json:"host"`
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}](t, r.Body)
	if c.Game.State.Variant == "" || len(c.Game.State.Columns) != ct.NumWonders {
		t.Fatalf("created %s", r.Body)
	}
	return &table{s: s, id: c.Game.ID, host: c.Credentials.Host, seats: c.Credentials.Seats}
}

func ctGet(t *testing.T, tb *table, credential string) ctGameJSON {
	t.Helper()
	var opts []opt
	if credential != "" {
		opts = append(opts, cred(credential))
	}
	r := tb.s.Do(t, http.MethodGet, tb.path(""), nil, opts...)
	wantStatus(t, r, http.StatusOK)
	return decode[ctGameJSON](t, r.Body)
}

func ctLegal(t *testing.T, tb *table, seat int) ct.Legal {
	t.Helper()
	r := tb.s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.seats[seat]))
	wantStatus(t, r, http.StatusOK)
	return decode[ct.Legal](t, r.Body)
}

// ctChoose picks a move from a listing at random, preferring to take cards
// so that games end.
func ctChoose(l ct.Legal, r *rand.Rand) ct.Move {
	seat := l.Seat
	m := ct.Move{Seat: &seat}
	switch {
	case len(l.Rob) > 0:
		o := l.Rob[r.IntN(len(l.Rob))]
		m.Type, m.Target, m.Card, m.DiamondToken = ct.MoveRob, &o.Target, o.Card, o.DiamondToken
	case len(l.Claim) > 0:
		m.Type, m.Token = ct.MoveClaim, l.Claim[r.IntN(len(l.Claim))]
	case len(l.UseToken) > 0 && r.IntN(2) == 0:
		o := l.UseToken[r.IntN(len(l.UseToken))]
		m.Type, m.Token = ct.MoveUseToken, o.Token
		if len(o.Cells) > 0 {
			first := o.Cells[r.IntN(len(o.Cells))]
			m.Cards = []ct.Pos{first}
			for _, p := range o.Cells {
				if len(m.Cards) < o.Max && p != first && (p.Column == first.Column) == o.SameWonder &&
					!slices.ContainsFunc(m.Cards, func(q ct.Pos) bool { return o.DifferentWonders && q.Column == p.Column }) {
					m.Cards = append(m.Cards, p)
				}
			}
		}
	case l.Flip != nil && (len(l.Collect) == 0 || r.IntN(3) == 0):
		m.Type = ct.MoveFlip
		for _, i := range r.Perm(len(l.Flip.Cells))[:l.Flip.Count] {
			m.Cards = append(m.Cards, l.Flip.Cells[i].Pos)
			if shows := l.Flip.Cells[i].Shows; shows != nil {
				for {
					k := shows[r.IntN(len(shows))]
					if !slices.ContainsFunc(m.Cards[:len(m.Shows)], func(q ct.Pos) bool {
						return q.Column == l.Flip.Cells[i].Column && m.Shows[slices.Index(m.Cards, q)] == k
					}) {
						m.Shows = append(m.Shows, k)
						break
					}
				}
			}
		}
	case len(l.Collect) > 0:
		opts := l.Collect
		if len(opts) > 1 && len(opts[0]) == 0 {
			opts = opts[1:]
		}
		m.Type, m.Take = ct.MoveCollect, opts[r.IntN(len(opts))]
	case l.End:
		m.Type = ct.MoveEnd
	}
	return m
}

// ctPlayToEnd plays tb to the end from the listings; asHost plays every
// move with the host credential. after sees each accepted move's answer.
func ctPlayToEnd(t *testing.T, tb *table, r *rand.Rand, asHost bool, after func(m ct.Move, body []byte)) int {
	t.Helper()
	for n := 0; ; n++ {
		if n > 2000 {
			t.Fatal("the game did not end")
		}
		g := ctGet(t, tb, "")
		if g.Ended {
			return n
		}
		m := ctChoose(ctLegal(t, tb, g.State.Turn), r)
		credential := tb.seats[g.State.Turn]
		if asHost {
			credential = tb.host
		}
		res := tb.s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(credential))
		if res.Status != http.StatusOK {
			t.Fatalf("move %+v refused: %s", m, res.Body)
		}
		if after != nil {
			after(m, res.Body)
		}
	}
}

// ctCheckEnded checks the final score and, for a digital game, that its
// record verifies online and offline.
func ctCheckEnded(t *testing.T, tb *table, moves int, digital bool) ct.Score {
	t.Helper()
	g := ctGet(t, tb, "")
	if !g.Ended || g.Version != int64(moves) || g.State.Phase != ct.PhaseEnded {
		t.Fatalf("after %d moves: ended %v version %d phase %s", moves, g.Ended, g.Version, g.State.Phase)
	}
	r := tb.s.Do(t, http.MethodGet, tb.path("/score"), nil)
	wantStatus(t, r, http.StatusOK)
	sc := decode[ct.Score](t, r.Body)
	if !sc.Final || len(sc.Ranking) != len(tb.seats) || sc.Ranking[0].Rank != 1 {
		t.Fatalf("score %s", r.Body)
	}
	for _, p := range sc.Players {
		if p.Total != p.Lines.Sum() {
			t.Errorf("seat %d: total %d, lines %d", p.Seat, p.Total, p.Lines.Sum())
		}
	}
	if !digital {
		return sc
	}
	r = tb.s.Do(t, http.MethodGet, tb.path("/record"), nil)
	wantStatus(t, r, http.StatusOK)
	rec := decode[domain.Record](t, r.Body)
	if rec.Seed == "" || len(rec.Moves) != moves {
		t.Fatalf("the ended game's record has seed %q and %d moves", rec.Seed, len(rec.Moves))
	}
	v := verify(t, tb.s, json.RawMessage(r.Body))
	if !v.Valid || v.Moves != moves {
		t.Fatalf("the record does not verify online: %+v", v.Problem)
	}
	if !jsonEqual(t, v.Score, mustMarshal(t, sc)) {
		t.Errorf("the replayed score %s differs from the game's", v.Score)
	}
	if off := domain.VerifyRecord(rulesets.All(), rec); !off.Valid {
		t.Fatalf("the record does not verify offline: %+v", off.Problem)
	}
	return sc
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestColorfulTreasureGames(t *testing.T) {
	s := newServer(t)
	t.Run("advanced digital game of 4", func(t *testing.T) {
		opts := map[string]any{"variant": "advanced", "start_player": 2, "token_1": "b", "token_3": "b", "token_5": "b"}
		tb := newCTTable(t, s, "digital", 4, "ct-advanced-seed", opts)
		g := ctGet(t, tb, "")
		if g.State.Turn != 2 || len(g.State.ActionTokens) != ct.NumTokens || g.State.ActionTokens[0].Effect != "peek_three" {
			t.Fatalf("the game was not set up with its options: %+v", g.State)
		}
		if g.Options["token_2"] != "a" || g.Options["variant"] != "advanced" {
			t.Errorf("options %v, every default filled in", g.Options)
		}
		types := map[string]int{}
		moves := ctPlayToEnd(t, tb, rand.New(rand.NewPCG(1, 2)), false, func(m ct.Move, _ []byte) { types[m.Type]++ })
		if types[ct.MoveFlip] == 0 || types[ct.MoveCollect] == 0 {
			t.Errorf("moves played: %v", types)
		}
		ctCheckEnded(t, tb, moves, true)
	})
	t.Run("junior digital game", func(t *testing.T) {
		tb := newCTTable(t, s, "digital", 3, "", map[string]any{"variant": "junior"})
		moves := ctPlayToEnd(t, tb, rand.New(rand.NewPCG(3, 4)), false, nil)
		sc := ctCheckEnded(t, tb, moves, true)
		if g := ctGet(t, tb, ""); g.State.CardsLeft != 0 {
			t.Errorf("a junior game ends with the grid empty, not %d cards", g.State.CardsLeft)
		}
		for _, p := range sc.Players {
			if len(p.Awards) > 0 {
				t.Errorf("junior awards: %+v", p.Awards)
			}
		}
	})
	t.Run("physical game of 2", func(t *testing.T) {
		tb := newCTTable(t, s, "physical", 2, "", nil)
		// An impossible report is refused with a reason.
		bad := ct.Move{Type: ct.MoveFlip, Seat: ct.SeatPtr(0), Cards: []ct.Pos{{Column: 0, Row: 0}, {Column: 4, Row: 0}}, Shows: []ct.Kind{ct.Red, ct.Red}}
		if p := wantProblem(t, s.Do(t, http.MethodPost, tb.path("/moves"), bad, cred(tb.host)), http.StatusUnprocessableEntity, "illegal_move"); p.Rule != "report-possible" {
			t.Errorf("rule %q", p.Rule)
		}
		moves := ctPlayToEnd(t, tb, rand.New(rand.NewPCG(5, 6)), true, nil)
		sc := ctCheckEnded(t, tb, moves, false)
		// The table's tally of the same game checks out.
		g := ctGet(t, tb, "")
		sheet := ct.Sheet{Ruleset: ct.RulesetName}
		for i, p := range g.State.Players {
			total := sc.Players[i].Total
			sp := ct.SheetPlayer{Name: p.Name, Cards: p.Cards, DiamondTokens: p.DiamondTokens, Total: &total}
			for _, a := range sc.Players[i].Awards {
				sp.Awards = append(sp.Awards, a.Award)
			}
			sheet.Players = append(sheet.Players, sp)
		}
		r := s.Do(t, http.MethodPost, "/v1/score-sheets/verify?ruleset="+ct.RulesetName, sheet)
		wantStatus(t, r, http.StatusOK)
		if res := decode[ct.SheetResult](t, r.Body); !res.Valid {
			t.Errorf("the tally of the game has findings: %+v", res.Findings)
		}
	})
	t.Run("catalog", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, "/v1/catalogs/standard?ruleset="+ct.RulesetName, nil)
		wantStatus(t, r, http.StatusOK)
		if c := decode[ct.CatalogView](t, r.Body); len(c.Wonders) != ct.NumWonders || c.Hash != ct.Standard().Hash {
			t.Errorf("catalog %s", r.Body)
		}
	})
}

// faceDownIn returns what in doc names a card that lies face down in mirror,
// or "".
func faceDownIn(mirror *ct.Game, doc []byte) string {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return ""
	}
	var walk func(v any) string
	walk = func(v any) string {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if s := walk(e); s != "" {
					return s
				}
			}
		case map[string]any:
			if ks, ok := x["kind"].(string); ok {
				k, _ := ct.ParseKind(ks)
				w, _ := x["wonder"].(string)
				col, _ := mirror.CatalogData().Index(w)
				for r, c := range mirror.Grid[col] {
					at, placed := x["row"].(float64)
					if c.State == ct.CellDown && int8(k) == c.Kind && (!placed || int(at) == r) {
						return fmt.Sprintf("%v is face down", x)
					}
				}
			}
			if cells, ok := x["cells"].([]any); ok && x["wonder"] != nil {
				col, _ := mirror.CatalogData().Index(fmt.Sprint(x["wonder"]))
				for r, c := range cells {
					if s, _ := c.(string); s != "down" && s != "gone" && mirror.Grid[col][r].State != ct.CellUp {
						return fmt.Sprintf("column %d row %d shows %s and is not face up", col, r, s)
					}
				}
			}
			for _, e := range x {
				if s := walk(e); s != "" {
					return s
				}
			}
		case string:
			if len(x) > 2 && (x[0] == '{' || x[0] == '[') {
				return walk(decodeAny(x))
			}
		}
		return ""
	}
	return walk(v)
}

func decodeAny(s string) any {
	var v any
	_ = json.Unmarshal([]byte(s), &v)
	return v
}

// TestColorfulTreasureNoFaceDownLeak plays a digital advanced game while
// every seat, the host and the public read the game, the listings, the
// score, the log, the record and the event stream caught up from the start,
// and each move is retried with its Idempotency-Key three moves later: no
// answer and no event names a card that is face down at that moment.
func TestColorfulTreasureNoFaceDownLeak(t *testing.T) {
	const seed = "ct-leak-seed-51c2"
	s := newServer(t)
	opts := map[string]any{"variant": "advanced"}
	tb := newCTTable(t, s, "digital", 3, seed, opts)
	rules := ct.NewRules()
	optJSON, _ := json.Marshal(opts)
	dg, _, err := rules.Create(domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben", "Cat"}, Seed: seed, Options: optJSON})
	if err != nil {
		t.Fatal(err)
	}
	mirror, _ := ct.Unwrap(dg)
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
			if mirror.Phase == ct.PhaseEnded {
				continue
			}
			if leak := faceDownIn(mirror, b); leak != "" {
				t.Fatalf("an answer names a face-down card: %s\n%s", leak, b)
			}
			if bytes.Contains(b, []byte(seed)) {
				t.Fatalf("an answer holds the seed: %s", b)
			}
		}
		unchecked = unchecked[:0]
	}
	readers := append([]string{"", tb.host}, tb.seats...)
	r := rand.New(rand.NewPCG(9, 9))
	events, replays := 0, 0
	var sent []struct {
		m               ct.Move
		credential, key string
	}
	for n := 0; ; n++ {
		g := ctGet(t, tb, tb.host)
		if g.Ended {
			break
		}
		for _, c := range readers {
			ctGet(t, tb, c)
			s.Do(t, http.MethodGet, tb.path("/moves"), nil, credOr(c)...)
			s.Do(t, http.MethodGet, tb.path("/record"), nil, credOr(c)...)
		}
		for seat := range tb.seats {
			ctLegal(t, tb, seat)
		}
		s.Do(t, http.MethodGet, tb.path("/score"), nil)
		if n%10 == 9 {
			for _, c := range readers {
				events += ctCatchUp(t, tb, c, g.Version, mirror)
			}
		}
		check()
		// A retry of the move made three moves ago (its cards may be face
		// down again by now).
		if len(sent) >= 3 {
			o := sent[len(sent)-3]
			res := s.Do(t, http.MethodPost, tb.path("/moves"), o.m, cred(o.credential), header("Idempotency-Key", o.key))
			if res.Status != http.StatusOK || res.Header.Get("Idempotency-Replayed") != "true" {
				t.Fatalf("a retry of %+v: %d %v", o.m, res.Status, res.Header)
			}
			replays++
			check()
		}
		m := ctChoose(ctLegal(t, tb, g.State.Turn), r)
		key := fmt.Sprintf("move-%d", n)
		res := s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(tb.seats[g.State.Turn]), header("Idempotency-Key", key))
		wantStatus(t, res, http.StatusOK)
		sent = append(sent, struct {
			m               ct.Move
			credential, key string
		}{m, tb.seats[g.State.Turn], key})
		mu.Lock()
		err := mirror.Play(domain.Actor{Seat: g.State.Turn}, &m)
		mu.Unlock()
		if err != nil {
			t.Fatalf("the copy refuses a move the server took: %v", err)
		}
		check()
	}
	if checked < 500 || events < 100 || replays < 50 {
		t.Fatalf("only %d answers, %d events and %d retries were checked", checked, events, replays)
	}
}

func credOr(c string) []opt {
	if c == "" {
		return nil
	}
	return []opt{cred(c)}
}

// ctCatchUp reads the event stream from the start up to version as reader c
// and checks every event; it returns how many it read.
func ctCatchUp(t *testing.T, tb *table, c string, version int64, mirror *ct.Game) int {
	t.Helper()
	path := tb.path("/events")
	headers := []string{"Last-Event-ID", "0"}
	if c != "" {
		headers = append(headers, "Authorization", "Bearer "+c)
	}
	st := openStream(t, tb.s, path, headers...)
	defer st.resp.Body.Close()
	n := 0
	for {
		ev, ok := st.next(t)
		if !ok {
			t.Fatal("the stream ended while the game runs")
		}
		n++
		if leak := faceDownIn(mirror, ev.Data); leak != "" {
			t.Fatalf("event %s read by a catch-up names a face-down card: %s\n%s", ev.Type, leak, ev.Data)
		}
		if id, err := strconv.ParseInt(ev.ID, 10, 64); err == nil && id >= version {
			return n
		}
	}
}

// TestColorfulTreasurePhysicalForgets: at a physical table, once a card
// reported is face down again, nothing the server answers says what it
// showed: the move log (for every reader) leaves the report out while the
// game runs, and the next listing offers every kind its wonder can still
// hold, not only the one reported.
func TestColorfulTreasurePhysicalForgets(t *testing.T) {
	s := newServer(t)
	tb := newCTTable(t, s, "physical", 2, "", nil)
	l := ctLegal(t, tb, 0)
	first := l.Flip.Cells[0]
	var second ct.FlipCell
	for _, c := range l.Flip.Cells {
		if c.Column != first.Column {
			second = c
			break
		}
	}
	// Two gems of different colours: taking nothing turns both back.
	gem := func(c ct.FlipCell, not ct.Kind) ct.Kind {
		for _, k := range c.Shows {
			if k.IsGem() && k != not {
				return k
			}
		}
		t.Fatalf("no gem offered at %v: %v", c.Pos, c.Shows)
		return 0
	}
	k1 := gem(first, -1)
	k2 := gem(second, k1)
	flip := ct.Move{Type: ct.MoveFlip, Seat: ct.SeatPtr(0), Cards: []ct.Pos{first.Pos, second.Pos}, Shows: []ct.Kind{k1, k2}}
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), flip, cred(tb.host)), http.StatusOK)
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), ct.Move{Type: ct.MoveCollect, Seat: ct.SeatPtr(0)}, cred(tb.host)), http.StatusOK)

	for _, c := range []string{"", tb.host, tb.seats[0], tb.seats[1]} {
		r := s.Do(t, http.MethodGet, tb.path("/moves"), nil, credOr(c)...)
		wantStatus(t, r, http.StatusOK)
		if bytes.Contains(r.Body, []byte(`"shows"`)) || !bytes.Contains(r.Body, []byte(`"type":"flip"`)) {
			t.Errorf("the move log read with %q keeps the report of cards now face down: %s", c, r.Body)
		}
	}
	l = ctLegal(t, tb, 1)
	for _, c := range l.Flip.Cells {
		if c.Pos == first.Pos && len(c.Shows) != len(first.Shows) {
			t.Errorf("the card reported %s is offered as %v, where its wonder may still show %v", k1, c.Shows, first.Shows)
		}
	}
	// The report contradicting the first is taken: that one may have been a
	// mis-report.
	var other ct.Kind = -1
	for _, k := range first.Shows {
		if k != k1 && k.IsGem() {
			other = k
		}
	}
	again := ct.Move{Type: ct.MoveFlip, Seat: ct.SeatPtr(1), Cards: []ct.Pos{first.Pos, second.Pos}, Shows: []ct.Kind{other, k2}}
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), again, cred(tb.seats[1])), http.StatusOK)
}
