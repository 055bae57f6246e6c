package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// stdin is what FILE "-" reads; tests replace it.
var stdin io.Reader = os.Stdin

const verifyUsage = `Usage:
  treasury verify sheet [flags] FILE    check a paper score sheet (JSON, as POST /v1/score-sheets/verify takes)
  treasury verify record [flags] FILE   replay a game record (JSON, as GET /v1/games/{id}/record gives)

A FILE of - reads standard input. The work is done here, without a server,
for every game the server plays (a sheet names its "ruleset"; a sheet that
names none is Silver & Gold's).

Flags:
  --json          print the answer as JSON, exactly as the server would send it
  --catalog FILE  an extra Silver & Gold catalog file, as for treasury serve (TREASURY_CATALOG)

Exit status: 0 valid, 1 invalid (a mistake on the sheet, a record that does
not hold up), 2 unusable input (an unreadable file, not JSON, not a sheet or
a record, more than the server takes: a sheet over TREASURY_BODY_LIMIT, 64 KiB
by default, a record over 256 KiB or that limit, JSON nested over 32 deep) or
a mistake in the command line.
`

// verifyCommand runs `treasury verify sheet|record`. An invalid sheet or
// record is an error (exit status 1) after the report; input that cannot be
// used is a usageError (exit status 2).
func verifyCommand(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, verifyUsage)
		return nil
	}
	if len(args) == 0 || (args[0] != "sheet" && args[0] != "record") {
		fmt.Fprint(stderr, verifyUsage)
		return usageError{errors.New("name what to verify: treasury verify sheet FILE, or treasury verify record FILE")}
	}
	what := args[0]
	fs := flag.NewFlagSet("treasury verify "+what, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	catalog := fs.String("catalog", getenv("TREASURY_CATALOG"), "")
	// Flags may come before or after FILE.
	var files []string
	for rest := args[1:]; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, verifyUsage)
				return nil
			}
			return usageError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		return usageError{fmt.Errorf("name one %s file (or - for standard input), not %d", what, len(files))}
	}
	data, err := readInput(files[0], verifyInputLimit(what, getenv))
	if err != nil {
		return usageError{err}
	}
	if reason := api.DefaultJSONLimits.Check(data); reason != "" {
		return usageError{fmt.Errorf("the server would refuse this %s (body_too_complex): %s", what, strings.Replace(reason, "the request body", "it", 1))}
	}
	sg, err := rules(config{catalog: *catalog})
	if err != nil {
		return usageError{err}
	}
	// What is printed comes from the file: never let it drive the terminal.
	stdout = terminalSafe{stdout}
	if what == "sheet" {
		switch r := sheetRuleset(data); r {
		case luckytreasurehunter.RulesetName:
			return verifyLTHSheet(data, *asJSON, stdout)
		case "", silvergold.RulesetName:
			return verifySheet(sg, data, *asJSON, stdout)
		default:
			return verifyOtherSheet(r, data, *asJSON, stdout)
		}
	}
	return verifyRecord(sg, data, *asJSON, stdout)
}

// verifyInputLimit is the most bytes the server takes for what (a sheet or a
// record) in a request body: its body limit (TREASURY_BODY_LIMIT, as for
// treasury serve), and for a record at least api.RecordBodyLimit.
func verifyInputLimit(what string, getenv func(string) string) int64 {
	limit := int64(api.DefaultBodyLimit)
	if n, err := strconv.ParseInt(getenv("TREASURY_BODY_LIMIT"), 10, 64); err == nil && n > 0 {
		limit = n
	}
	if what == "record" {
		limit = max(limit, api.RecordBodyLimit)
	}
	return limit
}

// readInput reads a file, or standard input for "-", refusing one longer
// than limit bytes after reading at most one byte more: a file such as
// /dev/zero never ends.
func readInput(name string, limit int64) ([]byte, error) {
	var r io.Reader = stdin
	what := "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, what = f, name
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is longer than %d bytes, the most the server takes (payload_too_large); TREASURY_BODY_LIMIT raises it as for treasury serve", what, limit)
	}
	return b, nil
}

