package main

import (
	"context"
	"fmt"
	"reflect"

	"github.com/treasury-games/treasury/domain"
)

// exportGroup reads everything a store keeps about a group.
func exportGroup(ctx context.Context, s domain.GroupStore, id string) (domain.GroupExport, error) {
	g, hash, err := s.Group(ctx, id)
	if err != nil {
		return domain.GroupExport{}, err
	}
	e := domain.GroupExport{Group: g, CredentialHash: hash}
	if e.Members, err = s.Members(ctx, id); err != nil {
		return e, err
	}
	if e.Plays, err = s.AllPlays(ctx, id); err != nil {
		return e, err
	}
	e.Games, err = s.GroupGames(ctx, id)
	return e, err
}

// copyGroups copies every group, with its members, plays and the games
// created for it, from src to dst, each in one transaction, read back and
// compared. A group already in dst is a Conflict, before anything is copied.
func copyGroups(ctx context.Context, src, dst domain.GroupStore) (groups, plays int, err error) {
	var ids []string
	for after := ""; ; {
		got, err := src.GroupIDs(ctx, after, 1000)
		if err != nil {
			return 0, 0, fmt.Errorf("list the source's groups: %w", err)
		}
		ids = append(ids, got...)
		if len(got) < 1000 {
			break
		}
		after = got[len(got)-1]
	}
	for _, id := range ids {
		if _, _, err := dst.Group(ctx, id); domain.ErrorCode(err) != domain.NotFound {
			if err == nil {
				err = domain.Fail(domain.Conflict, "table.copy.group-exists", "group", id)
			}
			return 0, 0, err
		}
	}
	for _, id := range ids {
		e, err := exportGroup(ctx, src, id)
		if err != nil {
			return groups, plays, fmt.Errorf("group %s: read: %w", id, err)
		}
		if err := dst.ImportGroup(ctx, e); err != nil {
			return groups, plays, fmt.Errorf("group %s: write: %w", id, err)
		}
		back, err := exportGroup(ctx, dst, id)
		if err != nil {
			return groups, plays, fmt.Errorf("group %s: read back: %w", id, err)
		}
		if !sameGroup(e, back) {
			return groups, plays, fmt.Errorf("group %s: check: the target holds another group", id)
		}
		groups++
		plays += len(e.Plays)
	}
	return groups, plays, nil
}

// sameGroup compares two exports of a group, times as instants.
func sameGroup(a, b domain.GroupExport) bool {
	if !a.Group.CreatedAt.Equal(b.Group.CreatedAt) || len(a.Members) != len(b.Members) || len(a.Plays) != len(b.Plays) {
		return false
	}
	a.Group.CreatedAt = b.Group.CreatedAt
	for i := range a.Members {
		if !a.Members[i].JoinedAt.Equal(b.Members[i].JoinedAt) {
			return false
		}
		a.Members[i].JoinedAt = b.Members[i].JoinedAt
	}
	for i := range a.Plays {
		if !a.Plays[i].PlayedAt.Equal(b.Plays[i].PlayedAt) {
			return false
		}
		a.Plays[i].PlayedAt = b.Plays[i].PlayedAt
	}
	return reflect.DeepEqual(a, b)
}
