// Package storetest is the conformance suite of domain.Store: what every store
// must do, whatever keeps the games. Each store runs it from its own tests:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) domain.Store { … a new, empty store … })
//	}
//
// The optional interfaces (domain.IdempotencyKeyLister, domain.Exporter and
// domain.Importer, and GamesByPhase) are tested when the store has them.
package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// T0 is the creation time of the games NewGame makes: nanoseconds included,
// so that a store that rounds times fails.
var T0 = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)

// Catalog is the catalog of the games NewGame makes.
var Catalog = domain.CatalogBlob{Name: "base-2025", Hash: "c0ffee", Content: []byte("grey-01: xo. / ooc / pooo")}

// NewGame returns a new game of three seats with its credentials and catalog.
func NewGame(id string) (domain.GameRecord, domain.Credentials, domain.CatalogBlob) {
	g := domain.GameRecord{
		ID:          id,
		Ruleset:     "silver-and-gold",
		Mode:        "digital",
		CatalogName: Catalog.Name,
		CatalogHash: Catalog.Hash,
		CreatedAt:   T0,
		UpdatedAt:   T0.Add(time.Millisecond),
		State:       []byte(`{"round":0}`),
		Phase:       "setup",
	}
	creds := domain.Credentials{HostHash: "host-" + id, SeatHashes: []string{"seat0-" + id, "seat1-" + id, "seat2-" + id}}
	return g, creds, Catalog
}

// Move is the append that takes game id from version v to v+1.
func Move(id string, v int64) domain.Append {
	return domain.Append{
		GameID:        id,
		ExpectVersion: v,
		Move: domain.MoveRecord{
			Seq:    v + 1,
			Actor:  domain.Actor{Seat: int(v % 3)},
			Move:   fmt.Appendf(nil, `{"move":%d}`, v+1),
			Events: fmt.Appendf(nil, `[{"type":"e%d"}]`, v+1),
			At:     T0.Add(time.Duration(v+1) * time.Second),
		},
		State: fmt.Appendf(nil, `{"round":%d}`, v+1),
		Phase: "play",
	}
}

// MustCreate stores NewGame(id).
func MustCreate(t testing.TB, s domain.Store, id string) domain.GameRecord {
	t.Helper()
	g, creds, cat := NewGame(id)
	require.NoError(t, s.CreateGame(context.Background(), g, creds, cat))
	return g
}

// AppendN appends the first n moves of game id.
func AppendN(t testing.TB, s domain.Store, id string, n int) {
	t.Helper()
	for v := range int64(n) {
		require.NoError(t, s.Append(context.Background(), Move(id, v)))
	}
}

// RequireCode fails the test unless err carries code.
func RequireCode(t testing.TB, err error, code domain.Code) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, domain.ErrorCode(err), "error: %v", err)
}

// gameCounter is the store's count for the treasury_games metric.
type gameCounter interface {
	CountGames(ctx context.Context) ([]domain.GameCount, error)
}

// Run runs the suite. open returns a new, empty store each time it is called;
// it closes the store when the test ends (the suite closes some itself:
// closing twice must be harmless).
func Run(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("CreateGame", func(t *testing.T) { testCreateGame(t, open) })
	t.Run("Game", func(t *testing.T) { testGame(t, open) })
	t.Run("Credentials", func(t *testing.T) { testCredentials(t, open) })
	t.Run("Catalog", func(t *testing.T) { testCatalog(t, open) })
	t.Run("Moves", func(t *testing.T) { testMoves(t, open) })
	t.Run("Idempotency", func(t *testing.T) { testIdempotency(t, open) })
	t.Run("Append", func(t *testing.T) { testAppend(t, open) })
	t.Run("ConcurrentAppends", func(t *testing.T) { testConcurrentAppends(t, open) })
	t.Run("CountGames", func(t *testing.T) { testCountGames(t, open) })
	t.Run("DeleteIdleGames", func(t *testing.T) { testDeleteIdleGames(t, open) })
	t.Run("MoveAudience", func(t *testing.T) { testMoveAudience(t, open) })
	t.Run("PingAndClose", func(t *testing.T) { testPingAndClose(t, open) })
	t.Run("ExportImport", func(t *testing.T) { testExportImport(t, open) })
	t.Run("JoinCodes", func(t *testing.T) { testJoinCodes(t, open) })
	t.Run("SetSeat", func(t *testing.T) { testSetSeat(t, open) })
	t.Run("NextGame", func(t *testing.T) { testNextGame(t, open) })
	t.Run("Groups", func(t *testing.T) { testGroups(t, open) })
}