func verifySheet(sg *silvergold.Rules, data []byte, asJSON bool, stdout io.Writer) error {
	out, err := sg.VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{fmt.Errorf("cannot check the sheet: %s", domain.ErrorReason(err))}
	}
	var res silvergold.SheetResult
	if err := json.Unmarshal(out, &res); err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		writeSheet(stdout, res)
	}
	if !res.Valid {
		return fmt.Errorf("the sheet has %s", plural(len(res.Findings), "mistake"))
	}
	return nil
}

func verifyRecord(sg *silvergold.Rules, data []byte, asJSON bool, stdout io.Writer) error {
	rec, err := api.DecodeRecord(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(domain.ErrorReason(err))}
	}
	v := domain.VerifyRecord(rulesets.All(sg), rec)
	if asJSON {
		out, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", out)
	} else if err := writeVerdict(stdout, rec, v); err != nil {
		return err
	}
	if !v.Valid {
		if v.Problem.Seq > 0 {
			return fmt.Errorf("the record is invalid: move %d breaks a rule", v.Problem.Seq)
		}
		return fmt.Errorf("the record is invalid: %s", v.Problem.Code)
	}
	return nil
}

// writeSheet writes a checked sheet for people: a table of every player's
// lines, the ranking with what decided each place, and each finding.
func writeSheet(w io.Writer, res silvergold.SheetResult) {
	writeLines(w, res.Players)
	fmt.Fprintln(w)
	writeRanking(w, res.Ranking, res.Players)
	fmt.Fprintln(w)
	if res.Valid {
		fmt.Fprintln(w, "The sheet is valid: nothing on it breaks the rules.")
		return
	}
	fmt.Fprintf(w, "The sheet has %s:\n", plural(len(res.Findings), "mistake"))
	for _, f := range res.Findings {
		where := "The whole table"
		if f.Player != nil && *f.Player < len(res.Players) {
			where = res.Players[*f.Player].Name
		}
		fmt.Fprintf(w, "  - %s, %s line (%s): %s\n", where, f.Line, f.Code, sentence(f.Reason))
	}
}

// writeLines writes a table of every player's lines and total.
func writeLines(w io.Writer, players []silvergold.PlayerScore) {
	width := len("player")
	for _, p := range players {
		width = max(width, utf8.RuneCountInString(oneLine(p.Name)))
	}
	fmt.Fprintf(w, "%-*s  coins  cups  palms  cards  seals  total\n", width, "player")
	for _, p := range players {
		l := p.Lines
		fmt.Fprintf(w, "%-*s  %5d  %4d  %5d  %5d  %5d  %5d\n", width, oneLine(p.Name), l.Coins, l.Cups, l.Palms, l.Cards, l.Seals, p.Total)
	}
}

// writeRanking writes the places and what decided each.
func writeRanking(w io.Writer, ranking []silvergold.Place, players []silvergold.PlayerScore) {
	fmt.Fprintln(w, "Ranking:")
	for i, p := range ranking {
		line := fmt.Sprintf("  %d. %s, %d", p.Rank, oneLine(p.Name), p.Total)
		if i > 0 {
			line += " - " + decided(ranking[i-1], p, players)
		}
		fmt.Fprintln(w, line)
	}
}

// decided says what put place p below the one ranked just above it.
func decided(above, p silvergold.Place, players []silvergold.PlayerScore) string {
	switch p.DecidedBy {
	case "total":
		return fmt.Sprintf("fewer points than %s", oneLine(above.Name))
	case "shared":
		return fmt.Sprintf("tied with %s on points and on every colour of card: the place is shared", oneLine(above.Name))
	}
	c, ok := silvergold.ParseColour(p.DecidedBy)
	if !ok || above.Seat >= len(players) || p.Seat >= len(players) {
		return p.DecidedBy
	}
	return fmt.Sprintf("tied with %s on %d points; %s completed more %s cards (%d to %d)",
		oneLine(above.Name), p.Total, oneLine(above.Name), c, players[above.Seat].Completed.Get(c), players[p.Seat].Completed.Get(c))
}

