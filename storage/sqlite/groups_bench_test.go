package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// benchGroup stores a group of 10 members with n plays of 4 of them each,
// Silver & Gold's five score lines on every player.
func benchGroup(b *testing.B, n int) (*groups.Service, string) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "t.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	svc := groups.New(s, nil) // no game of the group: the games are never asked
	g, _, err := svc.Create(ctx, "Bench")
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for i := range 10 {
		m, err := svc.AddMember(ctx, g.ID, fmt.Sprintf("Player %d", i))
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	t0 := time.Date(2020, 1, 1, 19, 0, 0, 0, time.UTC)
	plays := make([]domain.Play, 0, n)
	for i := range n {
		p := domain.Play{ID: fmt.Sprintf("p%06d", i), Source: domain.PlayFromSheet, Ruleset: "silver-and-gold", Mode: domain.Physical,
			Options: json.RawMessage(`{}`), PlayedAt: t0.Add(time.Duration(i) * 3 * time.Hour), Duration: 2400}
		for seat := range 4 {
			m := ids[(i+seat*3)%10]
			score := 40 + (i*7+seat*13)%50
			rank := seat + 1
			p.Players = append(p.Players, domain.PlayPlayer{Member: m, Name: m, Seat: seat, Score: score, Rank: rank, Winner: rank == 1,
				Start: seat == 0, DecidedBy: "total", Lines: []domain.ScoreLine{{Line: "coins", Value: score / 5}, {Line: "cups", Value: 6}, {Line: "palms", Value: 7}, {Line: "cards", Value: score / 2}, {Line: "seals", Value: 2}}})
		}
		plays = append(plays, p)
	}
	// Stored in one transaction: the benchmark is of reading them.
	exp := domain.GroupExport{Group: domain.Group{ID: "bench", Name: "Bench", CreatedAt: t0}, CredentialHash: domain.HashSecret("x")}
	ms, _ := svc.Members(ctx, g.ID)
	exp.Members = ms
	for i := range exp.Members {
		exp.Members[i].NameKey = fmt.Sprint(i)
	}
	exp.Plays = plays
	if err := s.ImportGroup(ctx, exp); err != nil {
		b.Fatal(err)
	}
	return svc, "bench"
}

// BenchmarkGroupStats is the statistics of a group of 10 members with
// 10,000 plays: cold, computed from every play read from the store (a server
// that has not the group in memory, after a change made in the store itself,
// which no server followed); after-another-servers-change, a play deleted by
// another server (it keeps the new revision's statistics in the store);
// restarted, a server that has not the group in memory either, the group
// unchanged since statistics were last kept; after-a-change, a play deleted
// by this server (the commit timed too); warm, nothing changed since the last
// answer.
func BenchmarkGroupStats(b *testing.B) {
	svc, id := benchGroup(b, 10000)
	ctx := context.Background()
	i := 0 // plays deleted so far, over every run of after-a-change
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			// A play deleted by another server: the statistics kept are
			// of the revision before.
			if err := svc.Store().DeletePlay(ctx, id, fmt.Sprintf("p%06d", i)); err != nil {
				b.Fatal(err)
			}
			i++
			fresh := groups.New(svc.Store(), nil)
			b.StartTimer()
			st, err := fresh.Stats(ctx, id)
			if err != nil || st.Plays != 10000-i {
				b.Fatal(err, st.Plays)
			}
		}
	})
	b.Run("after-another-servers-change", func(b *testing.B) {
		// Another server, holding the group's plays, deletes a play: it
		// keeps the new revision's statistics in the store as it does, so
		// this server, which has not the group in memory, reads no play.
		other := groups.New(svc.Store(), nil)
		if _, err := other.Stats(ctx, id); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			b.StopTimer()
			if err := other.DeletePlay(ctx, id, fmt.Sprintf("p%06d", i)); err != nil {
				b.Fatal(err)
			}
			i++
			fresh := groups.New(svc.Store(), nil)
			b.StartTimer()
			st, err := fresh.Stats(ctx, id)
			if err != nil || st.Plays != 10000-i {
				b.Fatal(err, st.Plays)
			}
		}
	})
	b.Run("restarted", func(b *testing.B) {
		if _, err := groups.New(svc.Store(), nil).Stats(ctx, id); err != nil { // kept at this revision
			b.Fatal(err)
		}
		for b.Loop() {
			st, err := groups.New(svc.Store(), nil).Stats(ctx, id)
			if err != nil || st.Plays != 10000-i {
				b.Fatal(err, st.Plays)
			}
		}
	})
	b.Run("after-a-change", func(b *testing.B) {
		// Each time a play is deleted (its commit is timed too), then the
		// statistics follow from the plays in memory.
		if _, err := svc.Stats(ctx, id); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := svc.DeletePlay(ctx, id, fmt.Sprintf("p%06d", i)); err != nil {
				b.Fatal(err)
			}
			i++
			st, err := svc.Stats(ctx, id)
			if err != nil || st.Plays != 10000-i {
				b.Fatal(err, st.Plays)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		if _, err := svc.Stats(ctx, id); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := svc.Stats(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
	})
}
