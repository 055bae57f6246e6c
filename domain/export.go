package domain

import "context"

// GameExport is everything a store keeps about one game: what moves it from
// one store to another (treasury copy).
type GameExport struct {
	Game        GameRecord
	Credentials Credentials
	Catalog     CatalogBlob
	Moves       []MoveRecord        // every move, Seq 1..Game.Version
	Idempotency []IdempotencyRecord // responses included, ordered by scope then key
}

// Exporter is a Store that can list its games and read each one whole.
type Exporter interface {
	// GameIDs returns up to limit ids of stored games greater than after,
	// in byte order: pass the last id of one page to get the next.
	GameIDs(ctx context.Context, after string, limit int) ([]string, error)
	// ExportGame reads everything stored about one game as of one moment
	// (NotFound for a missing game).
	ExportGame(ctx context.Context, id string) (GameExport, error)
}

// Importer is a Store that can take a whole game in one transaction.
type Importer interface {
	// ImportGame stores a game with its moves, credentials, catalog and
	// idempotency records, all or nothing: Conflict when a game with its id
	// exists, Invalid when the export does not hold together (Check).
	ImportGame(ctx context.Context, e GameExport) error
}

// Check says whether an export holds together: an id, a version equal to
// the number of moves, moves numbered 1, 2, 3 …, the catalog the game names,
// a credential for the host and every seat, and each idempotency key once.
// Stores call it before they import.
func (e *GameExport) Check() error {
	g := &e.Game
	switch {
	case g.ID == "":
		return Fail(Invalid, "table.import.no-id")
	case g.Version != int64(len(e.Moves)):
		return Fail(Invalid, "table.import.version", "game", g.ID, "version", g.Version, "count", len(e.Moves))
	case e.Catalog.Hash == "" || e.Catalog.Hash != g.CatalogHash:
		return Fail(Invalid, "table.import.catalog", "game", g.ID, "named", g.CatalogHash, "given", e.Catalog.Hash)
	case e.Credentials.HostHash == "":
		return Fail(Invalid, "table.import.no-host", "game", g.ID)
	}
	for i, h := range e.Credentials.SeatHashes {
		if h == "" {
			return Fail(Invalid, "table.import.no-seat", "game", g.ID, "seat", i)
		}
	}
	for i, m := range e.Moves {
		if m.Seq != int64(i+1) {
			return Fail(Invalid, "table.import.seq", "move", i+1, "game", g.ID, "seq", m.Seq)
		}
	}
	seen := make(map[[2]string]bool, len(e.Idempotency))
	for _, r := range e.Idempotency {
		k := [2]string{r.Scope, r.Key}
		if seen[k] {
			return Fail(Invalid, "table.import.idempotency", "key", r.Key, "scope", r.Scope, "game", g.ID)
		}
		seen[k] = true
	}
	return nil
}
