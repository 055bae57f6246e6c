package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// sheetSarah is the rulebook's worked example: 6 completed cards worth 64,
// two seals worth 6, 9 coins, cups 6 and 2, palms 2, 3 and 3: 95.
func sheetSarah() silvergold.SheetPlayer {
	return silvergold.SheetPlayer{
		Name:  "Sarah",
		Cards: sheetIDs("grey-01", "grey-03", "orange-06", "orange-12", "green-08", "purple-07"),
		Coins: 9, Cups: []int{6, 2}, Palms: []int{2, 3, 3}, Total: intPtr(95),
	}
}

// sheetTom is a second legal score card, without a total: 84.
func sheetTom() silvergold.SheetPlayer {
	return silvergold.SheetPlayer{
		Name:  "Tom",
		Cards: sheetIDs("purple-12", "purple-06", "orange-09", "orange-11", "grey-02"),
		Coins: 10, Cups: []int{5, 4}, Palms: []int{3, 2},
	}
}

func sheetIDs(ids ...string) []silvergold.SheetCard {
	out := make([]silvergold.SheetCard, len(ids))
	for i, id := range ids {
		out[i] = silvergold.SheetCard{ID: id}
	}
	return out
}

func intPtr(n int) *int { return &n }

// postSheet sends a sheet for checking.
func postSheet(t *testing.T, s *server, sheet any) resp {
	t.Helper()
	return s.Do(t, http.MethodPost, "/v1/score-sheets/verify", sheet)
}

