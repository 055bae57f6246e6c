package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// Lucky Treasure Hunter played whole through the API: a 6-player digital
// game and a 3-player physical one.

type lthGame struct {
	ID      string                   `json:"id"`
	Version int64                    `json:"version"`
	Ended   bool                     `json:"ended"`
	Seed    string                   `json:"seed"`
	Options map[string]int           `json:"options"`
	State   luckytreasurehunter.View `json:"state"`
}

// lthTable is a Lucky Treasure Hunter game over the API with every credential.
type lthTable struct {
	*table
	names []string
	r     *rand.Rand
}

func newLTH(t *testing.T, s *server, mode string, n int, seed string, options string) *lthTable {
	t.Helper()
	names := []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay"}[:n]
	ps := make([]map[string]string, n)
	for i := range ps {
		ps[i] = map[string]string{"name": names[i]}
	}
	body := map[string]any{"ruleset": luckytreasurehunter.RulesetName, "mode": mode, "players": ps, "options": json.RawMessage(options)}
	if seed != "" {
		body["seed"] = seed
	}
	r := s.Do(t, http.MethodPost, "/v1/games", body)
	wantStatus(t, r, http.StatusCreated)
	c := decode[struct {
		Game        lthGame `json:"game"`
		Credentials struct {
			Host  string   `json:"host"`
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}](t, r.Body)
	return &lthTable{table: &table{s: s, id: c.Game.ID, host: c.Credentials.Host, seats: c.Credentials.Seats}, names: names,
		r: rand.New(rand.NewPCG(uint64(n), 9))}
}

func (tb *lthTable) game(t *testing.T, credential string) (lthGame, resp) {
	t.Helper()
	var opts []opt
	if credential != "" {
		opts = append(opts, cred(credential))
	}
	r := tb.s.Do(t, http.MethodGet, tb.path(""), nil, opts...)
	wantStatus(t, r, http.StatusOK)
	return decode[lthGame](t, r.Body), r
}

func (tb *lthTable) legal(t *testing.T, credential string, seat int) (luckytreasurehunter.Legal, resp) {
	t.Helper()
	q := ""
	if seat >= 0 {
		q = fmt.Sprintf("?seat=%d", seat)
	}
	r := tb.s.Do(t, http.MethodGet, tb.path("/legal-moves"+q), nil, cred(credential))
	wantStatus(t, r, http.StatusOK)
	return decode[luckytreasurehunter.Legal](t, r.Body), r
}

func (tb *lthTable) move(t *testing.T, credential string, m any) resp {
	t.Helper()
	return tb.s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(credential))
}

// choose picks a move from a listing as a careful player would: a random
// placement, the steal worth the most by size times chance, and going on
// after a failed roll only at even odds or better.
func (tb *lthTable) choose(l luckytreasurehunter.Legal) map[string]any {
	best, val := -1, -1.0
	for i, o := range l.Moves {
		if o.Correction {
			continue // a take-back puts a slip right; this table makes none
		}
		c := 0.0
		if o.Chance != nil {
			c = *o.Chance
		} else if o.ChanceWithoutCards != nil {
			c = *o.ChanceWithoutCards
		}
		switch l.Step {
		case "place":
			c = tb.r.Float64()
		case "steal":
			c *= float64(o.Size)
		default:
			if o.Type == "stop" {
				c = 0.5
			}
		}
		if c > val {
			best, val = i, c
		}
	}
	o := l.Moves[best]
	m := map[string]any{"type": o.Type, "seat": *o.Seat}
	switch o.Type {
	case "place":
		m["treasure"], m["count"] = o.Treasure, o.Count
	case "steal":
		m["set"] = *o.Set
		if o.Owner != nil {
			m["owner"] = *o.Owner
		}
	case "reroll":
		m["dice"] = o.Dice
	}
	return m
}

// step plays the next move: the table's report when one is owed, else the
// move of the seat on turn with its own credential. It returns false once
// the game has ended.
func (tb *lthTable) step(t *testing.T) bool {
	t.Helper()
	g, _ := tb.game(t, tb.host)
	if g.Ended {
		return false
	}
	if l, _ := tb.legal(t, tb.host, -1); len(l.Moves) > 0 && !l.Moves[0].Correction { // a mis-draw report is never owed
		o := l.Moves[0]
		m := map[string]any{"type": o.Type}
		if o.Type == "roll" {
			faces := []string{}
			for range o.Dice {
				faces = append(faces, []string{"pirate", "blank"}[tb.r.IntN(2)])
			}
			m["faces"] = faces
		} else {
			m["cards"] = []string{"ruby", "ruby", "jade"}
		}
		wantStatus(t, tb.move(t, tb.host, m), http.StatusOK)
		return true
	}
	seat := g.State.Turn
	l, _ := tb.legal(t, tb.seats[seat], seat)
	if len(l.Moves) == 0 {
		t.Fatalf("seat %d is on turn at step %s but has no move", seat, g.State.Phase)
	}
	wantStatus(t, tb.move(t, tb.seats[seat], tb.choose(l)), http.StatusOK)
	return true
}