func testCreateGame(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("stores every field", func(t *testing.T) {
		s := open(t)
		want, creds, cat := NewGame("g1")
		want.Ended = true
		require.NoError(t, s.CreateGame(t.Context(), want, creds, cat))

		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, want, got)

		gotCreds, err := s.Credentials(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, creds, gotCreds)

		gotCat, err := s.Catalog(t.Context(), cat.Hash)
		require.NoError(t, err)
		assert.Equal(t, cat, gotCat)
	})

	t.Run("zero times become now, in UTC", func(t *testing.T) {
		s := open(t)
		g, creds, cat := NewGame("g1")
		g.CreatedAt, g.UpdatedAt = time.Time{}, time.Time{}
		before := time.Now()
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.WithinRange(t, got.CreatedAt, before, time.Now())
		assert.Equal(t, got.CreatedAt, got.UpdatedAt)
		assert.Equal(t, time.UTC, got.CreatedAt.Location())
	})

	t.Run("an existing id is a conflict and the first game stays", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		g, creds, cat := NewGame("g1")
		g.Phase = "other"
		RequireCode(t, s.CreateGame(t.Context(), g, creds, cat), domain.Conflict)
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, "setup", got.Phase)
	})

	t.Run("a catalog is stored once for many games, the first copy kept", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		g, creds, cat := NewGame("g2")
		cat.Name = "renamed" // same hash: the first copy is kept
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))

		got, err := s.Catalog(t.Context(), Catalog.Hash)
		require.NoError(t, err)
		assert.Equal(t, Catalog, got)
		for _, id := range []string{"g1", "g2"} {
			g, err := s.Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, Catalog.Hash, g.CatalogHash)
		}
	})

	t.Run("a game not at version 0 is refused", func(t *testing.T) {
		s := open(t)
		g, creds, cat := NewGame("g1")
		g.Version = 3
		require.Error(t, s.CreateGame(t.Context(), g, creds, cat))
		_, err := s.Game(t.Context(), "g1")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("a catalog hash that differs from the game's is refused", func(t *testing.T) {
		s := open(t)
		g, creds, cat := NewGame("g1")
		cat.Hash = "other"
		require.Error(t, s.CreateGame(t.Context(), g, creds, cat))
		_, err := s.Game(t.Context(), "g1")
		RequireCode(t, err, domain.NotFound)
	})
}

func testGame(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)

	t.Run("a missing game is not found", func(t *testing.T) {
		_, err := s.Game(t.Context(), "nope")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("times come back in UTC to the nanosecond", func(t *testing.T) {
		g, creds, cat := NewGame("zoned")
		zone := time.FixedZone("UTC+5:30", 5*3600+1800)
		g.CreatedAt = T0.In(zone)
		g.UpdatedAt = T0.In(zone).Add(time.Nanosecond)
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err := s.Game(t.Context(), "zoned")
		require.NoError(t, err)
		assert.Equal(t, T0, got.CreatedAt)
		assert.Equal(t, T0.Add(time.Nanosecond), got.UpdatedAt)
	})

	t.Run("shows the latest append", func(t *testing.T) {
		MustCreate(t, s, "g1")
		AppendN(t, s, "g1", 5)
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(5), got.Version)
		assert.Equal(t, Move("g1", 4).State, got.State)
	})
}

func testCredentials(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)

	t.Run("a missing game is not found", func(t *testing.T) {
		_, err := s.Credentials(t.Context(), "nope")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("host and seats in seat order", func(t *testing.T) {
		g, _, cat := NewGame("g1")
		seats := make([]string, 12) // more than 9, so seat order is numeric
		for i := range seats {
			seats[i] = fmt.Sprintf("hash-%02d", 11-i)
		}
		creds := domain.Credentials{HostHash: "host", SeatHashes: seats}
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err := s.Credentials(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, creds, got)
	})

	t.Run("a credential used twice in one game is refused, and so is the game", func(t *testing.T) {
		g, _, cat := NewGame("twice")
		err := s.CreateGame(t.Context(), g, domain.Credentials{HostHash: "same", SeatHashes: []string{"same"}}, cat)
		require.Error(t, err)
		_, err = s.Game(t.Context(), "twice")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("an empty credential is refused", func(t *testing.T) {
		g, _, cat := NewGame("empty")
		err := s.CreateGame(t.Context(), g, domain.Credentials{HostHash: "h", SeatHashes: []string{"a", ""}}, cat)
		require.Error(t, err)
		_, err = s.Game(t.Context(), "empty")
		RequireCode(t, err, domain.NotFound)
	})
}

func testCatalog(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("a missing hash is not found", func(t *testing.T) {
		s := open(t)
		_, err := s.Catalog(t.Context(), "nope")
		RequireCode(t, err, domain.NotFound)
	})
}

func seqs(ms []domain.MoveRecord) []int64 {
	out := []int64{}
	for _, m := range ms {
		out = append(out, m.Seq)
	}
	return out
}

func testMoves(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)
	MustCreate(t, s, "g1")
	AppendN(t, s, "g1", 10)
	MustCreate(t, s, "empty")

	t.Run("pages in order", func(t *testing.T) {
		for _, tc := range []struct {
			after int64
			limit int
			want  []int64
		}{
			{0, 3, []int64{1, 2, 3}},
			{3, 3, []int64{4, 5, 6}},
			{8, 5, []int64{9, 10}},
			{10, 5, []int64{}},
			{0, 0, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
			{7, -1, []int64{8, 9, 10}},
		} {
			got, err := s.Moves(t.Context(), "g1", tc.after, tc.limit)
			require.NoError(t, err)
			assert.Equal(t, tc.want, seqs(got), "after %d limit %d", tc.after, tc.limit)
		}
	})

	t.Run("every field reads back", func(t *testing.T) {
		got, err := s.Moves(t.Context(), "g1", 4, 1)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, Move("g1", 4).Move, got[0])
	})

	t.Run("a host move reads back as the host's", func(t *testing.T) {
		MustCreate(t, s, "hosted")
		a := Move("hosted", 0)
		a.Move.Actor = domain.Actor{Host: true}
		require.NoError(t, s.Append(t.Context(), a))
		got, err := s.Moves(t.Context(), "hosted", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []domain.MoveRecord{a.Move}, got)
	})

	t.Run("a move without events reads back with an empty list", func(t *testing.T) {
		MustCreate(t, s, "quiet")
		a := Move("quiet", 0)
		a.Move.Events = nil
		require.NoError(t, s.Append(t.Context(), a))
		got, err := s.Moves(t.Context(), "quiet", 0, 0)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.JSONEq(t, `[]`, string(got[0].Events))
	})

	t.Run("a game without moves has none", func(t *testing.T) {
		got, err := s.Moves(t.Context(), "empty", 0, 0)
		require.NoError(t, err)
		assert.Empty(t, got)
	})

	t.Run("a missing game is not found", func(t *testing.T) {
		_, err := s.Moves(t.Context(), "nope", 0, 0)
		RequireCode(t, err, domain.NotFound)
	})
}

func testIdempotency(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("an unknown key gives nil", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		got, err := s.Idempotency(t.Context(), "g1", "seat0", "k1")
		require.NoError(t, err)
		assert.Nil(t, got)
	})

	t.Run("stored with its move and read back, per scope", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		rec := domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh1", Status: 201, Response: []byte(`{"version":1}`)}
		a := Move("g1", 0)
		a.Idempotency = &rec
		require.NoError(t, s.Append(t.Context(), a))

		got, err := s.Idempotency(t.Context(), "g1", "seat0", "k1")
		require.NoError(t, err)
		require.NotNil(t, got)
		assert.Equal(t, rec, *got)

		// The key is per scope: another credential's k1 is another key.
		other, err := s.Idempotency(t.Context(), "g1", "seat1", "k1")
		require.NoError(t, err)
		assert.Nil(t, other)
		// And per game.
		MustCreate(t, s, "g2")
		other, err = s.Idempotency(t.Context(), "g2", "seat0", "k1")
		require.NoError(t, err)
		assert.Nil(t, other)
	})

	t.Run("the keys of a game are listed without their responses", func(t *testing.T) {
		s := open(t)
		lister, ok := s.(domain.IdempotencyKeyLister)
		if !ok {
			t.Skip("the store does not list idempotency keys")
		}
		MustCreate(t, s, "g1")
		MustCreate(t, s, "g2")
		got, err := lister.IdempotencyKeys(t.Context(), "g1")
		require.NoError(t, err)
		assert.Empty(t, got)
		for v, scope := range []string{"seat0", "host"} {
			a := Move("g1", int64(v))
			a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprint("k", v), Scope: scope, RequestHash: fmt.Sprint("rh", v), Status: 200, Response: []byte("r")}
			require.NoError(t, s.Append(t.Context(), a))
		}
		a := Move("g2", 0)
		a.Idempotency = &domain.IdempotencyRecord{Key: "other", Scope: "seat0", RequestHash: "x", Status: 200}
		require.NoError(t, s.Append(t.Context(), a))

		got, err = lister.IdempotencyKeys(t.Context(), "g1")
		require.NoError(t, err)
		assert.ElementsMatch(t, []domain.IdempotencyRecord{
			{Key: "k0", Scope: "seat0", RequestHash: "rh0", Status: 200},
			{Key: "k1", Scope: "host", RequestHash: "rh1", Status: 200},
		}, got)
	})
}

