package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/service"
)

// sweepEvery is how often the games idle for idle are looked for: a tenth of
// idle, between a second and an hour.
func sweepEvery(idle time.Duration) time.Duration {
	return min(max(idle/10, time.Second), time.Hour)
}

// sweepIdleGames deletes, now and then every sweepEvery(idle), the games with
// no move for idle, until ctx ends; the returned channel is closed then.
// Before, it keeps the play of every group's game that has ended (grps may
// be nil), so that a group's play outlives its game.
func sweepIdleGames(ctx context.Context, games *service.Games, grps *groups.Service, idle time.Duration, log *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(sweepEvery(idle))
		defer t.Stop()
		for {
			if grps != nil {
				if err := grps.SettleAll(ctx); err != nil && ctx.Err() == nil {
					// The games stay for the next sweep: a play is never lost
					// to a sweep that could not keep it.
					log.Error("keep the plays of groups' ended games", "error", err)
					select {
					case <-ctx.Done():
						return
					case <-t.C:
					}
					continue
				}
			}
			n, err := games.DeleteIdleGames(ctx, time.Now().Add(-idle))
			switch {
			case err != nil && ctx.Err() == nil:
				log.Error("delete idle games", "error", err, "deleted", n)
			case n > 0:
				log.Info("deleted idle games", "deleted", n, "idle_for", idle.String())
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return done
}
