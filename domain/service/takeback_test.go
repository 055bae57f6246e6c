package service_test

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// listing is a legal-move listing as the table language has it.
type listing struct {
	Moves []domain.LegalMove `json:"moves"`
	Pools domain.Pools       `json:"pools"`
}

func listed(t testing.TB, s *service.Games, id string, v domain.Viewer, seat int) listing {
	t.Helper()
	_, b, err := s.LegalMoves(t.Context(), id, v, seat)
	require.NoError(t, err)
	var l listing
	require.NoError(t, json.Unmarshal(b, &l))
	return l
}

// takeBacks returns the take-back entries of a listing.
func takeBacks(l listing) []domain.LegalMove {
	var out []domain.LegalMove
	for _, m := range l.Moves {
		if domain.IsTakeBack(m.Move) {
			out = append(out, m)
		}
	}
	return out
}

// playFirst plays, for the first actor the game awaits, a move its listing
// offers (not a take-back), completed at random; it returns the actor.
func playFirst(t testing.TB, s *service.Games, id string, r *rand.Rand) domain.Actor {
	t.Helper()
	actor, m := firstMove(t, s, id, r)
	_, err := s.Play(t.Context(), id, actor, m, domain.PlayOptions{})
	require.NoError(t, err, "move %s", m)
	return actor
}

// firstMove picks, for the first actor the game awaits, a move its listing
// offers (not a take-back), completed at random.
func firstMove(t testing.TB, s *service.Games, id string, r *rand.Rand) (domain.Actor, []byte) {
	t.Helper()
	g, err := s.Game(t.Context(), id, domain.HostViewer)
	require.NoError(t, err)
	require.NotEmpty(t, g.Awaiting)
	aw := g.Awaiting[0]
	actor, v, seat := domain.Actor{Host: true}, domain.HostViewer, -1
	if aw.Actor == domain.ActorSeat {
		actor, v, seat = domain.Actor{Seat: *aw.Seat}, domain.SeatViewer(*aw.Seat), *aw.Seat
	}
	l := listed(t, s, id, v, seat)
	var ready []domain.LegalMove
	for _, m := range l.Moves {
		if !domain.IsTakeBack(m.Move) {
			ready = append(ready, m)
		}
	}
	require.NotEmpty(t, ready, "the listing of %+v offers nothing", aw)
	m, err := ready[r.IntN(len(ready))].Complete(l.Pools, r)
	require.NoError(t, err)
	return actor, m
}

