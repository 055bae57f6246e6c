package service

import (
	"context"
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
)

// Record returns the record of a game as viewer v may read it. Once the game
// has ended it holds everything, a digital game's seed and salt included;
// while it runs, each move is shown as v may read it (see Disclose).
func (s *Games) Record(ctx context.Context, id string, v domain.Viewer) (domain.Record, error) {
	rec, g, err := s.load(ctx, id)
	if err != nil {
		return domain.Record{}, err
	}
	cat, err := s.catalog(ctx, rec.CatalogHash)
	if err != nil {
		return domain.Record{}, err
	}
	// The head was read first, and the log never holds less than it: the
	// moves up to its version are the ones that made it.
	moves, err := s.store.Moves(ctx, id, 0, int(max(rec.Version, 1)))
	if err != nil {
		return domain.Record{}, err
	}
	moves = moves[:min(int64(len(moves)), rec.Version)]
	setup := g.Setup()
	out := domain.Record{
		Format: domain.RecordFormat, GameID: rec.ID, Ruleset: rec.Ruleset, Mode: rec.Mode, Players: setup.Players,
		Options: setup.Options,
		Catalog: domain.RecordCatalog{Name: cat.Name, Hash: cat.Hash, Content: string(cat.Content)},
		Ended:   rec.Ended, Version: rec.Version, CreatedAt: rec.CreatedAt, Moves: make([]domain.RecordMove, len(moves)),
	}
	if setup.Mode == domain.Digital && setup.Seed != "" {
		out.SeedCommitment = domain.SeedCommitment(setup.Seed, setup.Salt)
		if rec.Ended {
			out.Seed, out.SeedSalt = setup.Seed, setup.Salt
		}
	}
	for i := range moves {
		m := &moves[i]
		out.Moves[i] = domain.RecordMove{Seq: m.Seq, Actor: domain.ActorOf(m.Actor), Move: json.RawMessage(domain.DiscloseMove(m, v, rec.Ended)), At: m.At}
	}
	return out, nil
}