func TestVerifyScoreSheet(t *testing.T) {
	s := newServer(t)

	t.Run("the rulebook's worked example adds up to 95", func(t *testing.T) {
		r := postSheet(t, s, silvergold.Sheet{Ruleset: silvergold.RulesetName, Players: []silvergold.SheetPlayer{sheetSarah()}})
		wantStatus(t, r, http.StatusOK)
		res := decode[silvergold.SheetResult](t, r.Body)
		if !res.Valid || len(res.Findings) != 0 || !strings.Contains(string(r.Body), `"findings":[]`) {
			t.Errorf("valid %v, findings %s", res.Valid, r.Body)
		}
		if len(res.Players) != 1 || res.Players[0].Total != 95 ||
			res.Players[0].Lines != (silvergold.Lines{Coins: 9, Cups: 8, Palms: 8, Cards: 64, Seals: 6}) {
			t.Errorf("players %+v", res.Players)
		}
		if want := []silvergold.Place{{Rank: 1, Seat: 0, Name: "Sarah", Total: 95}}; !reflect.DeepEqual(res.Ranking, want) {
			t.Errorf("ranking %+v", res.Ranking)
		}
	})

	t.Run("a table is ranked with what decided each place", func(t *testing.T) {
		tie := silvergold.Sheet{Ruleset: silvergold.RulesetName, Players: []silvergold.SheetPlayer{
			{Name: "Bo", Cards: sheetIDs("green-01", "orange-01")},    // 22
			{Name: "Ada", Cards: sheetIDs("grey-01", "purple-02")},    // 22, and a grey card
			{Name: "Cy", Cards: sheetIDs("grey-02"), Palms: []int{2}}, // 10
		}}
		r := s.Do(t, http.MethodPost, "/v1/score-sheets/verify?ruleset=silver-and-gold", tie)
		wantStatus(t, r, http.StatusOK)
		res := decode[silvergold.SheetResult](t, r.Body)
		want := []silvergold.Place{
			{Rank: 1, Seat: 1, Name: "Ada", Total: 22},
			{Rank: 2, Seat: 0, Name: "Bo", Total: 22, DecidedBy: "grey", DecidedByLabel: "fewer completed grey cards than Ada"},
			{Rank: 3, Seat: 2, Name: "Cy", Total: 10, DecidedBy: "total", DecidedByLabel: "fewer points than Bo"},
		}
		for i := range res.Ranking {
			res.Ranking[i].DecidedByLabelMessage = nil // the label says it; TestProblemsInGerman and the game's tests hold the messages
		}
		if !res.Valid || !reflect.DeepEqual(res.Ranking, want) {
			t.Errorf("valid %v, ranking %+v", res.Valid, res.Ranking)
		}
	})

	// Each case breaks one thing on a legal two-player sheet: the answer is
	// still 200, scored as written, with exactly that finding.
	tom := func(change func(p *silvergold.SheetPlayer)) func(*silvergold.Sheet) {
		return func(s *silvergold.Sheet) { change(&s.Players[1]) }
	}
	written := func(colour string, value int, seal *silvergold.Seal) silvergold.SheetCard {
		return silvergold.SheetCard{Colour: colour, Value: value, Seal: seal}
	}
	for _, c := range []struct {
		name   string
		change func(*silvergold.Sheet)
		code   string
		player *int // nil: the whole table
		line   string
		words  string
	}{
		{"a total that does not add up", func(s *silvergold.Sheet) { s.Players[0].Total = intPtr(89) },
			silvergold.FindingTotalMismatch, intPtr(0), "total", "the seals line (6) looks left out"},
		{"13 coins", tom(func(p *silvergold.SheetPlayer) { p.Coins = 13 }),
			silvergold.FindingTooManyCoins, intPtr(1), "coins", "12 coin boxes"},
		{"a cup without a completed row", tom(func(p *silvergold.SheetPlayer) { p.Coins = 7 }),
			silvergold.FindingTooManyCups, intPtr(1), "cups", "7 coins complete 1 row"},
		{"a cup worth 7", tom(func(p *silvergold.SheetPlayer) { p.Cups = []int{5, 7} }),
			silvergold.FindingCupValue, intPtr(1), "cups", "worth 7"},
		{"a cup another player wrote", tom(func(p *silvergold.SheetPlayer) { p.Cups = []int{5, 6} }),
			silvergold.FindingCupReused, intPtr(1), "cups", "Sarah and Tom both wrote the cup of 6"},
		{"five palms", tom(func(p *silvergold.SheetPlayer) { p.Palms = []int{3, 2, 2, 2, 2} }),
			silvergold.FindingTooManyPalms, intPtr(1), "palms", "4 palm boxes"},
		{"a palm worth 6", tom(func(p *silvergold.SheetPlayer) { p.Palms = []int{3, 6} }),
			silvergold.FindingPalmValue, intPtr(1), "palms", "1 to 5"},
		{"a card listed twice", tom(func(p *silvergold.SheetPlayer) { p.Cards = append(p.Cards, silvergold.SheetCard{ID: "purple-12"}) }),
			silvergold.FindingCardRepeated, intPtr(1), "cards", "Tom lists purple-12 twice"},
		{"a card two players list", tom(func(p *silvergold.SheetPlayer) { p.Cards = append(p.Cards, silvergold.SheetCard{ID: "grey-01"}) }),
			silvergold.FindingCardShared, intPtr(1), "cards", "Sarah and Tom both list grey-01"},
		{"a written-out card with the wrong value", tom(func(p *silvergold.SheetPlayer) { p.Cards = append(p.Cards, written("grey", 10, nil)) }),
			silvergold.FindingCardValue, intPtr(1), "cards", "a grey card is worth 8"},
		{"12 grey cards", tom(func(p *silvergold.SheetPlayer) {
			for range 9 { // Sarah has 2 and Tom 1
				p.Cards = append(p.Cards, written("grey", 8, nil))
			}
		}), silvergold.FindingTooManyOfColour, nil, "cards", "12 completed grey cards"},
		{"a seal naming its own colour", tom(func(p *silvergold.SheetPlayer) {
			p.Cards = append(p.Cards, written("green", 10, &silvergold.Seal{Colour: silvergold.Green, Points: 1}))
		}), silvergold.FindingSealOwnColour, intPtr(1), "seals", "names green"},
		{"a seal worth the wrong points", tom(func(p *silvergold.SheetPlayer) {
			p.Cards = append(p.Cards, written("green", 10, &silvergold.Seal{Colour: silvergold.Purple, Points: 1}))
		}), silvergold.FindingSealValue, intPtr(1), "seals", "a seal naming purple is worth 2"},
		{"two grey seals naming orange", tom(func(p *silvergold.SheetPlayer) {
			p.Cards = append(p.Cards, written("grey", 8, &silvergold.Seal{Colour: silvergold.Orange, Points: 2}))
		}), silvergold.FindingSealRepeated, intPtr(1), "seals", "seal naming orange"},
		{"more coins than the cards show", tom(func(p *silvergold.SheetPlayer) { p.Cards = sheetIDs("grey-02") }),
			silvergold.FindingCoinsNotOnCards, intPtr(1), "coins", "at most 6"},
		{"more palms than the cards show", tom(func(p *silvergold.SheetPlayer) {
			p.Cards = sheetIDs("purple-06")
			p.Coins, p.Cups, p.Palms = 4, []int{5}, []int{3, 2, 2, 2}
		}), silvergold.FindingPalmsNotOnCards, intPtr(1), "palms", "at most 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sheet := silvergold.Sheet{Ruleset: silvergold.RulesetName, Players: []silvergold.SheetPlayer{sheetSarah(), sheetTom()}}
			c.change(&sheet)
			r := postSheet(t, s, sheet)
			wantStatus(t, r, http.StatusOK)
			res := decode[silvergold.SheetResult](t, r.Body)
			if res.Valid || len(res.Findings) != 1 {
				t.Fatalf("valid %v, findings %+v", res.Valid, res.Findings)
			}
			f := res.Findings[0]
			if f.Code != c.code || !reflect.DeepEqual(f.Player, c.player) || f.Line != c.line || !strings.Contains(f.Reason, c.words) {
				t.Errorf("finding %+v (player %v), want %s at player %v, line %s, saying %q", f, deref(f.Player), c.code, deref(c.player), c.line, c.words)
			}
			if len(res.Players) != 2 || res.Players[0].Total != 95 {
				t.Errorf("the sheet was not scored as written: %+v", res.Players)
			}
		})
	}

	for _, c := range []struct {
		name   string
		body   any
		query  string
		code   string
		detail string // in the problem's detail
	}{
		{"not JSON", `{"players":[`, "", "malformed_json", ""},
		{"no ruleset", `{"players":[{"name":"Sarah","coins":9}]}`, "", "validation_failed", "ruleset"},
		{"not an object", `[1,2]`, "", "validation_failed", ""},
		{"no players", `{"ruleset":"silver-and-gold","players":[]}`, "", "validation_failed", "players"},
		{"five players", map[string]any{"ruleset": "silver-and-gold", "players": []any{sheetSarah(), sheetTom(), sheetTom(), sheetTom(), sheetTom()}}, "", "validation_failed", "players"},
		{"an unknown field", `{"ruleset":"silver-and-gold","players":[{"name":"Sarah","coins":9,"gold":3}]}`, "", "validation_failed", "gold"},
		{"negative coins", `{"ruleset":"silver-and-gold","players":[{"name":"Sarah","coins":-1}]}`, "", "validation_failed", "/players/0/coins"},
		{"a count that is not a number", `{"ruleset":"silver-and-gold","players":[{"name":"Sarah","coins":"nine"}]}`, "", "validation_failed", "/players/0/coins"},
		{"an unknown colour", `{"ruleset":"silver-and-gold","players":[{"name":"Sarah","cards":[{"colour":"gold","value":12}]}]}`, "", "validation_failed", "/players/0/cards/0/colour"},
		{"no name", `{"ruleset":"silver-and-gold","players":[{"name":"Sarah"},{"name":"  "}]}`, "", "invalid", "players[1].name) is blank"},
		{"an unknown card", `{"ruleset":"silver-and-gold","players":[{"name":"Sarah","cards":[{"id":"grey-01"},{"id":"grey-12"}]}]}`, "", "invalid",
			`players[0] (Sarah): cards[1] is "grey-12", but catalog standard has no card with that id`},
		{"an id and a colour", `{"ruleset":"silver-and-gold","players":[{"name":"Tom","cards":[{"id":"grey-01","colour":"grey"}]}]}`, "", "invalid", "players[0] (Tom): cards[0] gives both"},
		{"an empty card", `{"ruleset":"silver-and-gold","players":[{"name":"Tom","cards":[{}]}]}`, "", "invalid", "players[0] (Tom): cards[0] is empty"},
		{"an unknown catalog", `{"ruleset":"silver-and-gold","catalog":"deluxe","players":[{"name":"Tom"}]}`, "", "invalid", `"deluxe"`},
		{"an unknown ruleset", `{"ruleset":"silver-and-gold","players":[{"name":"Tom"}]}`, "?ruleset=chess", "invalid", `"chess"`},
	} {
		t.Run("malformed: "+c.name, func(t *testing.T) {
			p := wantProblem(t, s.Do(t, http.MethodPost, "/v1/score-sheets/verify"+c.query, c.body), http.StatusBadRequest, c.code)
			if !strings.Contains(p.Detail, c.detail) {
				t.Errorf("detail %q does not say %q", p.Detail, c.detail)
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// getRecord reads a game's record, without a credential.
func getRecord(t *testing.T, tb *table) (domain.Record, resp) {
	t.Helper()
	r := tb.s.Do(t, http.MethodGet, tb.path("/record"), nil)
	wantStatus(t, r, http.StatusOK)
	return decode[domain.Record](t, r.Body), r
}

// verify sends a record to be replayed and returns the verdict.
func verify(t *testing.T, s *server, rec any) domain.Verdict {
	t.Helper()
	r := s.Do(t, http.MethodPost, "/v1/records/verify", rec)
	wantStatus(t, r, http.StatusOK)
	return decode[domain.Verdict](t, r.Body)
}

// sameJSON reports whether a and b encode the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

// tamper is one change to an honest record and what the verdict must say.
// change returns the seq of the move the change breaks, 0 when it is the
// record as a whole that no longer holds.
type tamper struct {
	name   string
	change func(t *testing.T, r *domain.Record) int64
	code   string
	rule   string
}

// checkTampered verifies each tampered copy of rec over HTTP.
func checkTampered(t *testing.T, s *server, rec domain.Record, cases []tamper) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := copyRecord(t, rec)
			seq := c.change(t, &r)
			v := verify(t, s, r)
			if v.Valid || v.Problem == nil {
				t.Fatalf("the tampered record verifies: %+v", v)
			}
			p := v.Problem
			if p.Code != c.code || p.Seq != seq || p.Rule != c.rule || p.Reason == "" {
				t.Errorf("problem %+v, want code %s rule %q at seq %d", p, c.code, c.rule, seq)
			}
			if seq > 0 && (len(v.Before) == 0 || v.Moves != int(seq-1)) {
				t.Errorf("a bad move at seq %d: %d moves replayed, state before %.80s", seq, v.Moves, v.Before)
			}
			if seq == 0 && len(v.Before) != 0 {
				t.Errorf("a whole-record problem shows a state: %.80s", v.Before)
			}
			if v.Score != nil {
				t.Errorf("an invalid record has a score: %s", v.Score)
			}
		})
	}
}

