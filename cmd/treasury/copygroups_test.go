package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestCopyKeepsGroups: treasury copy moves every group with its members,
// plays and open games, SQLite to PostgreSQL and back, and refuses a target
// that has one of them.
func TestCopyKeepsGroups(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "games.db")
	src, err := openStore(ctx, file, storeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := groups.New(src, nil)
	g, secret, err := svc.Create(ctx, "Friday")
	if err != nil {
		t.Fatal(err)
	}
	ann, _ := svc.AddMember(ctx, g.ID, "Ann")
	ben, _ := svc.AddMember(ctx, g.ID, "Bén")
	at := time.Date(2026, 11, 20, 19, 0, 0, 123456789, time.UTC)
	for i, winner := range []domain.Member{ann, ben, ann} {
		p := domain.Play{ID: "p" + string(rune('1'+i)), Source: domain.PlayFromSheet, Ruleset: "silver-and-gold", Mode: domain.Physical,
			Options: json.RawMessage(`{}`), PlayedAt: at.Add(time.Duration(i) * time.Hour)}
		for seat, m := range []domain.Member{ann, ben} {
			pl := domain.PlayPlayer{Member: m.ID, Name: m.Name, Seat: seat, Score: 40, Rank: 2,
				Lines: []domain.ScoreLine{{Line: "coins", Value: 9}}}
			if m.ID == winner.ID {
				pl.Score, pl.Rank, pl.Winner = 50, 1, true
			}
			p.Players = append(p.Players, pl)
		}
		if err := src.SavePlay(ctx, g.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := src.LinkGame(ctx, domain.GroupGame{GameID: "open-game", GroupID: g.ID, Members: []string{ben.ID, ann.ID}}); err != nil {
		t.Fatal(err)
	}
	want, err := exportGroup(ctx, src, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantStats, err := svc.Stats(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	src.Close()

	url := pgtest.Database(t)
	back := filepath.Join(t.TempDir(), "back.db")
	for _, hop := range [][2]string{{file, url}, {url, back}} {
		code, out := copyRun(t, "--from", hop[0], "--to", hop[1])
		if code != 0 || !strings.Contains(out, "copied 1 groups (3 plays)") {
			t.Fatalf("copy %s to %s: exit %d\n%s", hop[0], hop[1], code, out)
		}
	}
	dst, err := openStore(ctx, back, storeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	got, err := exportGroup(ctx, dst, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !sameGroup(want, got) {
		t.Errorf("the group came back otherwise:\n%+v\n%+v", want, got)
	}
	copied := groups.New(dst, nil)
	if _, err := copied.Authenticate(ctx, g.ID, secret); err != nil {
		t.Errorf("the group's credential does not hold it after the copy: %v", err)
	}
	gotStats, err := copied.Stats(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(wantStats)
	b, _ := json.Marshal(gotStats)
	if string(a) != string(b) {
		t.Errorf("statistics differ after the copy:\n%s\n%s", a, b)
	}

	code, out := copyRun(t, "--from", url, "--to", back)
	if code == 0 || !strings.Contains(out, "already in the target") {
		t.Errorf("a copy onto a target with the games and group: exit %d\n%s", code, out)
	}
}