func testAppend(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("stores the move and the game's new state", func(t *testing.T) {
		s := open(t)
		before := MustCreate(t, s, "g1")
		a := Move("g1", 0)
		a.Ended = true
		a.Phase = "scored"
		require.NoError(t, s.Append(t.Context(), a))

		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		want := before
		want.Version, want.State, want.Phase, want.Ended, want.UpdatedAt = 1, a.State, "scored", true, a.Move.At
		assert.Equal(t, want, got)

		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []domain.MoveRecord{a.Move}, moves)
	})

	t.Run("a zero move time becomes now", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		a := Move("g1", 0)
		a.Move.At = time.Time{}
		before := time.Now()
		require.NoError(t, s.Append(t.Context(), a))
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, moves, 1)
		assert.WithinRange(t, moves[0].At, before, time.Now())
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, moves[0].At, g.UpdatedAt)
	})

	t.Run("a stale version is a conflict and changes nothing", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		AppendN(t, s, "g1", 2)
		before, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)

		stale := Move("g1", 1)
		stale.State = []byte("stale")
		RequireCode(t, s.Append(t.Context(), stale), domain.Conflict)
		ahead := Move("g1", 5)
		RequireCode(t, s.Append(t.Context(), ahead), domain.Conflict)

		after, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, before, after)
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []int64{1, 2}, seqs(moves))
	})

	t.Run("a missing game is not found", func(t *testing.T) {
		s := open(t)
		RequireCode(t, s.Append(t.Context(), Move("nope", 0)), domain.NotFound)
	})

	t.Run("a move that does not follow the version is refused", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		a := Move("g1", 0)
		a.Move.Seq = 2
		require.Error(t, s.Append(t.Context(), a))
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Zero(t, got.Version)
	})

	t.Run("a reused idempotency key is a conflict and the move is not stored", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		first := Move("g1", 0)
		first.Idempotency = &domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh1", Status: 200, Response: []byte("one")}
		require.NoError(t, s.Append(t.Context(), first))

		second := Move("g1", 1)
		second.Idempotency = &domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh2", Status: 200, Response: []byte("two")}
		RequireCode(t, s.Append(t.Context(), second), domain.Conflict)

		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(1), got.Version)
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []int64{1}, seqs(moves))
		rec, err := s.Idempotency(t.Context(), "g1", "seat0", "k1")
		require.NoError(t, err)
		assert.Equal(t, "rh1", rec.RequestHash)

		// The game goes on at its version.
		require.NoError(t, s.Append(t.Context(), Move("g1", 1)))
	})
}