// TestTakeBacksWhileMovesPending: while a move is on its way to the store,
// the host's and the seats' listings (read at the committed version, take-backs
// included) are those a server that never saw the game reads from the store,
// over a physical game of four, longer than the log an entry keeps, and
// listings read at once (as a table's streams read them after a move) all
// succeed.
func TestTakeBacksWhileMovesPending(t *testing.T) {
	ctx := t.Context()
	h := newHeldStore()
	s := service.New(h, rulesets.All()...)
	c, err := s.Create(ctx, "silver-and-gold", domain.CreateRequest{Mode: domain.Physical, Players: []string{"Ann", "Bob", "Cid", "Dee"}})
	require.NoError(t, err)
	id := c.Game.ID
	r := rand.New(rand.NewPCG(5, 6))
	viewers := []struct {
		v    domain.Viewer
		seat int
	}{{domain.HostViewer, -1}, {domain.SeatViewer(0), 0}, {domain.SeatViewer(1), 1}}
	offered := 0
	n := 1
	for ; n <= 3*domain.TakeBackWindow; n++ {
		g, err := s.Game(ctx, id, domain.Public)
		require.NoError(t, err)
		if g.Ended {
			break
		}
		actor, m := firstMove(t, s, id, r)
		played := make(chan error, 1)
		go func() {
			_, err := s.Play(ctx, id, actor, m, domain.PlayOptions{})
			played <- err
		}()
		h.waitQueued(t, 1)
		fresh := service.New(h, rulesets.All()...) // reads everything from the store
		for _, x := range viewers {
			_, got, err := s.LegalMoves(ctx, id, x.v, x.seat)
			require.NoError(t, err)
			_, want, err := fresh.LegalMoves(ctx, id, x.v, x.seat)
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(got), "move %d pending, listing of seat %d", n, x.seat)
			var l listing
			require.NoError(t, json.Unmarshal(got, &l))
			offered += len(takeBacks(l))
		}
		// Read at once, as the streams of a table do after a move.
		var wg sync.WaitGroup
		for _, x := range viewers {
			wg.Go(func() {
				_, _, err := s.LegalMoves(ctx, id, x.v, x.seat)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		h.commit(1, nil)
		require.NoError(t, <-played, "move %d", n)
	}
	assert.Positive(t, offered, "the listings offered take-backs")
}

func newTakeBackService(t *testing.T) *service.Games {
	t.Helper()
	store, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "treasury.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return service.New(store, rulesets.All()...)
}

// TestTakeBackDigitalSilverGold: a seat takes back its keep while the other
// seat has not kept (the listing offers it, the other seat is refused, the
// stream says what was taken back); once every seat has kept (the cards are
// shown and the display dealt) nothing can be taken back.
func TestTakeBackDigitalSilverGold(t *testing.T) {
	ctx := t.Context()
	s := newTakeBackService(t)
	c, err := s.Create(ctx, "silver-and-gold", domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob"}})
	require.NoError(t, err)
	id := c.Game.ID
	live, stop := s.Subscribe(id)
	defer stop()
	r := rand.New(rand.NewPCG(1, 2))

	before, err := s.Game(ctx, id, domain.SeatViewer(0))
	require.NoError(t, err)
	l := listed(t, s, id, domain.SeatViewer(0), 0)
	m, err := l.Moves[0].Complete(l.Pools, r)
	require.NoError(t, err)
	_, err = s.Play(ctx, id, domain.Actor{Seat: 0}, m, domain.PlayOptions{})
	require.NoError(t, err)
	<-live

	tb := takeBacks(listed(t, s, id, domain.SeatViewer(0), 0))
	require.Len(t, tb, 1, "Ann's listing offers to take back her keep")
	assert.JSONEq(t, `{"type":"take_back","version":1}`, string(tb[0].Move))
	assert.Equal(t, "Undo: take back keep by Ann (move 1)", tb[0].Label)
	assert.NotNil(t, tb[0].LabelMessage, "the label comes with its message")
	assert.Equal(t, "Rückgängig: keep von Ann (Zug 1) zurücknehmen", germanLabel(t, tb[0]))
	assert.Empty(t, takeBacks(listed(t, s, id, domain.SeatViewer(1), 1)), "Bob has nothing to take back")

	_, err = s.Play(ctx, id, domain.Actor{Seat: 1}, tb[0].Move, domain.PlayOptions{})
	assert.Equal(t, domain.IllegalMove, domain.ErrorCode(err))
	assert.Equal(t, "take-back-own", domain.ErrorRule(err), "%v", err)

	p, err := s.Play(ctx, id, domain.Actor{Seat: 0}, tb[0].Move, domain.PlayOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, p.Seq)
	assert.JSONEq(t, string(before.State), string(p.Game.State), "Ann sees the game as before her keep")
	u := <-live
	require.NotEmpty(t, u.Events)
	assert.Equal(t, domain.EventTakenBack, u.Events[0].Type)
	var ev domain.TakenBack
	require.NoError(t, json.Unmarshal(u.Events[0].Data, &ev))
	assert.Equal(t, []int64{1}, ev.Versions)
	assert.Equal(t, "setup", ev.Phase)
	assert.Equal(t, "Undo: take back keep by Ann (move 1)", ev.Label)
	assert.NotNil(t, ev.LabelMessage, "the taken_back event's label comes with its message")
	assert.Equal(t, "Rückgängig: keep von Ann (Zug 1) zurücknehmen", germanLabel(t, u.Events[0].Data))
	assert.Len(t, ev.Awaiting, 2, "both seats owe a keep again")

	_, err = s.Play(ctx, id, domain.Actor{Seat: 0}, tb[0].Move, domain.PlayOptions{})
	assert.Equal(t, "take-back-standing", domain.ErrorRule(err), "a take-back sent twice is refused: %v", err)

	playFirst(t, s, id, r)
	playFirst(t, s, id, r)
	g, err := s.Game(ctx, id, domain.HostViewer)
	require.NoError(t, err)
	require.NotEqual(t, "setup", g.Phase)
	assert.Empty(t, takeBacks(listed(t, s, id, domain.SeatViewer(0), 0)))
	assert.Empty(t, takeBacks(listed(t, s, id, domain.SeatViewer(1), 1)))
	_, err = s.Play(ctx, id, domain.Actor{Seat: 1}, []byte(`{"type":"take_back","version":4}`), domain.PlayOptions{})
	assert.Equal(t, "take-back-sealed", domain.ErrorRule(err), "%v", err)

	moves, err := s.Moves(ctx, id, 0, 0, domain.Public)
	require.NoError(t, err)
	require.Len(t, moves, 4)
	assert.JSONEq(t, `{"type":"take_back","version":1,"versions":[1]}`, string(moves[1].Move), "the log keeps the take-back and what it took back")
}

// BenchmarkLegalMovesTakeBacks measures a listing read through the service,
// which reads the game's latest moves (domain.TakeBackWindow at most) to add
// the take-backs its reader may make, in a physical Silver & Gold game in
// its first turns: the host's listing (corrections of the current turn) and
// a seat's.
func BenchmarkLegalMovesTakeBacks(b *testing.B) {
	store, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "treasury.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	s := service.New(store, rulesets.All()...)
	c, err := s.Create(b.Context(), "silver-and-gold", domain.CreateRequest{Mode: domain.Physical, Players: []string{"Ann", "Bob"}})
	if err != nil {
		b.Fatal(err)
	}
	id := c.Game.ID
	r := rand.New(rand.NewPCG(3, 4))
	for range 12 {
		playFirst(b, s, id, r)
	}
	for _, x := range []struct {
		name string
		v    domain.Viewer
		seat int
	}{{"host", domain.HostViewer, -1}, {"seat", domain.SeatViewer(0), 0}} {
		b.Run(x.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.LegalMoves(b.Context(), id, x.v, x.seat); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendTakeBacks joins a seat's take-back to its listing, as its
// event stream does to tell a listing with one: a Silver & Gold seat's
// listing in a digital game of four after the seats kept their cards
// (crossings listed), scanned for the end of its moves.
func BenchmarkAppendTakeBacks(b *testing.B) {
	s, _ := newService(b, filepath.Join(b.TempDir(), "t.db"))
	id, keeps := newTable(b, s)
	for seat, k := range keeps {
		if _, err := s.Play(b.Context(), id, domain.Actor{Seat: seat}, k, domain.PlayOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	_, listing, _, err := s.LegalMovesParts(b.Context(), id, domain.SeatViewer(0), 0)
	if err != nil {
		b.Fatal(err)
	}
	entries := []json.RawMessage{json.RawMessage(`{"move":{"type":"take_back","version":4},"label":"Take back: Ann keeps two cards","correction":false}`)}
	b.ReportMetric(float64(len(listing)), "listing-bytes")
	buf := make([]byte, 0, 2*len(listing))
	for b.Loop() {
		if _, err := service.AppendTakeBacks(buf[:0], listing, entries); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTakeBackRetried: a take-back sent again with its Idempotency-Key is
// answered as the first one, and takes back nothing more.
func TestTakeBackRetried(t *testing.T) {
	ctx := t.Context()
	s := newTakeBackService(t)
	c, err := s.Create(ctx, "silver-and-gold", domain.CreateRequest{Mode: domain.Physical, Players: []string{"Ann", "Bob"}})
	require.NoError(t, err)
	id := c.Game.ID
	r := rand.New(rand.NewPCG(7, 8))
	playFirst(t, s, id, r)
	playFirst(t, s, id, r)
	opt := domain.PlayOptions{IdempotencyKey: "undo-1"}
	first, err := s.Play(ctx, id, domain.Actor{Host: true}, []byte(`{"type":"take_back","version":2}`), opt)
	require.NoError(t, err)
	again, err := s.Play(ctx, id, domain.Actor{Host: true}, []byte(`{"type":"take_back","version":2}`), opt)
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, first.Seq, again.Seq)
	moves, err := s.Moves(ctx, id, 0, 0, domain.HostViewer)
	require.NoError(t, err)
	assert.Len(t, moves, 3, "two moves and one take-back")
}

// germanLabel returns the label of v (a listing entry or event data) as the
// API sends it to a German table.
func germanLabel(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out struct {
		Label string `json:"label"`
	}
	require.NoError(t, json.Unmarshal(i18n.Localize("de", b), &out))
	return out.Label
}