func copyRecord(t *testing.T, r domain.Record) domain.Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return decode[domain.Record](t, b)
}

// moveOf decodes move i of a record.
func moveOf(t *testing.T, r domain.Record, i int) silvergold.Move {
	t.Helper()
	return decode[silvergold.Move](t, r.Moves[i].Move)
}

func setMove(t *testing.T, r *domain.Record, i int, m silvergold.Move) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r.Moves[i].Move = b
}

// firstOf returns the index of the first move of a type.
func firstOf(t *testing.T, r domain.Record, typ string) int {
	t.Helper()
	for i := range r.Moves {
		if moveOf(t, r, i).Type == typ {
			return i
		}
	}
	t.Fatalf("the record has no %s move", typ)
	return -1
}

// Tampering that both modes catch the same way.
var (
	boxMoved = tamper{"one box moved", func(t *testing.T, r *domain.Record) int64 {
		i := firstOf(t, *r, silvergold.MoveCross)
		m := moveOf(t, *r, i)
		m.Boxes[0] = silvergold.Pos{Row: 3, Col: 4} // off every card
		setMove(t, r, i, m)
		return int64(i + 1)
	}, "illegal_move", "box-on-card"}
	appended = tamper{"a move appended after the end", func(t *testing.T, r *domain.Record) int64 {
		r.Moves = append(r.Moves, domain.RecordMove{Seq: int64(len(r.Moves) + 1), Actor: domain.RecordActor{Host: true},
			Move: json.RawMessage(`{"type":"reveal","expedition":"D2"}`), At: r.Moves[len(r.Moves)-1].At})
		r.Version++
		return int64(len(r.Moves))
	}, "illegal_move", "game-ended"}
	catalogChanged = tamper{"catalog content changed", func(t *testing.T, r *domain.Record) int64 {
		before := r.Catalog.Content
		r.Catalog.Content = strings.Replace(before, "\ncard grey-01 grey 8\n", "\ncard grey-01 grey 8 seal purple 2\n", 1)
		if r.Catalog.Content == before {
			t.Fatal("grey-01 is not in the catalog")
		}
		return 0
	}, "catalog_changed", ""}
	moveDropped = tamper{"a move dropped", func(t *testing.T, r *domain.Record) int64 {
		r.Moves = r.Moves[:len(r.Moves)-1]
		r.Version--
		return 0
	}, "ended", ""}
)

