package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/treasury-games/treasury/domain/service"
)

// sweepEvery is how often the games idle for idle are looked for: a tenth of
// idle, between a second and an hour.
func sweepEvery(idle time.Duration) time.Duration {
	return min(max(idle/10, time.Second), time.Hour)
}

// sweepIdleGames deletes, now and then every sweepEvery(idle), the games with
// no move for idle, until ctx ends; the returned channel is closed then.
func sweepIdleGames(ctx context.Context, games *service.Games, idle time.Duration, log *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(sweepEvery(idle))
		defer t.Stop()
		for {
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
