package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// verifyRun runs `treasury verify args…` and returns the exit status main
// would give, standard output and standard error (main writes the error).
func verifyRun(t *testing.T, input string, args ...string) (int, string, string) {
	t.Helper()
	if input != "" {
		old := stdin
		stdin = strings.NewReader(input)
		t.Cleanup(func() { stdin = old })
	}
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"verify"}, args...), env(), &out, &errOut)
	if err == nil {
		return 0, out.String(), errOut.String()
	}
	errOut.WriteString("treasury: " + err.Error() + "\n")
	return exitStatus(err), out.String(), errOut.String()
}

// writeFile writes content to a fresh file and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The rulebook's worked example (95), and a table where Tom wrote the cup
// Sarah holds and added up 84 where his lines make 86.
const (
	sheetValid = `{"players":[{"name":"Sarah","cards":[{"id":"grey-01"},{"id":"grey-03"},{"id":"orange-06"},
		{"id":"orange-12"},{"id":"green-08"},{"id":"purple-07"}],"coins":9,"cups":[6,2],"palms":[2,3,3],"total":95}]}`
	sheetMistakes = `{"players":[
		{"name":"Sarah","cards":[{"id":"grey-01"},{"id":"grey-03"},{"id":"orange-06"},{"id":"orange-12"},{"id":"green-08"},{"id":"purple-07"}],"coins":9,"cups":[6,2],"palms":[2,3,3],"total":95},
		{"name":"Tom","cards":[{"id":"purple-12"},{"id":"purple-06"},{"id":"orange-09"},{"id":"orange-11"},{"id":"grey-02"}],"coins":10,"cups":[5,6],"palms":[3,2],"total":84}]}`
)

func TestVerifySheetCommand(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		code, out, errOut := verifyRun(t, "", "sheet", writeFile(t, "sheet.json", sheetValid))
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		for _, want := range []string{"player  coins  cups  palms  cards  seals  total", "Sarah       9     8      8     64      6     95", "1. Sarah, 95", "The sheet is valid"} {
			if !strings.Contains(out, want) {
				t.Errorf("the report does not say %q:\n%s", want, out)
			}
		}
	})
	t.Run("mistakes", func(t *testing.T) {
		code, out, errOut := verifyRun(t, "", "sheet", writeFile(t, "sheet.json", sheetMistakes))
		if code != 1 || !strings.Contains(errOut, "the sheet has 2 mistakes") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		for _, want := range []string{
			"Tom        10    11      5     60      0     86",
			"2. Tom, 86 - fewer points than Sarah",
			"Tom, cups line (cup_reused): Sarah and Tom both wrote the cup of 6, but there is one cup of each value.",
			"Tom, total line (total_mismatch): Tom wrote 84; the lines add up to 86",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("the report does not say %q:\n%s", want, out)
			}
		}
	})
	t.Run("mistakes as JSON from standard input", func(t *testing.T) {
		code, out, _ := verifyRun(t, sheetMistakes, "sheet", "--json", "-")
		if code != 1 {
			t.Fatalf("exit %d", code)
		}
		var res silvergold.SheetResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var codes []string
		for _, f := range res.Findings {
			codes = append(codes, f.Code)
		}
		if res.Valid || strings.Join(codes, " ") != "cup_reused total_mismatch" || res.Players[1].Total != 86 || res.Ranking[1].DecidedBy != "total" {
			t.Errorf("result %s", out)
		}
	})
	t.Run("a tie broken by a colour", func(t *testing.T) {
		tie := `{"players":[{"name":"Bo","cards":[{"id":"green-01"},{"id":"orange-01"}]},{"name":"Ada","cards":[{"id":"grey-01"},{"id":"purple-02"}]}]}`
		code, out, _ := verifyRun(t, tie, "sheet", "-")
		if want := "2. Bo, 22 - tied with Ada on 22 points; Ada completed more grey cards (1 to 0)"; code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the report does not say %q:\n%s", code, want, out)
		}
	})
	t.Run("a sheet of a catalog given with --catalog", func(t *testing.T) {
		house := bytes.Replace(silvergold.Standard().Content, []byte("\ncatalog standard\n"), []byte("\ncatalog house\n"), 1)
		path := writeFile(t, "house.cards", string(house))
		sheet := strings.Replace(sheetValid, `{"players"`, `{"catalog":"house","players"`, 1)
		if code, _, errOut := verifyRun(t, sheet, "sheet", "-"); code != 2 || !strings.Contains(errOut, `"house"`) {
			t.Errorf("without --catalog: exit %d, %s", code, errOut)
		}
		if code, _, errOut := verifyRun(t, sheet, "sheet", "-", "--catalog", path); code != 0 {
			t.Errorf("with --catalog: exit %d, %s", code, errOut)
		}
	})
}

