package main

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
)

// lthRecord plays a 3-player digital game of bots and returns its record.
func lthRecord(t *testing.T) domain.Record {
	t.Helper()
	req := domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Ben", "Cat"}, Seed: "cli", Salt: "pepper"}
	dg, cat, err := luckytreasurehunter.NewRules().Create(req)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := luckytreasurehunter.Unwrap(dg)
	setup := dg.Setup()
	rec := domain.Record{Format: domain.RecordFormat, GameID: "g1", Ruleset: luckytreasurehunter.RulesetName, Mode: domain.Digital,
		Players: setup.Players, Options: setup.Options, Catalog: domain.RecordCatalog{Name: cat.Name, Hash: cat.Hash, Content: string(cat.Content)},
		SeedCommitment: domain.SeedCommitment(req.Seed, req.Salt), Seed: req.Seed, SeedSalt: req.Salt, CreatedAt: time.Unix(0, 0).UTC()}
	r := rand.New(rand.NewPCG(4, 4))
	for {
		actor, m, ok := luckytreasurehunter.Step(g, luckytreasurehunter.Bot{R: r}, luckytreasurehunter.Table{R: r})
		if !ok {
			break
		}
		b, _ := json.Marshal(&m)
		l, err := dg.Apply(actor, b)
		if err != nil {
			t.Fatal(err)
		}
		seat := actor.Seat
		rec.Moves = append(rec.Moves, domain.RecordMove{Seq: int64(len(rec.Moves) + 1), Actor: domain.RecordActor{Seat: &seat}, Move: l.Move, At: rec.CreatedAt})
	}
	rec.Ended, rec.Version = true, int64(len(rec.Moves))
	return rec
}

func TestVerifyLuckyTreasureHunter(t *testing.T) {
	rec := lthRecord(t)
	code, out, errOut := verifyRun(t, "", "record", recordFile(t, rec))
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, s := range []string{"VALID: " + plural(len(rec.Moves), "move") + " replayed", "rolls every die", "Final scores:", "cards  captain  total  sets", "1. "} {
		if !strings.Contains(out, s) {
			t.Errorf("the report does not say %q:\n%s", s, out)
		}
	}
	// A die the seed did not roll.
	for i, m := range rec.Moves {
		s := string(m.Move)
		if !strings.Contains(s, `"faces":["blank"`) {
			continue
		}
		bad := rec
		bad.Moves = append([]domain.RecordMove(nil), rec.Moves...)
		bad.Moves[i].Move = json.RawMessage(strings.Replace(s, `"faces":["blank"`, `"faces":["pirate"`, 1))
		code, out, _ := verifyRun(t, "", "record", recordFile(t, bad))
		if code != 1 || !strings.Contains(out, "seed-dice") {
			t.Errorf("a changed die: exit %d\n%s", code, out)
		}
		break
	}

	sheet := `{"ruleset":"lucky-treasure-hunter","players":[
		{"name":"Becky","sets":[{"treasure":"ruby","size":5},{"treasure":"gold","size":5},{"treasure":"jade","size":1},{"treasure":"pearl","size":1}],"captain_used":false,"total":13},
		{"name":"Craig","sets":[{"treasure":"silver","size":5},{"treasure":"pearl","size":4},{"treasure":"ruby","size":3},{"treasure":"jade","size":1}],"captain_used":true,"total":12}]}`
	code, out, _ = verifyRun(t, sheet, "sheet", "-")
	if code != 1 || !strings.Contains(out, "2. Craig, 13 - tied with Becky on points; Becky's set number 2") || !strings.Contains(out, "total_mismatch") {
		t.Errorf("the rulebook's example with Craig's miscount: exit %d\n%s", code, out)
	}
}