func TestGameRecordDigital(t *testing.T) {
	const seed = "record-seed-4"
	s := newServer(t)
	tb := newTable(t, s, "digital", 4, seed)
	created, _ := tb.get(t, "")
	commitment := created.SeedCommitment
	if commitment == "" || commitment == domain.SeedCommitment(seed, "") || created.Seed != "" || created.SeedSalt != "" {
		t.Fatalf("the game commits to %q (seed %q, salt %q): a salted commitment, nothing more, is shown while it runs", commitment, created.Seed, created.SeedSalt)
	}

	t.Run("a running game's record has no seed", func(t *testing.T) {
		running := newTable(t, s, "digital", 4, seed)
		started, _ := running.get(t, "")
		if started.SeedCommitment == commitment {
			t.Error("two games with the same seed share a commitment: the salt is missing")
		}
		commitment := started.SeedCommitment
		cat := catalog(t, s)
		for range 6 {
			g, _ := running.get(t, running.host)
			credential, m := running.nextMove(t, g.State, cat, false)
			running.play(t, credential, m)
		}
		rec, r := getRecord(t, running)
		if strings.Contains(string(r.Body), seed) || rec.Seed != "" || rec.SeedCommitment != commitment || rec.Ended || rec.Version != 6 || len(rec.Moves) != 6 {
			t.Fatalf("record of a running game: %s", r.Body)
		}
		v := verify(t, s, rec)
		if v.Valid || v.Problem == nil || v.Problem.Code != "seed_missing" || v.Problem.Seq != 0 {
			t.Errorf("verdict %+v", v)
		}
	})

	tb.playToEnd(t, false, nil)
	g, _ := tb.get(t, "")
	rec, r := getRecord(t, tb)
	if rec.Format != domain.RecordFormat || rec.GameID != tb.id || rec.Ruleset != silvergold.RulesetName || rec.Mode != "digital" ||
		!reflect.DeepEqual(rec.Players, []string{"Ann", "Ben", "Cat", "Dan"}) || !rec.Ended || rec.Version != g.Version || len(rec.Moves) != int(g.Version) {
		t.Fatalf("record of an ended game: %.300s", r.Body)
	}
	if rec.Seed != seed || rec.SeedSalt == "" || rec.SeedCommitment != commitment || domain.SeedCommitment(rec.Seed, rec.SeedSalt) != commitment ||
		g.Seed != seed || g.SeedSalt != rec.SeedSalt {
		t.Errorf("seed %q, salt %q, commitment %q; the game committed to %q and shows seed %q, salt %q", rec.Seed, rec.SeedSalt, rec.SeedCommitment, commitment, g.Seed, g.SeedSalt)
	}
	if rec.Catalog.Name != "standard" || rec.Catalog.Hash != g.State.Catalog.Hash || domain.ContentHash([]byte(rec.Catalog.Content)) != rec.Catalog.Hash {
		t.Errorf("catalog %s %s, the view's %s", rec.Catalog.Name, rec.Catalog.Hash, g.State.Catalog.Hash)
	}
	for i, m := range rec.Moves {
		if m.Seq != int64(i+1) || m.Actor.Host || m.Actor.Seat == nil || *m.Actor.Seat != *moveOf(t, rec, i).Seat {
			t.Fatalf("move %d: %+v", i, m)
		}
	}
	// The record of a whole 4-player game fits in a request body, with room.
	t.Logf("the record of a 4-player game is %d bytes", len(r.Body))
	if len(r.Body) > api.DefaultBodyLimit*3/4 {
		t.Errorf("the record of a 4-player game is %d bytes: too close to the body limit of %d", len(r.Body), api.DefaultBodyLimit)
	}

	t.Run("the record verifies with the scores of /score", func(t *testing.T) {
		v := verify(t, s, json.RawMessage(r.Body)) // exactly as served
		if !v.Valid || v.Problem != nil || v.Moves != len(rec.Moves) {
			t.Fatalf("verdict %+v", v)
		}
		score := s.Do(t, http.MethodGet, tb.path("/score"), nil)
		if !sameJSON(t, v.Score, score.Body) {
			t.Errorf("replayed score\n%s\n/score\n%s", v.Score, score.Body)
		}
	})

	checkTampered(t, s, rec, []tamper{
		boxMoved, appended, catalogChanged, moveDropped,
		{"two moves swapped", func(t *testing.T, r *domain.Record) int64 {
			// The first keep and the first crossing trade places.
			i := firstOf(t, *r, silvergold.MoveCross)
			r.Moves[0].Move, r.Moves[i].Move = r.Moves[i].Move, r.Moves[0].Move
			r.Moves[0].Actor, r.Moves[i].Actor = r.Moves[i].Actor, r.Moves[0].Actor
			return 1
		}, "illegal_move", "cross-in-action-2"},
		{"seed changed", func(t *testing.T, r *domain.Record) int64 { r.Seed += "x"; return 0 }, "seed_mismatch", ""},
		{"seed and commitment changed together", func(t *testing.T, r *domain.Record) int64 {
			r.Seed += "x" // deals other cards than those kept
			r.SeedCommitment = domain.SeedCommitment(r.Seed, r.SeedSalt)
			return 1
		}, "illegal_move", "keep-dealt"},
		{"seed withheld", func(t *testing.T, r *domain.Record) int64 { r.Seed = ""; return 0 }, "seed_missing", ""},
		{"a move made by another seat", func(t *testing.T, r *domain.Record) int64 {
			other := (*r.Moves[0].Actor.Seat + 1) % 4
			r.Moves[0].Actor.Seat = &other
			return 1
		}, "forbidden", ""},
	})
}