// secretsOf returns what only seat may read now, as its own view shows it:
// its hand as a view writes it, and the cards it drew as its private event
// and its log entries write them.
func (tb *lthTable) secretsOf(t *testing.T, seat int) [][]byte {
	g, _ := tb.game(t, tb.seats[seat])
	p := g.State.Players[seat]
	if p.Hand == nil {
		t.Fatalf("seat %d does not see its own hand", seat)
	}
	name, _ := json.Marshal(p.Name)
	return [][]byte{
		[]byte(fmt.Sprintf(`"name":%s,"hand_size":%d,"hand":`, name, p.HandSize)),
		[]byte(fmt.Sprintf(`{"seat":%d,"cards":[`, seat)),
		[]byte(fmt.Sprintf(`"seat":%d,"drawn":`, seat)),
	}
}

// checkSecrets reads what every other viewer can read (the game, the legal
// moves, and with log set the move log and events caught up) and fails on
// any of seat's secrets, the seed, or the remaining pile's order.
func (tb *lthTable) checkSecrets(t *testing.T, seed string, log bool) {
	t.Helper()
	g, _ := tb.game(t, tb.host)
	if g.Ended {
		return
	}
	var forbidden [][]byte
	if seed != "" {
		forbidden = append(forbidden, []byte(seed))
		full := luckytreasurehunter.DealtPile(seed, len(tb.seats))
		if n := g.State.PileSize; n > 5 {
			pile, _ := json.Marshal(full[len(full)-n:])
			forbidden = append(forbidden, pile[1:len(pile)-1])
		}
	}
	secrets := make([][][]byte, len(tb.seats))
	for i := range tb.seats {
		if seed != "" {
			secrets[i] = tb.secretsOf(t, i)
		}
	}
	viewers := append([]string{"", tb.host}, tb.seats...)
	for vi, c := range viewers {
		var answers []resp
		_, r := tb.game(t, c)
		answers = append(answers, r)
		if c != "" {
			seat := -1 // a seat lists its own moves
			if c == tb.host {
				seat = g.State.Turn
			}
			_, r = tb.legal(t, c, seat)
			if c == tb.host && bytes.Contains(r.Body, []byte(`"chance":`)) {
				t.Errorf("the host's listing holds a chance that depends on a hand: %s", r.Body)
			}
			answers = append(answers, r)
		}
		if log {
			var opts []opt
			if c != "" {
				opts = append(opts, cred(c))
			}
			answers = append(answers, tb.s.Do(t, http.MethodGet, tb.path("/moves"), nil, opts...))
			answers = append(answers, tb.s.Do(t, http.MethodGet, tb.path("/record"), nil, opts...))
		}
		for _, a := range answers {
			for _, f := range forbidden {
				if bytes.Contains(a.Body, f) {
					t.Fatalf("viewer %d reads %s: %.400s", vi, f, a.Body)
				}
			}
			for s, sec := range secrets {
				if vi == s+2 {
					continue // its own
				}
				for _, f := range sec {
					if bytes.Contains(a.Body, f) {
						t.Fatalf("viewer %d reads seat %d's %s: %.400s", vi, s, f, a.Body)
					}
				}
			}
		}
	}
}

