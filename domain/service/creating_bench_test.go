package service_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// BenchmarkCreate is what a digital game of four costs to create on the real
// store, without an Idempotency-Key and with one (the game's id and
// credentials derived from the key, the body hashed), and to answer a retry
// of a creation with its key (nothing stored; the stored game read):
//
//	go test ./domain/service -run '^$' -bench Create -benchtime 2s
func BenchmarkCreate(b *testing.B) {
	body := []byte(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cid"},{"name":"Dee"}]}`)
	req := domain.CreateRequest{Mode: domain.Digital, Players: players}
	b.Run("a retry", func(b *testing.B) {
		g, _ := newService(b, filepath.Join(b.TempDir(), "treasury.db"))
		ctx := context.Background()
		key := "9c1d0f3e-5b7a-4e21-8f6d-retried"
		if _, _, err := g.CreateOnce(ctx, "silver-and-gold", req, key, body); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, replayed, err := g.CreateOnce(ctx, "silver-and-gold", req, key, body); err != nil || !replayed {
				b.Fatal(replayed, err)
			}
		}
	})
	for _, keyed := range []bool{false, true} {
		name := "without a key"
		if keyed {
			name = "with a key"
		}
		b.Run(name, func(b *testing.B) {
			g, _ := newService(b, filepath.Join(b.TempDir(), "treasury.db"))
			ctx := context.Background()
			i := 0
			for b.Loop() {
				key := ""
				if keyed {
					key = "9c1d0f3e-5b7a-4e21-8f6d-" + strconv.Itoa(i)
				}
				i++
				if _, _, err := g.CreateOnce(ctx, "silver-and-gold", req, key, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