func TestGameRecordPhysical(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "physical", 3, "")
	tb.playToEnd(t, true, nil)
	rec, r := getRecord(t, tb)
	if rec.Mode != "physical" || rec.Seed != "" || rec.SeedCommitment != "" || strings.Contains(string(r.Body), "seed") || !rec.Ended {
		t.Fatalf("record of a physical game: %.300s", r.Body)
	}
	for _, m := range rec.Moves {
		if !m.Actor.Host || m.Actor.Seat != nil {
			t.Fatalf("move %d made by %+v, not the host", m.Seq, m.Actor)
		}
	}

	// Pretty-printed, as a person may have saved it, the record is larger
	// than the general body limit; records have a limit of their own.
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, r.Body, "", "    "); err != nil {
		t.Fatal(err)
	}
	if pretty.Len() <= api.DefaultBodyLimit || pretty.Len() > api.RecordBodyLimit {
		t.Fatalf("the pretty-printed record is %d bytes; the test wants it between the limits", pretty.Len())
	}
	v := verify(t, s, pretty.Bytes())
	if !v.Valid || v.Moves != len(rec.Moves) {
		t.Fatalf("verdict %+v", v)
	}
	if score := s.Do(t, http.MethodGet, tb.path("/score"), nil); !sameJSON(t, v.Score, score.Body) {
		t.Errorf("replayed score\n%s\n/score\n%s", v.Score, score.Body)
	}
	t.Run("a record over its limit", func(t *testing.T) {
		big := bytes.Replace(pretty.Bytes(), []byte("\n"), []byte("\n"+strings.Repeat(" ", 80)), -1)
		if len(big) <= api.RecordBodyLimit {
			t.Fatalf("only %d bytes", len(big))
		}
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/records/verify", big), http.StatusRequestEntityTooLarge, "payload_too_large")
	})

	checkTampered(t, s, rec, []tamper{
		boxMoved, appended, catalogChanged, moveDropped,
		{"two moves swapped", func(t *testing.T, r *domain.Record) int64 {
			// The first expedition card is revealed before the display is laid out.
			i, j := firstOf(t, *r, silvergold.MoveDisplay), firstOf(t, *r, silvergold.MoveReveal)
			r.Moves[i].Move, r.Moves[j].Move = r.Moves[j].Move, r.Moves[i].Move
			return int64(min(i, j) + 1)
		}, "illegal_move", "reveal-when-owed"},
		{"a seed added", func(t *testing.T, r *domain.Record) int64 { r.Seed = "x"; return 0 }, "seed_in_physical", ""},
		{"a card reported twice", func(t *testing.T, r *domain.Record) int64 {
			// The first display card is one a player kept.
			i := firstOf(t, *r, silvergold.MoveDisplay)
			m := moveOf(t, *r, i)
			m.Card = moveOf(t, *r, firstOf(t, *r, silvergold.MoveKeep)).Cards[0]
			setMove(t, r, i, m)
			return int64(i + 1)
		}, "illegal_move", "card-in-play"},
	})
}

