package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// TestSeedCommitment: a commitment is the hex SHA-256 of the salt followed
// by the seed, whether it was made before and kept or not, past the number
// kept.
func TestSeedCommitment(t *testing.T) {
	for round := range 2 {
		for i := range maxCommitments + 10 {
			seed, salt := fmt.Sprint("seed-", i), fmt.Sprint("salt-", i%7)
			sum := sha256.Sum256([]byte(salt + seed))
			if got, want := SeedCommitment(seed, salt), hex.EncodeToString(sum[:]); got != want {
				t.Fatalf("round %d, seed %q salt %q: %s, want %s", round, seed, salt, got, want)
			}
		}
	}
	if len(commitments.m) > maxCommitments {
		t.Errorf("%d commitments kept, at most %d", len(commitments.m), maxCommitments)
	}
}

// BenchmarkSeedCommitment makes the commitment of one game's seed, as every
// head of the game does.
func BenchmarkSeedCommitment(b *testing.B) {
	seed, salt := NewSeed(), NewSalt()
	b.ReportAllocs()
	for b.Loop() {
		if len(SeedCommitment(seed, salt)) != 64 {
			b.Fatal("not 32 bytes in hex")
		}
	}
}

// TestHashSecret: a credential's hash is hex.EncodeToString's of its
// SHA-256, which HashSecret writes into an array of its own.
func TestHashSecret(t *testing.T) {
	for _, secret := range []string{"", "a", NewSecret(), NewSecret() + "\x00é"} {
		sum := sha256.Sum256([]byte(secret))
		if got, want := HashSecret(secret), hex.EncodeToString(sum[:]); got != want {
			t.Fatalf("%q: %s, want %s", secret, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = HashSecret("secret") }); n != 1 {
		t.Errorf("HashSecret: %v allocations, want 1", n)
	}
}
