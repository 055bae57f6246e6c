// Package fairness holds the independent verifier of digital games
// (fairness.mjs, written from docs/fairness.md) and the tests that hold it,
// the document's test vector and the server's engines to one another.
package fairness

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/seeded"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// vector is docs/fairness-vector.json.
type vector struct {
	Seed         string     `json:"seed"`
	Salt         string     `json:"salt"`
	Commitment   string     `json:"commitment"`
	FirstUint64s []string   `json:"first_uint64s_of_lucky_pile_stream"`
	LuckyPile    []string   `json:"lucky_pile_top_8_for_3_players"`
	LuckyRolls   [][]string `json:"lucky_rolls_1_to_3_of_3_dice"`
	SilverDealt  [][]string `json:"silver_gold_dealt_of_2_players"`
	Expeditions  []string   `json:"silver_gold_expeditions_round_1"`
	Column0      []string   `json:"colorful_column_0_of_standard"`
}

func readVector(t *testing.T) vector {
	t.Helper()
	b, err := os.ReadFile("../../docs/fairness-vector.json")
	require.NoError(t, err)
	var v vector
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&v), "docs/fairness-vector.json")
	return v
}

// TestVectorMatchesTheEngines: the published test vector is what the
// server's own engines deal and roll for its seed, so a verifier that
// reproduces the vector reproduces the server.
func TestVectorMatchesTheEngines(t *testing.T) {
	v := readVector(t)
	assert.Equal(t, v.Commitment, domain.SeedCommitment(v.Seed, v.Salt), "commitment")

	// The raw generator: ChaCha8 keyed with SHA-256(domain 0 label 0 seed).
	key := sha256.Sum256([]byte("lucky-treasure-hunter/v1\x00pile\x00" + v.Seed))
	r := rand.NewChaCha8(key)
	var raw []string
	for range 3 {
		raw = append(raw, fmt.Sprintf("%016x", r.Uint64()))
	}
	assert.Equal(t, v.FirstUint64s, raw, "first Uint64 values of the pile stream")

	var pile []string
	for _, tr := range luckytreasurehunter.DealtPile(v.Seed, 3)[:8] {
		pile = append(pile, tr.String())
	}
	assert.Equal(t, v.LuckyPile, pile, "Lucky Treasure Hunter's pile")

	// Rolls through a real game: seat 0's first steal is roll 1.
	var rolls [][]string
	for n := 1; n <= 3; n++ {
		s := seeded.New("lucky-treasure-hunter/v1", v.Seed, fmt.Sprintf("roll/%d", n))
		var faces []string
		for range 3 {
			f := "blank"
			if s.Uniform(6) < 3 {
				f = "pirate"
			}
			faces = append(faces, f)
		}
		rolls = append(rolls, faces)
	}
	assert.Equal(t, v.LuckyRolls, rolls, "Lucky Treasure Hunter's rolls")

	sg, err := silvergold.New(silvergold.Standard(), silvergold.Setup{Mode: silvergold.Digital, Players: []string{"Ann", "Ben"}, Seed: v.Seed})
	require.NoError(t, err)
	var dealt [][]string
	for _, p := range sg.Players {
		var ids []string
		for _, c := range p.Dealt {
			ids = append(ids, sg.CatalogData().Cards[c].ID)
		}
		dealt = append(dealt, ids)
	}
	assert.Equal(t, v.SilverDealt, dealt, "Silver & Gold's deal")

	exp := append([]silvergold.Pattern(nil), silvergold.ExpeditionDeck...)
	seeded.Shuffle(seeded.New("silver-and-gold/v1", v.Seed, "expeditions/1"), exp)
	var codes []string
	for _, p := range exp {
		codes = append(codes, p.Code())
	}
	assert.Equal(t, v.Expeditions, codes, "Silver & Gold's expeditions of round 1")

	ct, err := colorfultreasure.New(colorfultreasure.Standard(), colorfultreasure.Setup{Mode: colorfultreasure.Digital, Players: []string{"Ann", "Ben"}, Seed: v.Seed, Variant: colorfultreasure.VariantStandard})
	require.NoError(t, err)
	var col []string
	for _, c := range ct.Grid[0] {
		col = append(col, colorfultreasure.Kind(c.Kind).String())
	}
	assert.Equal(t, v.Column0, col, "Colorful Treasure's first column")
}

// node returns the path of node, or skips the test.
func node(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no node: CI must run the independent verifier")
		}
		t.Skip("node is not installed: the independent verifier (scripts/fairness/fairness.mjs) is not run")
	}
	return p
}

// TestIndependentVerifierReproducesTheVector: the verifier written in
// another language from the document alone prints the same vector.
func TestIndependentVerifierReproducesTheVector(t *testing.T) {
	out, err := exec.Command(node(t), "fairness.mjs", "--vector").Output()
	require.NoError(t, err)
	b, err := os.ReadFile("../../docs/fairness-vector.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(out))
}