func TestLuckyTreasureHunterDigital(t *testing.T) {
	const seed = "lth-http-seed-6"
	s := newServer(t)
	tb := newLTH(t, s, "digital", 6, seed, `{"captain_heart":2}`)
	g, _ := tb.game(t, "")
	if g.State.Turn != 2 || g.State.PirateFaces != 3 || g.Options["captain_heart"] != 2 || g.Options["pirate_faces"] != 3 {
		t.Fatalf("options not applied with their defaults: %+v %+v", g.Options, g.State)
	}

	// The host may not play from a hand it does not see.
	l, _ := tb.legal(t, tb.seats[2], 2)
	place := tb.choose(l)
	wantProblem(t, tb.move(t, tb.host, place), http.StatusForbidden, "forbidden")
	// A seat may not place more than it holds.
	wantProblem(t, tb.move(t, tb.seats[2], map[string]any{"type": "place", "seat": 2, "treasure": "ruby", "count": 5 + 1}), http.StatusUnprocessableEntity, "illegal_move")

	// Live streams: the host's, and two seats'.
	path := tb.path("/events")
	streams := map[int]*stream{-1: openStream(t, s, path+"?access_token="+tb.host)}
	for _, seat := range []int{0, 3} {
		streams[seat] = openStream(t, s, path, "Authorization", "Bearer "+tb.seats[seat])
	}

	moves := 0
	for tb.step(t) {
		moves++
		if moves > 2000 {
			t.Fatal("the game did not end")
		}
		tb.checkSecrets(t, seed, moves%15 == 1)
	}
	t.Logf("a 6-player digital game of %d moves", moves)

	// Each stream told its seat, and only its seat, the cards it drew; the
	// host heard of none.
	for seat, st := range streams {
		drawn, rolls := 0, 0
		for {
			ev, ok := st.next(t)
			if !ok {
				t.Fatalf("stream of seat %d ended before the game did", seat)
			}
			switch ev.Type {
			case "cards_drawn":
				var d struct{ Seat int }
				_ = json.Unmarshal(ev.Data, &d)
				if d.Seat != seat {
					t.Errorf("the stream of viewer %d was told seat %d's draw: %s", seat, d.Seat, ev.Data)
				}
				drawn++
			case "dice_rolled":
				rolls++
			}
			if ev.Type == "game_ended" {
				break
			}
		}
		if rolls == 0 || (seat >= 0) != (drawn > 0) {
			t.Errorf("viewer %d heard %d rolls and %d of its own draws", seat, rolls, drawn)
		}
	}
	g, _ = tb.game(t, "")
	if !g.Ended || g.Seed != seed || g.State.PileSize != 0 || g.State.Turns%6 != 0 {
		t.Fatalf("ended game: ended %v seed %q pile %d turns %d", g.Ended, g.Seed, g.State.PileSize, g.State.Turns)
	}
	for _, p := range g.State.Players {
		if p.Hand == nil {
			t.Errorf("seat %d's hand is not shown once the game has ended", p.Seat)
		}
	}

	rec, r := getRecord(t, tb.table)
	if rec.Ruleset != luckytreasurehunter.RulesetName || len(rec.Moves) != moves || !bytes.Contains(r.Body, []byte(`"drawn":`)) {
		t.Fatalf("record of %d moves (played %d), draws shown: %v", len(rec.Moves), moves, bytes.Contains(r.Body, []byte(`"drawn":`)))
	}
	v := verify(t, s, json.RawMessage(r.Body))
	if !v.Valid || v.Moves != moves {
		t.Fatalf("online verdict %+v", v)
	}
	score := s.Do(t, http.MethodGet, tb.path("/score"), nil)
	if !sameJSON(t, v.Score, score.Body) {
		t.Errorf("replayed score\n%s\n/score\n%s", v.Score, score.Body)
	}
	if off := domain.VerifyRecord(rulesets.All(), rec); !off.Valid || off.Moves != moves {
		t.Fatalf("offline verdict %+v", off)
	}
	// A die changed in the record is caught: the seed rolls otherwise.
	for i, m := range rec.Moves {
		if !bytes.Contains(m.Move, []byte(`"faces":["pirate"`)) {
			continue
		}
		bad := rec
		bad.Moves = append([]domain.RecordMove(nil), rec.Moves...)
		bad.Moves[i].Move = json.RawMessage(strings.Replace(string(m.Move), `"faces":["pirate"`, `"faces":["blank"`, 1))
		v := domain.VerifyRecord(rulesets.All(), bad)
		if v.Valid || v.Problem == nil || v.Problem.Seq != int64(i+1) {
			t.Errorf("a changed die verifies: %+v", v)
		}
		break
	}
}