func TestVerifyUnusableInput(t *testing.T) {
	for _, c := range []struct {
		name, what, input, want string
	}{
		{"a sheet that is not JSON", "sheet", `{"players":[`, "cannot check the sheet"},
		{"an empty sheet", "sheet", " ", "cannot check the sheet"},
		{"a sheet with an unknown field", "sheet", `{"players":[{"name":"Sarah","gold":3}]}`, "gold"},
		{"a sheet with an unknown card", "sheet", `{"players":[{"name":"Sarah","cards":[{"id":"grey-12"}]}]}`, `players[0] (Sarah): cards[0] is "grey-12"`},
		{"a record that is not JSON", "record", `{"format":`, "not a game record"},
		{"a record that is an array", "record", `[1,2,3]`, "not a game record"},
		{"an object that is no record", "record", `{"players":["Ann"]}`, "no format"},
		{"a sheet given as a record", "record", sheetValid, "not a game record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, asJSON := range []bool{false, true} {
				args := []string{c.what, "-"}
				if asJSON {
					args = append(args, "--json")
				}
				code, out, errOut := verifyRun(t, c.input, args...)
				if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, errOut, c.want)
				}
			}
		})
	}
	t.Run("a file that does not exist", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "nowhere.json")
		if code, _, errOut := verifyRun(t, "", "record", missing); code != 2 || !strings.Contains(errOut, "nowhere.json") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
	t.Run("usage", func(t *testing.T) {
		for _, args := range [][]string{{}, {"game", "x.json"}, {"sheet"}, {"sheet", "a.json", "b.json"}, {"record", "--yaml", "-"}} {
			if code, _, _ := verifyRun(t, "", args...); code != 2 {
				t.Errorf("verify %v: exit %d, want 2", args, code)
			}
		}
		if code, out, _ := verifyRun(t, "", "--help"); code != 0 || !strings.Contains(out, "Exit status: 0 valid, 1 invalid") {
			t.Errorf("--help: exit %d\n%s", code, out)
		}
	})
}

// playedRecord plays a whole 2-player game on the real service and store,
// moves chosen by the bot, and returns its record as the server exports it.
func playedRecord(t *testing.T, mode silvergold.Mode) domain.Record {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	games := service.New(store, silvergold.NewRules())
	setup := silvergold.Setup{Mode: mode, Players: []string{"Ann", "Ben"}}
	if mode == silvergold.Digital {
		setup.Seed = "cli-record-seed"
	}
	c, err := games.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: string(mode), Players: setup.Players, Seed: setup.Seed})
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the game, built from the same setup, chooses the moves.
	mirror, err := silvergold.New(silvergold.Standard(), setup)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	bot, table := silvergold.Bot{R: r}, &silvergold.Table{R: r}
	for i := 0; ; i++ {
		actor, m, ok := silvergold.Step(mirror, bot, table)
		if !ok {
			break
		}
		if i > 2000 {
			t.Fatal("the game did not end")
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := games.Play(ctx, c.Game.ID, actor, b, domain.PlayOptions{}); err != nil {
			t.Fatalf("move %d %s: %v", i+1, b, err)
		}
		if err := mirror.Play(actor, &m); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := games.Record(ctx, c.Game.ID, domain.Public)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Ended {
		t.Fatal("the recorded game has not ended")
	}
	return rec
}

func recordFile(t *testing.T, rec domain.Record) string {
	t.Helper()
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "record.json", string(b))
}

