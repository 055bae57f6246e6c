package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/treasury-games/treasury/domain"
)

const copyUsage = `Usage: treasury copy --from DATABASE --to DATABASE

Copies every game from one store to another: its snapshot, every move, the
hashes of its credentials, its catalog and its idempotency records; then every
group with its members, plays and the games created for it. Either side
is a SQLite file or a postgres:// URL, as --database of treasury serve; the
target is created and migrated if need be. The target may hold other games, but
none of those being copied: if it holds one, nothing is copied.

Each game is copied in one transaction, then read back and compared with the
source. Stop the servers that use the source first: a move made to a game after
it was copied is not copied.

Exit status: 0 everything copied, 1 a failure (the games copied before it stay
in the target; remove them or copy into a fresh target), 2 a usage mistake.
`

// copyCommand is treasury copy.
func copyCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("treasury copy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	from := fs.String("from", "", "the store to copy from")
	to := fs.String("to", "", "the store to copy to")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, copyUsage)
			return nil
		}
		fmt.Fprint(stderr, copyUsage)
		return usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	case *from == "" || *to == "":
		fmt.Fprint(stderr, copyUsage)
		return usageError{errors.New("name both --from and --to")}
	case *from == *to:
		return usageError{errors.New("--from and --to name the same database")}
	}
	if !isPostgres(*from) {
		// Opening a SQLite path creates the file: a typo would copy nothing, successfully.
		if _, err := os.Stat(*from); err != nil {
			return usageError{fmt.Errorf("--from: no SQLite file %s", *from)}
		}
	}
	src, err := openStore(ctx, *from, storeOptions{})
	if err != nil {
		return fmt.Errorf("--from %s: %w", describeDatabase(*from), err)
	}
	defer src.Close()
	dst, err := openStore(ctx, *to, storeOptions{})
	if err != nil {
		return fmt.Errorf("--to %s: %w", describeDatabase(*to), err)
	}
	defer dst.Close()

	st, err := copyGames(ctx, src, dst, func(done, total int) {
		if done%1000 == 0 {
			fmt.Fprintf(stderr, "treasury: %d of %d games copied\n", done, total)
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied %d games (%d moves, %d idempotency records) from %s to %s\n",
		st.games, st.moves, st.keys, describeDatabase(*from), describeDatabase(*to))
	groups, plays, err := copyGroups(ctx, src, dst)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied %d groups (%d plays)\n", groups, plays)
	return nil
}

// copyStats counts what a copy moved.
type copyStats struct{ games, moves, keys int }

// exportingStore is a store games are copied from or to.
type exportingStore interface {
	domain.Store
	domain.Exporter
	domain.Importer
}

// copyGames copies every game of src to dst, after making sure that dst holds
// none of them. Each game is read back from dst and compared with src.
// progress hears how many games are copied after each.
func copyGames(ctx context.Context, src, dst exportingStore, progress func(done, total int)) (copyStats, error) {
	var st copyStats
	ids, err := allGameIDs(ctx, src)
	if err != nil {
		return st, fmt.Errorf("list the source's games: %w", err)
	}
	have, err := allGameIDs(ctx, dst)
	if err != nil {
		return st, fmt.Errorf("list the target's games: %w", err)
	}
	for _, id := range ids {
		if _, found := slices.BinarySearch(have, id); found {
			return st, domain.Fail(domain.Conflict, "table.copy.game-exists", "game", id)
		}
	}
	for _, id := range ids {
		e, err := src.ExportGame(ctx, id)
		if err != nil {
			return st, copyFailed(st, len(ids), id, "read", err)
		}
		if err := dst.ImportGame(ctx, e); err != nil {
			return st, copyFailed(st, len(ids), id, "write", err)
		}
		back, err := dst.ExportGame(ctx, id)
		if err != nil {
			return st, copyFailed(st, len(ids), id, "read back", err)
		}
		if d := exportDiff(e, back); d != "" {
			return st, copyFailed(st, len(ids), id, "check", errors.New("the target holds another game: "+d))
		}
		st.games++
		st.moves += len(e.Moves)
		st.keys += len(e.Idempotency)
		progress(st.games, len(ids))
	}
	return st, nil
}

func copyFailed(st copyStats, total int, id, step string, err error) error {
	return fmt.Errorf("game %s: %s: %w (%d of %d games were copied before it, and stay in the target)", id, step, err, st.games, total)
}

// allGameIDs lists every game of a store, in byte order.
func allGameIDs(ctx context.Context, s domain.Exporter) ([]string, error) {
	const page = 1000
	var ids []string
	for after := ""; ; {
		got, err := s.GameIDs(ctx, after, page)
		if err != nil {
			return nil, err
		}
		ids = append(ids, got...)
		if len(got) < page {
			return ids, nil
		}
		after = got[len(got)-1]
	}
}

// exportDiff names the first difference between two exports of a game, or
// returns "" when they hold the same game.
func exportDiff(a, b domain.GameExport) string {
	ga, gb := a.Game, b.Game
	switch {
	case ga.ID != gb.ID || ga.Ruleset != gb.Ruleset || ga.Mode != gb.Mode || ga.CatalogName != gb.CatalogName ||
		ga.CatalogHash != gb.CatalogHash || ga.Phase != gb.Phase || ga.Ended != gb.Ended || ga.Version != gb.Version:
		return "the game's head differs"
	case !ga.CreatedAt.Equal(gb.CreatedAt) || !ga.UpdatedAt.Equal(gb.UpdatedAt):
		return "the game's times differ"
	case !bytes.Equal(ga.State, gb.State):
		return "the snapshot differs"
	case a.Credentials.HostHash != b.Credentials.HostHash || !slices.Equal(a.Credentials.SeatHashes, b.Credentials.SeatHashes):
		return "the credentials differ"
	case a.Catalog.Name != b.Catalog.Name || a.Catalog.Hash != b.Catalog.Hash || !bytes.Equal(a.Catalog.Content, b.Catalog.Content):
		return "the catalog differs"
	case len(a.Moves) != len(b.Moves):
		return fmt.Sprintf("%d moves, not %d", len(b.Moves), len(a.Moves))
	case len(a.Idempotency) != len(b.Idempotency):
		return fmt.Sprintf("%d idempotency records, not %d", len(b.Idempotency), len(a.Idempotency))
	}
	for i, m := range a.Moves {
		n := b.Moves[i]
		if m.Seq != n.Seq || m.Actor != n.Actor || !m.At.Equal(n.At) || !bytes.Equal(m.Move, n.Move) || !bytes.Equal(m.Events, n.Events) {
			return fmt.Sprintf("move %d differs", m.Seq)
		}
	}
	for i, r := range a.Idempotency {
		q := b.Idempotency[i]
		if r.Scope != q.Scope || r.Key != q.Key || r.RequestHash != q.RequestHash || r.Status != q.Status || !bytes.Equal(r.Response, q.Response) {
			return fmt.Sprintf("idempotency record %q differs", r.Key)
		}
	}
	return ""
}
