package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/treasury-games/treasury/domain"
	ct "github.com/treasury-games/treasury/domain/colorfultreasure"
)

// A retry with an Idempotency-Key answers with the move's seq and the game as
// it stands at the retry, through the same gate as a read: never the game as
// the move first left it, which may show what is hidden now.

// replayed sends a retry and checks it is one: 200, Idempotency-Replayed,
// the move's seq, and the game as credential reads it now.
func replayed(t *testing.T, tb *table, credential, key string, move any, seq int64) resp {
	t.Helper()
	r := tb.s.Do(t, http.MethodPost, tb.path("/moves"), move, cred(credential), header("Idempotency-Key", key))
	wantStatus(t, r, http.StatusOK)
	if r.Header.Get("Idempotency-Replayed") != "true" {
		t.Fatalf("the retry was not a replay: %v\n%s", r.Header, r.Body)
	}
	var got struct {
		Seq  int64           `json:"seq"`
		Game json.RawMessage `json:"game"`
	}
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatal(err)
	}
	now := tb.s.Do(t, http.MethodGet, tb.path(""), nil, cred(credential))
	wantStatus(t, now, http.StatusOK)
	if got.Seq != seq || !jsonEqual(t, got.Game, now.Body) || r.Header.Get("ETag") != now.Header.Get("ETag") {
		t.Errorf("the retry answered seq %d (want %d), ETag %s (a read: %s), with the game\n%s\nwhere a read now gives\n%s",
			got.Seq, seq, r.Header.Get("ETag"), now.Header.Get("ETag"), got.Game, now.Body)
	}
	return r
}

// TestReplayedFlipShowsCardsNowFaceDown: Ann turns over two gems of
// different colours and takes nothing, so both are face down again; her
// retry of the flip must not say what they are.
func TestReplayedFlipShowsCardsNowFaceDown(t *testing.T) {
	const seed = "ct-replay-seed-3"
	s := newServer(t)
	tb := newCTTable(t, s, "digital", 2, seed, nil)
	dg, _, err := ct.NewRules().Create(domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben"}, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	mirror, _ := ct.Unwrap(dg)
	// Two gems of different colours in different columns, from the grid the
	// seed deals.
	var cards []ct.Pos
	var kinds []ct.Kind
	for c := 0; c < ct.NumWonders && len(cards) < 2; c++ {
		for r, cell := range mirror.Grid[c] {
			k := ct.Kind(cell.Kind)
			if k.IsGem() && (len(kinds) == 0 || kinds[0] != k) {
				cards, kinds = append(cards, ct.Pos{Column: c, Row: r}), append(kinds, k)
				break
			}
		}
	}
	flip := ct.Move{Type: ct.MoveFlip, Seat: ct.SeatPtr(0), Cards: cards}
	first := s.Do(t, http.MethodPost, tb.path("/moves"), flip, cred(tb.seats[0]), header("Idempotency-Key", "ann-flips"))
	wantStatus(t, first, http.StatusOK)
	up := ctGet(t, tb, tb.seats[0])
	for i, p := range cards {
		if got := up.State.Columns[p.Column].Cells[p.Row]; got != kinds[i].String() {
			t.Fatalf("the flip shows %s at %v, the seed deals %s", got, p, kinds[i])
		}
	}
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), ct.Move{Type: ct.MoveCollect, Seat: ct.SeatPtr(0)}, cred(tb.seats[0])), http.StatusOK)
	for _, m := range []*ct.Move{&flip, {Type: ct.MoveCollect, Seat: ct.SeatPtr(0)}} {
		if err := mirror.Play(domain.Actor{Seat: 0}, m); err != nil {
			t.Fatal(err)
		}
	}

	// A second table where the shared device (the host) makes Ann's moves,
	// with its own key.
	tb2 := newCTTable(t, s, "digital", 2, seed, nil)
	wantStatus(t, s.Do(t, http.MethodPost, tb2.path("/moves"), flip, cred(tb2.host), header("Idempotency-Key", "host-flips")), http.StatusOK)
	wantStatus(t, s.Do(t, http.MethodPost, tb2.path("/moves"), ct.Move{Type: ct.MoveCollect, Seat: ct.SeatPtr(0)}, cred(tb2.host)), http.StatusOK)

	for _, c := range []struct {
		name, credential, key string
		tb                    *table
	}{{"Ann", tb.seats[0], "ann-flips", tb}, {"the host", tb2.host, "host-flips", tb2}} {
		t.Run(c.name, func(t *testing.T) {
			r := replayed(t, c.tb, c.credential, c.key, flip, 1)
			if leak := faceDownIn(mirror, r.Body); leak != "" {
				t.Errorf("the retry of the flip names a card face down now: %s\n%s", leak, r.Body)
			}
			g := decode[struct {
				Game ctGameJSON `json:"game"`
			}](t, r.Body).Game
			for _, p := range cards {
				if got := g.State.Columns[p.Column].Cells[p.Row]; got != "down" {
					t.Errorf("the retry shows %s at %v, which is face down", got, p)
				}
			}
			if g.Version != 2 || g.State.Turn != 1 {
				t.Errorf("the retry shows version %d with seat %d on turn, want 2 and Ben's turn", g.Version, g.State.Turn)
			}
			minimal := s.Do(t, http.MethodPost, c.tb.path("/moves"), flip, cred(c.credential), header("Idempotency-Key", c.key), header("Prefer", "return=minimal"))
			wantStatus(t, minimal, http.StatusOK)
			if want := `{"seq":1,"version":2}`; string(minimal.Body) != want+"\n" || minimal.Header.Get("ETag") != `"2"` || minimal.Header.Get("Idempotency-Replayed") != "true" {
				t.Errorf("a minimal retry answered %s %v, want %s with ETag \"2\"", minimal.Body, minimal.Header, want)
			}
			if v := ctGet(t, c.tb, "").Version; v != 2 {
				t.Errorf("the game is at version %d after the retries, want 2", v)
			}
		})
	}
}

// TestReplayedPlaceShowsTheHandNow: a Lucky Treasure Hunter seat's retry of
// a place (which drew cards) answers with its hand as it is now, as a read
// would, not as it was after the draw.
func TestReplayedPlaceShowsTheHandNow(t *testing.T) {
	s := newServer(t)
	tb := newLTH(t, s, "digital", 2, "lth-replay-seed-2", `{}`)
	l, _ := tb.legal(t, tb.seats[0], 0)
	place := tb.choose(l)
	first := s.Do(t, http.MethodPost, tb.path("/moves"), place, cred(tb.seats[0]), header("Idempotency-Key", "ann-places"))
	wantStatus(t, first, http.StatusOK)
	after := decode[struct {
		Game lthGame `json:"game"`
	}](t, first.Body).Game
	// Play on until Ann's hand is not what the place left it.
	for n := 0; ; n++ {
		g, _ := tb.game(t, tb.seats[0])
		if g.Ended || n > 200 {
			t.Fatalf("Ann's hand never changed after her first place (%d moves)", n)
		}
		if fmt.Sprint(g.State.Players[0].Hand) != fmt.Sprint(after.State.Players[0].Hand) {
			break
		}
		tb.step(t)
	}
	replayed(t, tb.table, tb.seats[0], "ann-places", place, 1)
}
