package api

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestStreamListingAfterGap: when the last update a step takes was already
// told from the store (an update missing before it, the moves between read
// from the log), the step still tells the seat what it may do now: no later
// update may come to tell it, and a seat the game waits for was left on the
// listing before (issue 28: a table stalled 2 s, then moves picked from
// stale listings were refused).
func TestStreamListingAfterGap(t *testing.T) {
	games := sqliteGames(t)
	c, err := games.Create(t.Context(), silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben"}, Seed: "gap"})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Game.ID
	var seqs []int64
	for seat := range 2 {
		_, l, err := games.LegalMoves(t.Context(), id, domain.SeatViewer(seat), seat)
		if err != nil {
			t.Fatal(err)
		}
		move := firstMove(t, l)
		p, err := games.Play(t.Context(), id, domain.Actor{Seat: seat}, move, domain.PlayOptions{})
		if err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		seqs = append(seqs, p.Seq)
	}
	srv := NewServer(games, Options{})
	conn := &writeCounter{}
	st := &stream{s: srv, conn: conn, chunked: true, id: id, legalSeat: 0, viewer: domain.SeatViewer(0), lastLegal: []byte(`{}`)}
	// The stream told the game before the moves; the update of the first
	// never came, the second's did.
	last := &domain.Update{GameID: id, Seq: seqs[1], Actor: domain.Actor{Seat: 1}}
	if !st.step([]*domain.Update{last}, false, false, false) {
		t.Fatal("the step ended the stream")
	}
	out := conn.got.String()
	if st.sent != seqs[1] {
		t.Errorf("sent %d, want %d", st.sent, seqs[1])
	}
	want := fmt.Sprintf(`"version":%d`, seqs[1])
	i := strings.LastIndex(out, "event: legal_moves\n")
	if i < 0 || !strings.Contains(out[i:], want) {
		t.Errorf("no listing at version %d told after the moves caught up:\n%.600s", seqs[1], out)
	}
}

// firstMove is the first move a listing offers.
func firstMove(t *testing.T, listing []byte) []byte {
	t.Helper()
	var l struct {
		Moves []struct {
			Move json.RawMessage `json:"move"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(listing, &l); err != nil || len(l.Moves) == 0 {
		t.Fatalf("a listing with no move (%v): %.300s", err, listing)
	}
	return l.Moves[0].Move
}

// sqliteGames is a service of Silver & Gold on a new SQLite store.
func sqliteGames(t testing.TB) *service.Games {
	t.Helper()
	store, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return service.New(store, silvergold.NewRules())
}