// writeVerdict writes the outcome of replaying a record for people.
func writeVerdict(w io.Writer, rec domain.Record, v domain.Verdict) error {
	fmt.Fprintf(w, "Record of game %s: %s, %s, %s (%s), catalog %s.\n", rec.GameID, rec.Ruleset, rec.Mode,
		plural(len(rec.Players), "player"), joinNames(rec.Players), rec.Catalog.Name)
	if !v.Valid {
		p := v.Problem
		if p.Seq == 0 {
			fmt.Fprintf(w, "INVALID (%s): %s\n", p.Code, sentence(p.Reason))
			return nil
		}
		code := p.Code
		if p.Rule != "" {
			code += ", rule " + p.Rule
		}
		fmt.Fprintf(w, "INVALID: move %d breaks a rule (%s): %s\n", p.Seq, code, sentence(p.Reason))
		if i := int(p.Seq) - 1; i < len(rec.Moves) {
			m := rec.Moves[i]
			by := "the host"
			if !m.Actor.Host && m.Actor.Seat != nil {
				by = fmt.Sprintf("seat %d", *m.Actor.Seat)
			}
			fmt.Fprintf(w, "Move %d, made by %s: %s\n", p.Seq, by, compact(m.Move))
		}
		before := fmt.Sprintf("The %d moves before it are legal", v.Moves)
		switch v.Moves {
		case 0:
			before = "It is the record's first move"
		case 1:
			before = "The move before it is legal"
		}
		fmt.Fprintf(w, "%s; --json shows the game as it stood before move %d.\n", before, p.Seq)
		return nil
	}
	how := "every move is legal"
	if rec.Mode == "digital" {
		how += ", the seed matches its commitment and deals every card drawn"
	}
	if rec.Ruleset == luckytreasurehunter.RulesetName {
		if rec.Mode == "digital" {
			how += " and rolls every die"
		}
		fmt.Fprintf(w, "VALID: %s replayed; %s.\n\n", plural(v.Moves, "move"), how)
		return writeLTHScore(w, v.Score)
	}
	if rec.Ruleset != silvergold.RulesetName {
		return writeOtherVerdict(w, rec, v)
	}
	var sc silvergold.Score
	if err := json.Unmarshal(v.Score, &sc); err != nil {
		return err
	}
	fmt.Fprintf(w, "VALID: %s replayed; %s.\n\n", plural(v.Moves, "move"), how)
	if !sc.Final {
		fmt.Fprintln(w, "The game had not ended; the scores as they stood:")
	} else {
		fmt.Fprintln(w, "Final scores:")
	}
	writeLines(w, sc.Players)
	fmt.Fprintln(w)
	writeRanking(w, sc.Ranking, sc.Players)
	return nil
}

// writeOtherVerdict writes a valid record of a ruleset other than Silver &
// Gold: the totals and places every ruleset's score has.
func writeOtherVerdict(w io.Writer, rec domain.Record, v domain.Verdict) error {
	var sc struct {
		Final   bool `json:"final"`
		Ranking []struct {
			Rank  int    `json:"rank"`
			Name  string `json:"name"`
			Total int    `json:"total"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(v.Score, &sc); err != nil {
		return err
	}
	how := "every move is legal"
	if rec.Mode == "digital" {
		how += " and the seed matches its commitment"
	}
	fmt.Fprintf(w, "VALID: %s replayed; %s.\n\n", plural(v.Moves, "move"), how)
	if sc.Final {
		fmt.Fprintln(w, "Final ranking (--json gives every line of the score):")
	} else {
		fmt.Fprintln(w, "The game had not ended; the ranking as it stood (--json gives every line):")
	}
	for _, p := range sc.Ranking {
		fmt.Fprintf(w, "  %d. %s, %d\n", p.Rank, oneLine(p.Name), p.Total)
	}
	return nil
}

// compact writes a move on one line.
func compact(b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return string(b)
	}
	return out.String()
}

// sentence ends a reason with a full stop, on one line (a reason may quote
// a name).
func sentence(s string) string {
	s = oneLine(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// plural writes "1 move", "3 moves".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// joinNames lists names on one line.
func joinNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = oneLine(n)
	}
	return strings.Join(out, ", ")
}
