package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestSweepKeepsGroupPlays: a game created for a group that ended and that
// nobody looked at since is kept as the group's play before the idle sweep
// deletes it.
func TestSweepKeepsGroupPlays(t *testing.T) {
	ctx := t.Context()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	games := service.New(store, rulesets.All()...)
	grps := groups.New(store, games)
	g, _, err := grps.Create(ctx, "Friday")
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	for _, n := range []string{"Ann", "Ben"} {
		m, err := grps.AddMember(ctx, g.ID, n)
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, m.ID)
	}
	c, err := games.Create(ctx, luckytreasurehunter.RulesetName, domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Ben"}, Seed: "sweep"})
	if err != nil {
		t.Fatal(err)
	}
	if err := grps.LinkGame(ctx, g.ID, c.Game.ID, members); err != nil {
		t.Fatal(err)
	}
	// Play it to its end: each seat on turn takes its first listed move,
	// stopping rather than rolling on.
	for i := 0; ; i++ {
		v, err := games.Game(ctx, c.Game.ID, domain.HostViewer)
		if err != nil {
			t.Fatal(err)
		}
		if v.Ended {
			break
		}
		if i > 5000 || v.OnTurn == nil {
			t.Fatalf("move %d: the game neither ended nor has a seat on turn", i)
		}
		seat := *v.OnTurn
		_, raw, err := games.LegalMoves(ctx, c.Game.ID, domain.SeatViewer(seat), seat)
		if err != nil {
			t.Fatal(err)
		}
		var l luckytreasurehunter.Legal
		if err := json.Unmarshal(raw, &l); err != nil || len(l.Moves) == 0 {
			t.Fatalf("seat %d on turn has no move (%v)", seat, err)
		}
		o := l.Moves[0]
		for _, m := range l.Moves {
			if m.Type == "stop" {
				o = m
			}
		}
		m := map[string]any{"type": o.Type, "seat": seat}
		switch o.Type {
		case "place":
			m["treasure"], m["count"] = o.Treasure, o.Count
		case "steal":
			m["set"] = *o.Set
			if o.Owner != nil {
				m["owner"] = *o.Owner
			}
		case "reroll":
			m["dice"] = o.Dice
		}
		move, _ := json.Marshal(m)
		if _, err := games.Play(ctx, c.Game.ID, domain.Actor{Seat: seat}, move, domain.PlayOptions{}); err != nil {
			t.Fatalf("move %d %s: %v", i, move, err)
		}
	}
	score, err := games.Score(ctx, c.Game.ID)
	if err != nil {
		t.Fatal(err)
	}

	sweepCtx, stop := context.WithCancel(ctx)
	swept := sweepIdleGames(sweepCtx, games, grps, time.Nanosecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := store.Game(ctx, c.Game.ID)
		if domain.ErrorCode(err) == domain.NotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the ended game was not swept within 10 s")
		}
		time.Sleep(20 * time.Millisecond) // polling the store, within the deadline
	}
	stop()
	<-swept

	plays, err := store.AllPlays(ctx, g.ID) // the store's, so that nothing settles now
	if err != nil {
		t.Fatal(err)
	}
	if len(plays) != 1 || plays[0].GameID != c.Game.ID {
		t.Fatalf("plays after the sweep: %+v", plays)
	}
	var s struct {
		Players []struct {
			Total int `json:"total"`
		} `json:"players"`
	}
	_ = json.Unmarshal(score, &s)
	for i, p := range plays[0].Players {
		if p.Score != s.Players[i].Total || p.Member != members[i] {
			t.Errorf("seat %d: kept %+v, the game scored %d for member %s", i, p, s.Players[i].Total, members[i])
		}
	}
}