func testConcurrentAppends(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("racing appends to one game: exactly one wins each version", func(t *testing.T) {
		const (
			racers   = 6
			versions = 15
		)
		s := open(t)
		MustCreate(t, s, "g1")
		winners := make([]string, versions)
		for v := range int64(versions) {
			var (
				wg    sync.WaitGroup
				won   atomic.Int32
				start = make(chan struct{})
			)
			errs := make([]error, racers)
			for r := range racers {
				wg.Go(func() {
					a := Move("g1", v)
					a.Move.Move = fmt.Appendf(nil, `{"racer":%d}`, r)
					a.Idempotency = &domain.IdempotencyRecord{Key: "same-key", Scope: fmt.Sprint("v", v), RequestHash: fmt.Sprint(r), Status: 200}
					<-start
					errs[r] = s.Append(context.Background(), a)
					if errs[r] == nil {
						won.Add(1)
						winners[v] = string(a.Move.Move)
					}
				})
			}
			close(start)
			wg.Wait()
			require.Equal(t, int32(1), won.Load(), "version %d: %v", v, errs)
			for _, err := range errs {
				if err != nil {
					RequireCode(t, err, domain.Conflict)
				}
			}
		}
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, moves, versions)
		for i, m := range moves {
			assert.Equal(t, int64(i+1), m.Seq)
			assert.Equal(t, winners[i], string(m.Move), "move %d is the acknowledged one", i+1)
			rec, err := s.Idempotency(t.Context(), "g1", fmt.Sprint("v", i), "same-key")
			require.NoError(t, err)
			require.NotNil(t, rec)
			assert.JSONEq(t, winners[i], fmt.Sprintf(`{"racer":%s}`, rec.RequestHash), "the stored key is the winner's")
		}
	})

	t.Run("concurrent appends to many games are all kept in order", func(t *testing.T) {
		const (
			games   = 8
			workers = 24 // 3 per game, racing each other on the same versions
			each    = 8  // accepted appends per worker
		)
		s := open(t)
		for g := range games {
			MustCreate(t, s, fmt.Sprintf("g%02d", g))
		}
		type ack struct {
			seq  int64
			body string
		}
		var (
			mu    sync.Mutex
			acked = map[string][]ack{}
			wg    sync.WaitGroup
		)
		for w := range workers {
			id := fmt.Sprintf("g%02d", w%games)
			wg.Go(func() {
				for i := 0; i < each; {
					g, err := s.Game(context.Background(), id)
					if !assert.NoError(t, err) {
						return
					}
					a := Move(id, g.Version)
					body := fmt.Sprintf(`{"worker":%d,"i":%d}`, w, i)
					a.Move.Move = []byte(body)
					err = s.Append(context.Background(), a)
					if domain.ErrorCode(err) == domain.Conflict {
						continue // another worker took this version; read again
					}
					if !assert.NoError(t, err) {
						return
					}
					mu.Lock()
					acked[id] = append(acked[id], ack{a.Move.Seq, body})
					mu.Unlock()
					i++
				}
			})
		}
		wg.Wait()

		perGame := int64(workers / games * each)
		for g := range games {
			id := fmt.Sprintf("g%02d", g)
			moves, err := s.Moves(t.Context(), id, 0, 0)
			require.NoError(t, err)
			require.Len(t, moves, int(perGame), id)
			bySeq := map[int64]string{}
			for i, m := range moves {
				require.Equal(t, int64(i+1), m.Seq, "%s: versions 1..n without gaps", id)
				bySeq[m.Seq] = string(m.Move)
			}
			require.Len(t, acked[id], int(perGame))
			for _, a := range acked[id] {
				assert.Equal(t, a.body, bySeq[a.seq], "%s: acknowledged move %d", id, a.seq)
			}
			game, err := s.Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, perGame, game.Version)
		}
	})
}

