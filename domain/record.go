package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/treasury-games/treasury/domain/i18n"
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
	// ReasonMessage is Reason as a message, for the API to render in the
	// reader's language (nil for a reason that has none).
	ReasonMessage *i18n.Message `json:"reason_message,omitempty"`
}

// reasonMessage returns the reason of err as a message: its own, or its
// English reason as it is when it has none (an error not yet converted).
func reasonMessage(err error) i18n.Message {
	if m := ErrorMessage(err); !m.Zero() {
		return m
	}
	return i18n.M("table.text", "text", ErrorReason(err))
}

func reasonMessagePtr(err error) *i18n.Message {
	m := reasonMessage(err)
	return &m
}

// VerifyRecord replays a record from scratch with the given rulesets and says
// whether it is valid: every move legal, the seed matching its commitment and
// (digital) every draw the one the seed deals.
func VerifyRecord(rulesets []Ruleset, r Record) Verdict {
	whole := func(code, key string, kv ...any) Verdict {
		m := i18n.M(key, kv...)
		return Verdict{Problem: &Problem{Code: code, Reason: i18n.Text(m), ReasonMessage: &m}}
	}
	switch r.Format {
	case RecordFormat:
	case RecordFormatV1:
		if r.SeedSalt != "" || len(r.Options) > 0 {
			return whole("format", "table.record.v1-extras", "format", RecordFormatV1)
		}
	default:
		return whole("format", "table.record.format", "format", r.Format, "current", RecordFormat, "v1", RecordFormatV1)
	}
	var rs Ruleset
	for _, x := range rulesets {
		if x.Name() == r.Ruleset {
			rs = x
		}
	}
	if rs == nil {
		return whole("ruleset", "table.record.ruleset", "ruleset", r.Ruleset)
	}
	if got := ContentHash([]byte(r.Catalog.Content)); got != r.Catalog.Hash {
		return whole("catalog_changed", "table.record.catalog-changed", "got", got, "want", r.Catalog.Hash)
	}
	if r.Mode != Digital && r.Mode != Physical {
		return whole("mode", "table.record.mode", "mode", r.Mode, "digital", Digital, "physical", Physical)
	}
	if r.Mode == Digital {
		switch {
		case r.Seed == "":
			return whole("seed_missing", "table.record.seed-missing")
		case SeedCommitment(r.Seed, r.SeedSalt) != r.SeedCommitment:
			return whole("seed_mismatch", "table.record.seed-mismatch")
		}
	} else if r.Seed != "" || r.SeedCommitment != "" || r.SeedSalt != "" {
		return whole("seed_in_physical", "table.record.seed-in-physical")
	}
	moves := make([]ReplayMove, len(r.Moves))
	for i, m := range r.Moves {
		if m.Seq != int64(i+1) {
			return whole("sequence", "table.record.sequence", "move", i+1, "seq", m.Seq)
		}
		a := Actor{Host: m.Actor.Host}
		if !a.Host {
			if m.Actor.Seat == nil {
				return whole("actor", "table.record.actor", "move", m.Seq)
			}
			a.Seat = *m.Actor.Seat
		}
		moves[i] = ReplayMove{Actor: a, Move: m.Move}
	}
	if r.Version != int64(len(r.Moves)) {
		return whole("version", "table.record.version", "version", r.Version, "count", len(r.Moves))
	}
	g, bad, err := ReplayLog(rs, CreateRequest{Mode: r.Mode, Players: r.Players, Seed: r.Seed, Salt: r.SeedSalt, Catalog: r.Catalog.Name, Options: r.Options},
		CatalogBlob{Name: r.Catalog.Name, Hash: r.Catalog.Hash, Content: []byte(r.Catalog.Content)}, moves)
	if err != nil && g == nil {
		return whole(string(ErrorCode(err)), "table.record.setup", "reason", reasonMessage(err))
	}
	if err != nil {
		v := Verdict{Moves: bad - 1, Problem: &Problem{Seq: int64(bad), Code: string(ErrorCode(err)), Rule: ErrorRule(err), Reason: ErrorReason(err), ReasonMessage: reasonMessagePtr(err)}}
		v.Before, _ = g.AppendView(nil, HostViewer)
		return v
	}
	if g.Ended() != r.Ended {
		m := i18n.M("table.record.ended")
		return Verdict{Moves: len(moves), Problem: &Problem{Code: "ended", Reason: i18n.Text(m), ReasonMessage: &m}}
	}
	score, _ := g.Score()
	return Verdict{Valid: true, Score: score, Moves: len(moves)}
}
