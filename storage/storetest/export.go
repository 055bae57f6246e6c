package storetest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// exporting is a store that can be copied from and to.
type exporting interface {
	domain.Store
	domain.Exporter
	domain.Importer
}

// played stores game id with n moves, the odd ones with an idempotency key,
// and returns what an export of it must hold.
func played(t *testing.T, s domain.Store, id string, n int) domain.GameExport {
	t.Helper()
	g, creds, cat := NewGame(id)
	require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
	want := domain.GameExport{Credentials: creds, Catalog: cat}
	for v := range int64(n) {
		a := Move(id, v)
		if v%2 == 1 {
			a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprintf("k%02d", v), Scope: fmt.Sprint("seat", v%3),
				RequestHash: fmt.Sprint("rh", v), Status: 200, Response: fmt.Appendf(nil, `{"seq":%d}`, v+1)}
			want.Idempotency = append(want.Idempotency, *a.Idempotency)
		}
		if v == 2 {
			a.Move.Actor = domain.Actor{Host: true}
		}
		require.NoError(t, s.Append(t.Context(), a))
		want.Moves = append(want.Moves, a.Move)
	}
	slices.SortFunc(want.Idempotency, func(a, b domain.IdempotencyRecord) int {
		return cmp.Or(strings.Compare(a.Scope, b.Scope), strings.Compare(a.Key, b.Key))
	})
	var err error
	want.Game, err = s.Game(t.Context(), id)
	require.NoError(t, err)
	return want
}

// norm makes empty lists of an export nil, so that exports compare equal
// whether a store reads "none" as nil or as an empty slice.
func norm(e domain.GameExport) domain.GameExport {
	if len(e.Moves) == 0 {
		e.Moves = nil
	}
	if len(e.Idempotency) == 0 {
		e.Idempotency = nil
	}
	return e
}

func testExportImport(t *testing.T, open func(t *testing.T) domain.Store) {
	first := open(t)
	src, ok := first.(exporting)
	if !ok {
		t.Skip("the store does not export and import games")
	}

	t.Run("lists every game in byte order, a page at a time", func(t *testing.T) {
		s := open(t).(exporting)
		ids, err := s.GameIDs(t.Context(), "", 0)
		require.NoError(t, err)
		assert.Empty(t, ids)
		for _, id := range []string{"b", "a", "C", "a-1", "c"} {
			MustCreate(t, s, id)
		}
		ids, err = s.GameIDs(t.Context(), "", 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"C", "a", "a-1", "b", "c"}, ids)
		var paged []string
		for after := ""; ; {
			page, err := s.GameIDs(t.Context(), after, 2)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(page), 2)
			if len(page) == 0 {
				break
			}
			paged = append(paged, page...)
			after = page[len(page)-1]
		}
		assert.Equal(t, ids, paged)
	})

	t.Run("a game exported and imported into another store is the same game", func(t *testing.T) {
		want := played(t, src, "g1", 7)
		played(t, src, "other", 2)

		got, err := src.ExportGame(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, norm(want), norm(got))

		dst := open(t).(exporting)
		require.NoError(t, dst.ImportGame(t.Context(), got))
		again, err := dst.ExportGame(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, norm(want), norm(again))

		// It plays on from where it was, and its keys are still known.
		RequireCode(t, dst.Append(t.Context(), Move("g1", 6)), domain.Conflict)
		require.NoError(t, dst.Append(t.Context(), Move("g1", 7)))
		rec, err := dst.Idempotency(t.Context(), "g1", "seat1", "k01")
		require.NoError(t, err)
		require.NotNil(t, rec)
		assert.Equal(t, `{"seq":2}`, string(rec.Response))
		_, err = dst.Game(t.Context(), "other")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("a game without moves", func(t *testing.T) {
		want := played(t, src, "fresh", 0)
		got, err := src.ExportGame(t.Context(), "fresh")
		require.NoError(t, err)
		assert.Equal(t, norm(want), norm(got))
		dst := open(t).(exporting)
		require.NoError(t, dst.ImportGame(t.Context(), got))
		again, err := dst.ExportGame(t.Context(), "fresh")
		require.NoError(t, err)
		assert.Equal(t, norm(want), norm(again))
	})

	t.Run("a missing game is not found", func(t *testing.T) {
		_, err := src.ExportGame(t.Context(), "nope")
		RequireCode(t, err, domain.NotFound)
	})

	t.Run("importing a game that exists is a conflict and changes nothing", func(t *testing.T) {
		dst := open(t).(exporting)
		played(t, dst, "g1", 2)
		before, err := dst.ExportGame(t.Context(), "g1")
		require.NoError(t, err)
		e, err := src.ExportGame(t.Context(), "g1")
		require.NoError(t, err)
		RequireCode(t, dst.ImportGame(t.Context(), e), domain.Conflict)
		after, err := dst.ExportGame(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, norm(before), norm(after))
	})

	t.Run("an export that does not hold together is invalid and stores nothing", func(t *testing.T) {
		e, err := src.ExportGame(t.Context(), "g1")
		require.NoError(t, err)
		for name, spoil := range map[string]func(e *domain.GameExport){
			"version ahead of the moves": func(e *domain.GameExport) { e.Game.Version++ },
			"a gap in the moves":         func(e *domain.GameExport) { e.Moves[3].Seq = 9 },
			"another catalog":            func(e *domain.GameExport) { e.Catalog.Hash = "other" },
			"no host credential":         func(e *domain.GameExport) { e.Credentials.HostHash = "" },
			"a key twice":                func(e *domain.GameExport) { e.Idempotency[1] = e.Idempotency[0] },
		} {
			t.Run(name, func(t *testing.T) {
				bad := e
				bad.Moves = append([]domain.MoveRecord(nil), e.Moves...)
				bad.Idempotency = append([]domain.IdempotencyRecord(nil), e.Idempotency...)
				spoil(&bad)
				dst := open(t).(exporting)
				RequireCode(t, dst.ImportGame(t.Context(), bad), domain.Invalid)
				_, err := dst.Game(t.Context(), "g1")
				RequireCode(t, err, domain.NotFound)
			})
		}
	})
}