func testCountGames(t *testing.T, open func(t *testing.T) domain.Store) {
	s := open(t)
	pc, ok := s.(gameCounter)
	if !ok {
		t.Skip("the store does not count games")
	}
	t.Run("counts every game under its ruleset and phase", func(t *testing.T) {
		got, err := pc.CountGames(t.Context())
		require.NoError(t, err)
		assert.Empty(t, got)

		for _, id := range []string{"g1", "g2", "g3"} {
			MustCreate(t, s, id) // phase "setup"
		}
		AppendN(t, s, "g2", 2) // phase "play"
		got, err = pc.CountGames(t.Context())
		require.NoError(t, err)
		r := got[0].Ruleset
		assert.ElementsMatch(t, []domain.GameCount{{Ruleset: r, Phase: "setup", Games: 2}, {Ruleset: r, Phase: "play", Games: 1}}, got)
	})

	t.Run("a closed store is unavailable", func(t *testing.T) {
		require.NoError(t, s.Close())
		_, err := pc.CountGames(t.Context())
		RequireCode(t, err, domain.Unavailable)
	})
}

func testPingAndClose(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("an open, migrated store answers", func(t *testing.T) {
		s := open(t)
		require.NoError(t, s.Ping(t.Context()))
	})

	t.Run("a closed store is unavailable to every call", func(t *testing.T) {
		s := open(t)
		MustCreate(t, s, "g1")
		require.NoError(t, s.Close())
		ctx := t.Context()
		RequireCode(t, s.Ping(ctx), domain.Unavailable)
		_, err := s.Game(ctx, "g1")
		RequireCode(t, err, domain.Unavailable)
		_, err = s.Credentials(ctx, "g1")
		RequireCode(t, err, domain.Unavailable)
		_, err = s.Catalog(ctx, Catalog.Hash)
		RequireCode(t, err, domain.Unavailable)
		_, err = s.Moves(ctx, "g1", 0, 0)
		RequireCode(t, err, domain.Unavailable)
		_, err = s.Idempotency(ctx, "g1", "s", "k")
		RequireCode(t, err, domain.Unavailable)
		RequireCode(t, s.Append(ctx, Move("g1", 0)), domain.Unavailable)
		g, creds, cat := NewGame("g2")
		RequireCode(t, s.CreateGame(ctx, g, creds, cat), domain.Unavailable)
	})

	t.Run("closing under load: every call is answered, or refused as unavailable", func(t *testing.T) {
		s := open(t)
		const games = 8
		for g := range games {
			MustCreate(t, s, fmt.Sprint("g", g))
		}
		var (
			wg    sync.WaitGroup
			acked atomic.Int64
		)
		errs := make([]error, games)
		for g := range games {
			wg.Go(func() {
				id := fmt.Sprint("g", g)
				for v := int64(0); ; v++ {
					if errs[g] = s.Append(context.Background(), Move(id, v)); errs[g] != nil {
						return
					}
					if _, errs[g] = s.Game(context.Background(), id); errs[g] != nil {
						return
					}
					acked.Add(1)
				}
			})
		}
		require.Eventually(t, func() bool { return acked.Load() >= 40 }, 10*time.Second, time.Millisecond)
		require.NoError(t, s.Close())
		wg.Wait()
		for _, err := range errs {
			RequireCode(t, err, domain.Unavailable)
		}
	})

	t.Run("closing twice is harmless", func(t *testing.T) {
		s := open(t)
		require.NoError(t, s.Close())
		require.NoError(t, s.Close())
	})
}
