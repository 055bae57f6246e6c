package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// GameHead is what every game has, whatever its ruleset.
type GameHead struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	Mode    string `json:"mode"`
	Version int64  `json:"version"`
	Phase   string `json:"phase"`
	Ended   bool   `json:"ended"`
	// Where the game stands, in the same words for every ruleset
	// (TableStatus): who must act now, the seat on turn, the turn number.
	Awaiting   []Await         `json:"awaiting"`
	OnTurn     *int            `json:"on_turn"`
	TurnNumber int             `json:"turn_number"`
	CreatedAt  time.Time       `json:"created_at"`
	UpdatedAt  time.Time       `json:"updated_at"`
	Options    json.RawMessage `json:"options"`
	// A digital game's commitment to its seed; the seed and the salt are
	// shown once the game has ended.
	SeedCommitment string `json:"seed_commitment,omitempty"`
	Seed           string `json:"seed,omitempty"`
	SeedSalt       string `json:"seed_salt,omitempty"`
}

// AppendJSON appends h encoded as json.Marshal(h) encodes it (every move's
// answer starts with it).
func (h *GameHead) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = AppendJSONString(b, h.ID)
	b = append(b, `,"ruleset":`...)
	b = AppendJSONString(b, h.Ruleset)
	b = append(b, `,"mode":`...)
	b = AppendJSONString(b, h.Mode)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, h.Version, 10)
	b = append(b, `,"phase":`...)
	b = AppendJSONString(b, h.Phase)
	b = append(b, `,"ended":`...)
	b = strconv.AppendBool(b, h.Ended)
	b = append(b, `,"awaiting":`...)
	b = AppendList(b, h.Awaiting, AppendAwait)
	b = append(b, `,"on_turn":`...)
	if h.OnTurn == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*h.OnTurn), 10)
	}
	b = append(b, `,"turn_number":`...)
	b = strconv.AppendInt(b, int64(h.TurnNumber), 10)
	b = append(b, `,"created_at":`...)
	b = appendJSONTime(b, h.CreatedAt)
	b = append(b, `,"updated_at":`...)
	b = appendJSONTime(b, h.UpdatedAt)
	b = append(b, `,"options":`...)
	if len(h.Options) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, h.Options...)
	}
	for _, f := range [...]struct{ name, v string }{
		{`,"seed_commitment":`, h.SeedCommitment}, {`,"seed":`, h.Seed}, {`,"seed_salt":`, h.SeedSalt},
	} {
		if f.v != "" {
			b = append(b, f.name...)
			b = AppendJSONString(b, f.v)
		}
	}
	return append(b, '}')
}

// appendJSONTime writes t as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds). The times here come from the server's clock, well within the
// years 0 to 9999 MarshalJSON accepts.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// AppendJSONString appends s as a JSON string, the bytes json.Marshal(s)
// gives. Plain printable ASCII (ids, codes, most names) is copied as it is;
// anything else (quotes, control characters, the HTML characters
// encoding/json escapes, non-ASCII) goes through encoding/json.
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// GameView is a game as the API shows it: its head, and the ruleset's own
// view of its state.
type GameView struct {
	GameHead
	State json.RawMessage `json:"state"`
}

// Created is a new game with the credentials handed out once.
type Created struct {
	Game GameView
	Host string   // the host credential: acts for every seat and reports for the table
	Seat []string // one credential per seat
}

// PlayOptions are the optional conditions of a move.
type PlayOptions struct {
	IfMatch        *int64 // the version the client saw; PreconditionFailed when the game moved on
	IdempotencyKey string // a retry with the same key applies nothing and answers with the move's seq and the game now
	// Minimal: the client wants the move's seq and the game's version only
	// (Prefer: return=minimal), so no view is built: Played.Response and
	// Played.Game.State are left empty.
	Minimal bool
	// Credential is the secret the actor was authenticated with by
	// Games.AuthenticateMove, which on a shared store trusts the
	// credentials held in memory: the move is stored only while they are
	// still the game's, and is refused (Unauthorized) when the credential
	// is no longer the actor's. Empty: the actor is taken as it is.
	Credential string
}

// Played is the result of an accepted move.
type Played struct {
	Seq      int64
	Game     GameView
	Response []byte // {"seq":…,"game":…}: the game after the move, or in a replay as it stands now
	Replayed bool   // the answer to a retry of an earlier request with the same Idempotency-Key
}

// NewSecret returns a fresh random credential.
func NewSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashSecret is how credentials are stored: hex SHA-256. It is hex encoded
// into an array of its own, so that the string is its one allocation
// (hex.EncodeToString makes a slice and then the string; every move
// authenticates its credential).
func HashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], h[:])
	return string(out[:])
}

// NewID returns a fresh game id.
func NewID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ViewerOf returns the viewer an actor sees the game as.
func ViewerOf(a *Actor) Viewer {
	switch {
	case a == nil:
		return Public
	case a.Host:
		return Viewer{Host: true, Seat: -1}
	default:
		return Viewer{Seat: a.Seat}
	}
}

// RulesetEntry is a ruleset as the service offers it.
type RulesetEntry struct {
	RulesetInfo
	Catalogs    []CatalogInfo
	ScoreSheets bool // it checks paper score sheets
}

// Update is what live clients hear after an accepted move: the move and the
// events it caused, with who may read what (see Disclose). Seq is the game's
// version after the move.
type Update struct {
	GameID string
	Seq    int64
	Actor  Actor
	Move   json.RawMessage
	Events []Event
	At     time.Time
	Phase  string
	Ended  bool // the game has ended (after this move, or, from the log, by now)

	Public  json.RawMessage // see Logged
	For     int
	NotHost bool

	// Plain says Move and Public (when set) are PlainJSON, checked once
	// where the update is made: every stream of the game tells the move,
	// and checked it again each (0.8% of the server's CPU with four
	// streams a move, issue 27). False says nothing: check.
	Plain bool
}

// PlainJSON reports whether m is valid JSON that json.Marshal would write
// as it is: compact (no whitespace, which strings in a move hardly hold),
// with nothing it escapes for HTML (<, >, &, U+2028, U+2029, the last two
// starting with byte 0xE2).
func PlainJSON(m []byte) bool {
	for _, c := range m {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2:
			return false
		}
	}
	return len(m) > 0 && json.Valid(m)
}

// Disclose returns the update's move and events as viewer v may read them;
// live says the update is told as it happens.
func (u *Update) Disclose(v Viewer, live bool) (json.RawMessage, []Event) {
	m := MoveRecord{Move: u.Move, Public: u.Public, For: u.For, NotHost: u.NotHost}
	return DiscloseMove(&m, v, u.Ended), DiscloseEvents(u.Events, v, u.Ended, live)
}