func TestVerifyRecordCommand(t *testing.T) {
	for _, mode := range []silvergold.Mode{silvergold.Digital, silvergold.Physical} {
		t.Run(string(mode), func(t *testing.T) {
			rec := playedRecord(t, mode)
			file := recordFile(t, rec)
			want := domain.VerifyRecord([]domain.Ruleset{silvergold.NewRules()}, rec)
			var score silvergold.Score
			if err := json.Unmarshal(want.Score, &score); err != nil || !want.Valid || !score.Final {
				t.Fatalf("the played record: %+v %v", want, err)
			}

			code, out, errOut := verifyRun(t, "", "record", file)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
			}
			winner := score.Ranking[0]
			for _, s := range []string{"VALID: " + plural(len(rec.Moves), "move") + " replayed", "Final scores:", "Ann", "Ben",
				"1. " + winner.Name + ", " + itoa(winner.Total)} {
				if !strings.Contains(out, s) {
					t.Errorf("the report does not say %q:\n%s", s, out)
				}
			}

			code, out, _ = verifyRun(t, "", "record", "--json", file)
			var v domain.Verdict
			if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || !v.Valid || string(v.Score) != string(want.Score) {
				t.Errorf("--json: exit %d, %v: %s", code, err, out)
			}

			// One box of the first crossing moved off every card.
			bad := rec
			bad.Moves = append([]domain.RecordMove(nil), rec.Moves...)
			seq := 0
			for i, rm := range bad.Moves {
				var m silvergold.Move
				if err := json.Unmarshal(rm.Move, &m); err != nil {
					t.Fatal(err)
				}
				if m.Type == silvergold.MoveCross {
					m.Boxes[0] = silvergold.Pos{Row: 3, Col: 4}
					bad.Moves[i].Move, _ = json.Marshal(m)
					seq = i + 1
					break
				}
			}
			tampered := recordFile(t, bad)
			code, out, errOut = verifyRun(t, "", "record", tampered)
			if code != 1 || !strings.Contains(errOut, "move "+itoa(seq)+" breaks a rule") {
				t.Fatalf("tampered: exit %d, stderr %q", code, errOut)
			}
			for _, s := range []string{"INVALID: move " + itoa(seq) + " breaks a rule (illegal_move, rule box-on-card)", `"boxes":[[3,4]`,
				"The " + itoa(seq-1) + " moves before it are legal"} {
				if !strings.Contains(out, s) {
					t.Errorf("the report does not say %q:\n%s", s, out)
				}
			}
			code, out, _ = verifyRun(t, "", "record", "--json", tampered)
			v = domain.Verdict{}
			if err := json.Unmarshal([]byte(out), &v); err != nil || code != 1 || v.Valid || v.Problem == nil ||
				v.Problem.Seq != int64(seq) || v.Problem.Rule != "box-on-card" || len(v.Before) == 0 {
				t.Errorf("tampered --json: exit %d, %v: %.300s", code, err, out)
			}
		})
	}

	t.Run("a changed seed", func(t *testing.T) {
		rec := playedRecord(t, silvergold.Digital)
		rec.Seed += "x"
		code, out, errOut := verifyRun(t, "", "record", recordFile(t, rec))
		if code != 1 || !strings.Contains(out, "INVALID (seed_mismatch): the seed does not match the commitment") || !strings.Contains(errOut, "seed_mismatch") {
			t.Errorf("exit %d, stderr %q\n%s", code, errOut, out)
		}
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestVerifyRecordOtherRuleset verifies the record of a Colorful Treasure
// game offline: the report gives its ranking, not Silver & Gold's lines.
func TestVerifyRecordOtherRuleset(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	games := service.New(store, colorfultreasure.NewRules())
	setup := colorfultreasure.Setup{Mode: colorfultreasure.Digital, Players: []string{"Ann", "Ben"}, Seed: "cli-ct-seed"}
	c, err := games.Create(ctx, colorfultreasure.RulesetName, domain.CreateRequest{Mode: "digital", Players: setup.Players, Seed: setup.Seed})
	if err != nil {
		t.Fatal(err)
	}
	mirror, err := colorfultreasure.New(colorfultreasure.Standard(), setup)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	bots := []*colorfultreasure.Bot{colorfultreasure.NewBot(0, r), colorfultreasure.NewBot(1, r)}
	for {
		actor, m, ok := colorfultreasure.Step(mirror, bots)
		if !ok {
			break
		}
		b, _ := json.Marshal(&m)
		if _, err := games.Play(ctx, c.Game.ID, actor, b, domain.PlayOptions{}); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if err := mirror.Play(actor, &m); err != nil {
			t.Fatal(err)
		}
		colorfultreasure.Observe(mirror, bots)
	}
	rec, err := games.Record(ctx, c.Game.ID, domain.Public)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := verifyRun(t, "", "record", recordFile(t, rec))
	best := mirror.Score().Ranking[0]
	for _, s := range []string{"VALID: " + plural(len(rec.Moves), "move") + " replayed", "Final ranking", "1. " + best.Name + ", " + itoa(best.Total)} {
		if code != 0 || errOut != "" || !strings.Contains(out, s) {
			t.Errorf("exit %d, stderr %q; the report does not say %q:\n%s", code, errOut, s, out)
		}
	}
	if strings.Contains(out, "coins") {
		t.Errorf("the report shows Silver & Gold's lines:\n%s", out)
	}
}

// zeros is an endless input, as /dev/zero, up to a bound (so that a test of
// a reader without a limit ends), counting what is read of it.
type zeros struct{ read, bound int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.read >= z.bound {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.bound-z.read))
	clear(p[:n])
	z.read += int64(n)
	return n, nil
}

// TestVerifyInputLimits: treasury verify takes what the server takes and no
// more. An input without end (/dev/zero) is refused after the body limit,
// not read until memory runs out; a body nested deeper than the server
// parses is refused as the server refuses it.
func TestVerifyInputLimits(t *testing.T) {
	for _, tc := range []struct {
		what  string
		env   []string
		limit int64
	}{
		{"sheet", nil, 64 << 10},
		{"record", nil, 256 << 10},
		{"sheet", []string{"TREASURY_BODY_LIMIT", "100000"}, 100000},
	} {
		t.Run(tc.what, func(t *testing.T) {
			z := &zeros{bound: 64 << 20}
			old := stdin
			stdin = z
			t.Cleanup(func() { stdin = old })
			var out, errOut bytes.Buffer
			err := run(context.Background(), []string{"verify", tc.what, "-"}, env(tc.env...), &out, &errOut)
			if exitStatus(err) != 2 || !strings.Contains(fmt.Sprint(err), fmt.Sprintf("longer than %d bytes", tc.limit)) {
				t.Errorf("exit %d: %v; want exit 2 saying the input is longer than %d bytes", exitStatus(err), err, tc.limit)
			}
			if z.read > tc.limit+64<<10 {
				t.Errorf("read %d bytes of an endless input; the limit is %d", z.read, tc.limit)
			}
		})
	}
	t.Run("dev-zero", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		code, _, errOut := verifyRun(t, "", "record", "/dev/zero")
		if code != 2 || !strings.Contains(errOut, "/dev/zero is longer than 262144 bytes") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
	t.Run("nested", func(t *testing.T) {
		deep := strings.Repeat("[", 9000) + strings.Repeat("]", 9000)
		code, _, errOut := verifyRun(t, `{"players":`+deep+`}`, "sheet", "-")
		if code != 2 || !strings.Contains(errOut, "body_too_complex") || !strings.Contains(errOut, "more than 32 deep") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
}

// plural writes "1 move", "3 moves", as the English report does.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