func TestVerifyRecordBadInput(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "physical", 1, "")
	tb.play(t, tb.host, silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: []string{"grey-01", "grey-02"}})
	rec, r := getRecord(t, tb)
	// The record as a JSON object, to break.
	obj := func(change func(m map[string]any)) map[string]any {
		m := decode[map[string]any](t, r.Body)
		change(m)
		return m
	}

	t.Run("not a record at all", func(t *testing.T) {
		for _, c := range []struct {
			name string
			body any
			code string
		}{
			{"not JSON", `{"format":`, "malformed_json"},
			{"not an object", `["treasury.game-record/v1"]`, "validation_failed"},
			{"no format", obj(func(m map[string]any) { delete(m, "format") }), "validation_failed"},
			{"no moves", obj(func(m map[string]any) { delete(m, "moves") }), "validation_failed"},
			{"an unknown field", obj(func(m map[string]any) { m["winner"] = "Ann" }), "validation_failed"},
			{"an unknown mode", obj(func(m map[string]any) { m["mode"] = "paper" }), "validation_failed"},
			{"a seq that is not a number", obj(func(m map[string]any) { m["moves"].([]any)[0].(map[string]any)["seq"] = "one" }), "validation_failed"},
			{"a time that is not a time", obj(func(m map[string]any) { m["created_at"] = "yesterday" }), "validation_failed"},
			{"a day that does not exist", obj(func(m map[string]any) { m["created_at"] = "2025-02-30T19:30:00Z" }), "invalid"},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantProblem(t, s.Do(t, http.MethodPost, "/v1/records/verify", c.body), http.StatusBadRequest, c.code)
			})
		}
	})

	t.Run("a record that does not hold up is a verdict", func(t *testing.T) {
		for _, c := range []struct {
			name string
			body any
			code string
			seq  int64
		}{
			{"another format", obj(func(m map[string]any) { m["format"] = "treasury.game-record/v0" }), "format", 0},
			{"another ruleset", obj(func(m map[string]any) { m["ruleset"] = "chess" }), "ruleset", 0},
			{"a move that is no move", obj(func(m map[string]any) {
				m["moves"].([]any)[0].(map[string]any)["move"] = map[string]any{"type": "jump", "seat": 0}
			}), "invalid", 1},
			{"a gap in the moves", obj(func(m map[string]any) { m["moves"].([]any)[0].(map[string]any)["seq"] = 7 }), "sequence", 0},
			{"a version that is not the number of moves", obj(func(m map[string]any) { m["version"] = 5 }), "version", 0},
		} {
			t.Run(c.name, func(t *testing.T) {
				v := verify(t, s, c.body)
				if v.Valid || v.Problem == nil || v.Problem.Code != c.code || v.Problem.Seq != c.seq || v.Problem.Reason == "" {
					t.Errorf("verdict %+v, problem %+v; want %s at seq %d", v, v.Problem, c.code, c.seq)
				}
			})
		}
	})

	t.Run("the untouched record is valid", func(t *testing.T) {
		if v := verify(t, s, rec); !v.Valid || v.Moves != 1 {
			t.Errorf("verdict %+v", v)
		}
	})

	t.Run("the record of a game that does not exist", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodGet, "/v1/games/AAAAAAAAAAAAAAAA/record", nil), http.StatusNotFound, "not_found")
		wantProblem(t, s.Do(t, http.MethodGet, "/v1/games/no$such/record", nil), http.StatusBadRequest, "validation_failed")
	})
}
