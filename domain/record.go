package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// RecordFormat identifies the version of the game record format this server
// writes. Version 2 added the game's options and the seed's salt; records of
// version 1 (no options, a commitment without salt) still verify.
const (
	RecordFormat   = "treasury.game-record/v2"
	RecordFormatV1 = "treasury.game-record/v1"
)

// MaxSeedLength is the longest seed a game may be created with, in bytes.
const MaxSeedLength = 256

// ContentHash is the hex SHA-256 of b, the hash of a catalog's content.
func ContentHash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Record is a self-contained account of a game: enough to replay it from
// scratch with no access to the server.
type Record struct {
	Format         string          `json:"format"`
	GameID         string          `json:"game_id"`
	Ruleset        string          `json:"ruleset"`
	Mode           string          `json:"mode"`
	Players        []string        `json:"players"`
	Options        json.RawMessage `json:"options,omitempty"` // v2: every option, defaults filled in
	Catalog        RecordCatalog   `json:"catalog"`
	SeedCommitment string          `json:"seed_commitment,omitempty"` // digital: SHA-256 of salt then seed
	Seed           string          `json:"seed,omitempty"`            // digital, once the game has ended
	SeedSalt       string          `json:"seed_salt,omitempty"`       // digital, once the game has ended (v2)
	Ended          bool            `json:"ended"`
	Version        int64           `json:"version"`
	CreatedAt      time.Time       `json:"created_at"`
	Moves          []RecordMove    `json:"moves"`
}

// RecordCatalog is the catalog a game was created with, content included.
type RecordCatalog struct {
	Name    string `json:"name"`
	Hash    string `json:"hash"`
	Content string `json:"content"`
}

// RecordActor is who made a move: the host, or a seat.
type RecordActor struct {
	Host bool `json:"host"`
	Seat *int `json:"seat"`
}

// RecordMove is one accepted move.
type RecordMove struct {
	Seq   int64           `json:"seq"`
	Actor RecordActor     `json:"actor"`
	Move  json.RawMessage `json:"move"`
	At    time.Time       `json:"at"`
}

// ActorOf turns a stored actor into its record form.
func ActorOf(a Actor) RecordActor {
	if a.Host {
		return RecordActor{Host: true}
	}
	s := a.Seat
	return RecordActor{Seat: &s}
}

// Verdict is the outcome of replaying a record.
type Verdict struct {
	Valid bool `json:"valid"`
	// Problem is what makes the record invalid: a rule broken by one move
	// (Seq > 0), or something about the record as a whole (Seq = 0).
	Problem *Problem `json:"problem,omitempty"`
	// Before is the game as it stood before the move that broke a rule (the
	// ruleset's view, everything shown).
	Before json.RawMessage `json:"state_before,omitempty"`
	// Score is the scores and ranking after the last move, when valid.
	Score json.RawMessage `json:"score,omitempty"`
	Moves int             `json:"moves_replayed"`
}

// Problem says why a record is invalid.
type Problem struct {
	Seq    int64  `json:"seq,omitempty"`
	Code   string `json:"code"`
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason"`
}

// VerifyRecord replays a record from scratch with the given rulesets and says
// whether it is valid: every move legal, the seed matching its commitment and
// (digital) every draw the one the seed deals.
func VerifyRecord(rulesets []Ruleset, r Record) Verdict {
	whole := func(code, format string, args ...any) Verdict {
		return Verdict{Problem: &Problem{Code: code, Reason: Errorf(Invalid, format, args...).Reason}}
	}
	switch r.Format {
	case RecordFormat:
	case RecordFormatV1:
		if r.SeedSalt != "" || len(r.Options) > 0 {
			return whole("format", "a record of format %q has no options and no seed salt", RecordFormatV1)
		}
	default:
		return whole("format", "the record's format is %q; this server reads %q and %q", r.Format, RecordFormat, RecordFormatV1)
	}
	var rs Ruleset
	for _, x := range rulesets {
		if x.Name() == r.Ruleset {
			rs = x
		}
	}
	if rs == nil {
		return whole("ruleset", "unknown ruleset %q", r.Ruleset)
	}
	if got := ContentHash([]byte(r.Catalog.Content)); got != r.Catalog.Hash {
		return whole("catalog_changed", "the catalog's content has hash %s, not the %s the game was created with: the catalog was changed", got, r.Catalog.Hash)
	}
	if r.Mode != Digital && r.Mode != Physical {
		return whole("mode", "the record's mode is %q; a game is %q or %q", r.Mode, Digital, Physical)
	}
	if r.Mode == Digital {
		switch {
		case r.Seed == "":
			return whole("seed_missing", "a digital game's record carries its seed only once the game has ended; it cannot be re-dealt before")
		case SeedCommitment(r.Seed, r.SeedSalt) != r.SeedCommitment:
			return whole("seed_mismatch", "the seed does not match the commitment published when the game was created")
		}
	} else if r.Seed != "" || r.SeedCommitment != "" || r.SeedSalt != "" {
		return whole("seed_in_physical", "a physical game has no seed")
	}
	moves := make([]ReplayMove, len(r.Moves))
	for i, m := range r.Moves {
		if m.Seq != int64(i+1) {
			return whole("sequence", "move %d of the record has seq %d; moves are numbered 1, 2, 3, … without gaps", i+1, m.Seq)
		}
		a := Actor{Host: m.Actor.Host}
		if !a.Host {
			if m.Actor.Seat == nil {
				return whole("actor", "move %d names neither the host nor a seat", m.Seq)
			}
			a.Seat = *m.Actor.Seat
		}
		moves[i] = ReplayMove{Actor: a, Move: m.Move}
	}
	if r.Version != int64(len(r.Moves)) {
		return whole("version", "the record says version %d but carries %d moves", r.Version, len(r.Moves))
	}
	g, bad, err := ReplayLog(rs, CreateRequest{Mode: r.Mode, Players: r.Players, Seed: r.Seed, Salt: r.SeedSalt, Catalog: r.Catalog.Name, Options: r.Options},
		CatalogBlob{Name: r.Catalog.Name, Hash: r.Catalog.Hash, Content: []byte(r.Catalog.Content)}, moves)
	if err != nil && g == nil {
		return whole(string(ErrorCode(err)), "the game cannot be set up: %s", ErrorReason(err))
	}
	if err != nil {
		v := Verdict{Moves: bad - 1, Problem: &Problem{Seq: int64(bad), Code: string(ErrorCode(err)), Rule: ErrorRule(err), Reason: ErrorReason(err)}}
		v.Before, _ = g.AppendView(nil, HostViewer)
		return v
	}
	if g.Ended() != r.Ended {
		return Verdict{Moves: len(moves), Problem: &Problem{Code: "ended", Reason: "the record's ended flag does not match the replayed game"}}
	}
	score, _ := g.Score()
	return Verdict{Valid: true, Score: score, Moves: len(moves)}
}