func TestLuckyTreasureHunterPhysical(t *testing.T) {
	s := newServer(t)
	tb := newLTH(t, s, "physical", 3, "", `{"pirate_faces":2}`)
	g, _ := tb.game(t, "")
	if g.State.Phase != "setup" {
		t.Fatalf("phase %s: the table reports the middle first", g.State.Phase)
	}
	// Impossible reports are refused with the rule broken.
	for _, c := range []struct {
		credential string
		move       string
		status     int
		code, rule string
	}{
		{tb.host, `{"type":"lth_middle","cards":["ruby","gold"]}`, 400, "validation_failed", ""},
		{tb.seats[0], `{"type":"lth_middle","cards":["ruby","gold","jade"]}`, 403, "forbidden", ""},
		{tb.host, `{"type":"roll","faces":["pirate"]}`, 422, "illegal_move", "roll-when-asked"},
		{tb.seats[0], `{"type":"place","seat":0,"treasure":"ruby","count":1}`, 422, "illegal_move", "setup"},
	} {
		p := wantProblem(t, tb.move(t, c.credential, json.RawMessage(c.move)), c.status, c.code)
		if p.Rule != c.rule {
			t.Errorf("%s: rule %q, want %q (%s)", c.move, p.Rule, c.rule, p.Detail)
		}
	}
	wantStatus(t, tb.move(t, tb.host, json.RawMessage(`{"type":"lth_middle","cards":["ruby","ruby","jade"]}`)), http.StatusOK)
	g, _ = tb.game(t, "")
	if len(g.State.Middle) != 2 || g.State.Middle[0].Size != 2 {
		t.Fatalf("middle %+v: the two rubies form one set", g.State.Middle)
	}
	// A seat cannot place more of a type than remain unseen, nor more than its hand.
	wantProblem(t, tb.move(t, tb.seats[0], json.RawMessage(`{"type":"place","seat":0,"treasure":"ruby","count":6}`)), 422, "illegal_move")
	// The host reports for a seat at a physical table.
	wantStatus(t, tb.move(t, tb.host, json.RawMessage(`{"type":"place","seat":0,"treasure":"jade","count":2}`)), http.StatusOK)
	wantStatus(t, tb.move(t, tb.seats[0], json.RawMessage(`{"type":"steal","seat":0,"set":0}`)), http.StatusOK)
	p := wantProblem(t, tb.move(t, tb.host, json.RawMessage(`{"type":"roll","faces":["pirate","blank","pirate"]}`)), 422, "illegal_move")
	if p.Rule != "roll-dice" {
		t.Errorf("a roll of 3 dice for a set of 2: rule %q", p.Rule)
	}

	moves := 0
	for tb.step(t) {
		moves++
		if moves > 2000 {
			t.Fatal("the game did not end")
		}
	}
	t.Logf("a 3-player physical game of %d moves", moves)
	g, _ = tb.game(t, "")
	score := decode[luckytreasurehunter.Score](t, s.Do(t, http.MethodGet, tb.path("/score"), nil).Body)
	if !g.Ended || !score.Final || g.State.Turns%3 != 0 {
		t.Fatalf("ended %v, final %v, turns %d", g.Ended, score.Final, g.State.Turns)
	}

	// The paper tally of the table checks out and ranks as the server does.
	sheet := luckytreasurehunter.Sheet{Ruleset: luckytreasurehunter.RulesetName}
	for _, pl := range g.State.Players {
		sp := luckytreasurehunter.SheetPlayer{Name: pl.Name, CaptainUsed: pl.CaptainUsed, Sets: []luckytreasurehunter.SheetSet{}}
		for _, st := range pl.Sets {
			sp.Sets = append(sp.Sets, luckytreasurehunter.SheetSet{Treasure: st.Treasure.String(), Size: st.Size})
		}
		total := score.Players[pl.Seat].Total
		sp.Total = &total
		sheet.Players = append(sheet.Players, sp)
	}
	r := s.Do(t, http.MethodPost, "/v1/score-sheets/verify?ruleset="+luckytreasurehunter.RulesetName, sheet)
	wantStatus(t, r, http.StatusOK)
	res := decode[luckytreasurehunter.SheetResult](t, r.Body)
	if !res.Valid || !reflect.DeepEqual(res.Ranking, score.Ranking) {
		t.Errorf("tally: valid %v, ranking %+v; the game's %+v; findings %+v", res.Valid, res.Ranking, score.Ranking, res.Findings)
	}
	*sheet.Players[0].Total++
	res = decode[luckytreasurehunter.SheetResult](t, s.Do(t, http.MethodPost, "/v1/score-sheets/verify?ruleset="+luckytreasurehunter.RulesetName, sheet).Body)
	if res.Valid || len(res.Findings) != 1 || res.Findings[0].Code != luckytreasurehunter.FindingTotalMismatch {
		t.Errorf("a miscounted total: %+v", res.Findings)
	}
	rec, _ := getRecord(t, tb.table)
	if v := domain.VerifyRecord(rulesets.All(), rec); !v.Valid {
		t.Errorf("the physical record does not replay: %+v", v)
	}
}
