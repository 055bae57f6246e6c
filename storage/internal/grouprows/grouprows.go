// Package grouprows is the Go side of the groups tables that both stores
// keep alike: how a play and a linked game are encoded in their rows, how a
// whole group is imported, and the errors a player reads. Each store keeps
// its own SQL.
package grouprows

import (
	"encoding/json"
	"fmt"

	"github.com/treasury-games/treasury/domain"
)

// DefaultLimit is the page size of a query for plays that names none.
const DefaultLimit = 50

// Limit returns the page size q asks for, DefaultLimit when it asks for none.
func Limit(q domain.PlayQuery) int {
	if q.Limit <= 0 {
		return DefaultLimit
	}
	return q.Limit
}

// Body encodes a play as the plays table keeps it.
func Body(p domain.Play) ([]byte, error) { return json.Marshal(p) }

// Play decodes a plays row's body.
func Play(body []byte) (domain.Play, error) {
	var p domain.Play
	err := json.Unmarshal(body, &p)
	return p, err
}

// Members encodes a linked game's members as the group_games table keeps them.
func Members(g domain.GroupGame) []byte {
	b, _ := json.Marshal(g.Members) // a slice of plain structs
	return b
}

// Game decodes a group_games row of group groupID.
func Game(groupID, gameID string, members []byte) (domain.GroupGame, error) {
	g := domain.GroupGame{GameID: gameID, GroupID: groupID}
	err := json.Unmarshal(members, &g.Members)
	return g, err
}

// One returns the play a query for one play found, NotFound when none.
func One(ps []domain.Play, groupID, playID string) (domain.Play, error) {
	if len(ps) == 0 {
		return domain.Play{}, NoPlay(groupID, playID)
	}
	return ps[0], nil
}

// NoPlay is the error for a play the group does not have.
func NoPlay(groupID, playID string) error {
	return domain.Fail(domain.NotFound, "table.store.no-play", "group", groupID, "play", playID)
}

// NoMember is the error for a member the group does not have.
func NoMember(groupID, memberID string) error {
	return domain.Fail(domain.NotFound, "table.store.no-member", "group", groupID, "member", memberID)
}

// Stats returns the statistics row as GroupStats does: revision -1 when
// none are kept.
func Stats(rev int64, stats []byte) (int64, []byte) {
	if stats == nil {
		rev = -1
	}
	return rev, stats
}

// Writer is one store's inserts of a group's rows, inside its transaction.
type Writer interface {
	Group(g domain.Group, credentialHash string) error
	Member(groupID string, m domain.Member) error
	// Play inserts p with its encoded body (Body).
	Play(groupID string, p domain.Play, body []byte) error
	// Game links g to the group unless it is linked already; members is
	// Members(g).
	Game(groupID string, g domain.GroupGame, members []byte) error
}

// Bodies encodes every play of e before the import's transaction starts;
// store names the store in errors.
func Bodies(store string, e domain.GroupExport) ([][]byte, error) {
	bodies := make([][]byte, len(e.Plays))
	for i, p := range e.Plays {
		b, err := Body(p)
		if err != nil {
			return nil, fmt.Errorf("%s: import group: %w", store, err)
		}
		bodies[i] = b
	}
	return bodies, nil
}

// Import writes the whole group e with w: the group, its members, its plays
// (bodies from Bodies) and its linked games.
func Import(w Writer, e domain.GroupExport, bodies [][]byte) error {
	if err := w.Group(e.Group, e.CredentialHash); err != nil {
		return err
	}
	for _, m := range e.Members {
		if err := w.Member(e.Group.ID, m); err != nil {
			return err
		}
	}
	for i, p := range e.Plays {
		if err := w.Play(e.Group.ID, p, bodies[i]); err != nil {
			return err
		}
	}
	for _, g := range e.Games {
		if err := w.Game(e.Group.ID, g, Members(g)); err != nil {
			return err
		}
	}
	return nil
}
