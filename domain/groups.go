package domain

import (
	"context"
	"encoding/json"
	"time"
)

// Group is the people who play together: its members' results attach to the
// same person every time. It is held by a credential, as a game by its host
// credential; only its hash is stored.
type Group struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// Revision counts the changes to the group's members and plays, so that
	// what is computed from them (statistics) is known to be current.
	Revision int64 `json:"revision"`
}

// Member is one person of a group. Names are unique in a group under the
// rules of names in a game (domain/names).
type Member struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	JoinedAt time.Time `json:"joined_at"`
	// NameKey is the form names are compared in (names.Key), unique in
	// the group; the service fills it in before the store sees a member.
	NameKey string `json:"-"`
}

// Where a play comes from.
const (
	PlayFromGame  = "game"  // a game created for the group, kept when it ended
	PlayFromSheet = "sheet" // a paper score sheet checked by the verifier
)

// Play is one finished game of a group, kept beyond the game itself.
type Play struct {
	ID       string          `json:"id"`
	Source   string          `json:"source"`            // PlayFromGame or PlayFromSheet
	GameID   string          `json:"game_id,omitempty"` // the game it was, for PlayFromGame (the play's id too)
	Ruleset  string          `json:"ruleset"`
	Mode     string          `json:"mode"`
	Options  json.RawMessage `json:"options"` // the game's options with defaults (a sheet's: {} or as given)
	PlayedAt time.Time       `json:"played_at"`
	Duration int64           `json:"duration_seconds"` // 0 when unknown
	Players  []PlayPlayer    `json:"players"`          // in seat order
}

// PlayPlayer is one member's result in a play.
type PlayPlayer struct {
	Member    string      `json:"member"`
	Name      string      `json:"name"` // the member's name when the play was kept
	Seat      int         `json:"seat"`
	Score     int         `json:"score"`
	Rank      int         `json:"rank"`   // from 1; shared places share it
	Winner    bool        `json:"winner"` // rank 1 (everyone sharing first place wins)
	DecidedBy string      `json:"decided_by,omitempty"`
	Start     bool        `json:"start_player"`
	Lines     []ScoreLine `json:"lines"` // the game's score lines, in score card order
}

// ScoreLine is one line of a player's score ("coins": 9).
type ScoreLine struct {
	Line  string `json:"line"`
	Value int    `json:"value"`
}

// GroupGame is a game created for a group whose play is not kept yet: the
// member of each seat, in seat order.
type GroupGame struct {
	GameID  string   `json:"game_id"`
	GroupID string   `json:"group_id,omitempty"`
	Members []string `json:"members"`
}

// PlayQuery selects a page of a group's plays, latest first.
type PlayQuery struct {
	Member  string // only the plays of this member; "" for all
	Ruleset string // only the plays of this game; "" for all
	// Before is the position after which the page starts (the previous
	// page's last play); zero for the first page.
	Before PlayCursor
	Limit  int
}

// PlayCursor is a place in the list of plays, latest first.
type PlayCursor struct {
	PlayedAt time.Time
	ID       string
}

// GroupExport is everything kept about a group: what moves it from one
// server or store to another.
type GroupExport struct {
	Group          Group       `json:"group"`
	CredentialHash string      `json:"credential_hash"`
	Members        []Member    `json:"members"`
	Plays          []Play      `json:"plays"`
	Games          []GroupGame `json:"games"` // games created for it whose play is not kept yet
}

// Limits of a group, so that every request about one costs a bounded amount.
const (
	MaxGroupMembers = 100
	MaxGroupPlays   = 100000
	MaxGroupGames   = 200 // games created for a group and not kept as plays yet
)

// GroupStore keeps groups, their members and plays. Errors carry codes:
// NotFound for a missing group, member or play, Conflict for a name or id
// already taken.
type GroupStore interface {
	// CreateGroup stores a new group with the hash of its credential.
	CreateGroup(ctx context.Context, g Group, credentialHash string) error
	// Group returns a group with the hash of its credential.
	Group(ctx context.Context, id string) (Group, string, error)
	// AddMember adds a member (Conflict when its NameKey is taken in the
	// group).
	AddMember(ctx context.Context, groupID string, m Member) error
	// Members returns the members of a group, in the order they joined.
	Members(ctx context.Context, groupID string) ([]Member, error)
	// DeleteMember deletes a member and every play they are in, and
	// returns how many plays it deleted.
	DeleteMember(ctx context.Context, groupID, memberID string) (int, error)
	// SavePlay keeps a play (Conflict when its id is taken) and, for a
	// play of a game, forgets that game's link.
	SavePlay(ctx context.Context, groupID string, p Play) error
	// Plays returns a page of plays, latest first.
	Plays(ctx context.Context, groupID string, q PlayQuery) ([]Play, error)
	// Play returns one play.
	Play(ctx context.Context, groupID, playID string) (Play, error)
	// AllPlays returns every play of a group, earliest first.
	AllPlays(ctx context.Context, groupID string) ([]Play, error)
	// DeletePlay deletes one play.
	DeletePlay(ctx context.Context, groupID, playID string) error
	// CountPlays returns how many plays a group keeps.
	CountPlays(ctx context.Context, groupID string) (int, error)
	// LinkGame records a game created for a group.
	LinkGame(ctx context.Context, g GroupGame) error
	// GroupGames returns the games of a group whose play is not kept yet.
	GroupGames(ctx context.Context, groupID string) ([]GroupGame, error)
	// UnlinkGame forgets a game's link (it was deleted before it ended).
	UnlinkGame(ctx context.Context, gameID string) error
	// LinkedGroups returns up to limit ids of groups with linked games,
	// greater than after, in byte order.
	LinkedGroups(ctx context.Context, after string, limit int) ([]string, error)
	// GroupIDs returns up to limit ids of groups greater than after.
	GroupIDs(ctx context.Context, after string, limit int) ([]string, error)
	// SaveGroupStats keeps a group's statistics (JSON) as computed at revision,
	// unless the group has changed since (nothing is kept then).
	SaveGroupStats(ctx context.Context, groupID string, revision int64, stats []byte) error
	// GroupStats returns the statistics last kept and their revision (-1 and
	// nil when none).
	GroupStats(ctx context.Context, groupID string) (int64, []byte, error)
	// ImportGroup stores a whole group in one transaction (Conflict when
	// its id is taken).
	ImportGroup(ctx context.Context, e GroupExport) error
}

// GroupNotFound is every store's answer for a group it does not hold.
func GroupNotFound(id string) error {
	return Fail(NotFound, "table.group.not-found", "group", id)
}
