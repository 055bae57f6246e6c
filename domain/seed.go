package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// A digital game commits to its secret seed when it is created and reveals it
// when it ends, so that anyone can re-deal the game and check that the server
// dealt what the seed deals. The commitment is the SHA-256 of a random salt
// followed by the seed: the salt (revealed with the seed) makes a seed chosen
// by a person impossible to find from its commitment by guessing.

// NewSeed returns a fresh random seed: 32 random bytes in hex.
func NewSeed() string { return randomHex(32) }

// NewSalt returns a fresh random salt for a seed commitment.
func NewSalt() string { return randomHex(16) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

// SeedCommitment is what a digital game publishes about its seed while it
// runs: the hex SHA-256 of salt followed by seed. Games created before salts
// existed have none: their commitment is the seed's plain hash.
//
// Every head of a game tells it (each listing and answer a server makes,
// several per move), so a commitment is hashed once and kept
// (commitments).
func SeedCommitment(seed, salt string) string {
	k := commitmentKey{seed, salt}
	commitments.mu.Lock()
	c, ok := commitments.m[k]
	commitments.mu.Unlock()
	if ok {
		return c
	}
	c = seedCommitment(seed, salt)
	commitments.mu.Lock()
	if len(commitments.m) >= maxCommitments {
		clear(commitments.m) // the games in play make theirs again
	}
	commitments.m[k] = c
	commitments.mu.Unlock()
	return c
}

func seedCommitment(seed, salt string) string {
	h := sha256.New()
	h.Write([]byte(salt))
	h.Write([]byte(seed))
	return hex.EncodeToString(h.Sum(nil))
}

// commitments are the seed commitments made last, at most maxCommitments
// (~200 bytes each).
var commitments = struct {
	mu sync.Mutex
	m  map[commitmentKey]string
}{m: map[commitmentKey]string{}}

const maxCommitments = 4096

type commitmentKey struct{ seed, salt string }
