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
	"github.com/treasury-games/treasury/domain/i18n"
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
  --lang LANG     the language of the report (en, de); by default the one of
                  LC_ALL, LC_MESSAGES or LANG (de_DE.UTF-8 is German), else English
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
	langFlag := fs.String("lang", "", "")
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
	t := tr{lang: reportLang(*langFlag, getenv)}
	// What is printed comes from the file: never let it drive the terminal.
	stdout = terminalSafe{stdout}
	if what == "sheet" {
		switch r := sheetRuleset(data); r {
		case luckytreasurehunter.RulesetName:
			return verifyLTHSheet(t, data, *asJSON, stdout)
		case "", silvergold.RulesetName:
			return verifySheet(t, sg, data, *asJSON, stdout)
		default:
			return verifyOtherSheet(t, r, data, *asJSON, stdout)
		}
	}
	return verifyRecord(t, sg, data, *asJSON, stdout)
}

// tr renders the report's sentences in one language.
type tr struct{ lang i18n.Lang }

// s renders message key with its parameters (name, value pairs).
func (t tr) s(key string, kv ...any) string { return i18n.Render(t.lang, i18n.M(key, kv...)) }

// term renders the term prefix+id, or id itself when there is no such term.
func (t tr) term(prefix, id string) string {
	if !i18n.Has(i18n.English, prefix+id) {
		return id
	}
	return i18n.Render(t.lang, i18n.M(prefix+id))
}

// reason renders the reason of err in t's language.
func (t tr) reason(err error) string {
	if m := domain.ErrorMessage(err); !m.Zero() {
		return i18n.Render(t.lang, m)
	}
	return domain.ErrorReason(err)
}

// localize renders every text of a JSON answer that has a message beside
// it in t's language, as the server does for a client's Accept-Language.
func (t tr) localize(b []byte) []byte { return i18n.Localize(t.lang, b) }

// mistakes is the error a sheet with n findings ends with.
func (t tr) mistakes(n int) error {
	return errors.New(t.s("table.verify.sheet-mistakes", "count", n))
}

// reportLang is the language of the report: the --lang flag's, else the
// one the environment names (LC_ALL, then LC_MESSAGES, then LANG, as POSIX
// orders them), else English.
func reportLang(flagValue string, getenv func(string) string) i18n.Lang {
	if flagValue != "" {
		return i18n.Match(posixLocale(flagValue))
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return i18n.Match(posixLocale(v))
		}
	}
	return i18n.English
}

// posixLocale turns a POSIX locale (de_DE.UTF-8, de_AT@euro) into a BCP 47
// tag (de-DE, de-AT); C and POSIX name no language.
func posixLocale(s string) string {
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if s == "C" || s == "POSIX" {
		return ""
	}
	return strings.ReplaceAll(s, "_", "-")
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

func verifySheet(t tr, sg *silvergold.Rules, data []byte, asJSON bool, stdout io.Writer) error {
	out, err := sg.VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(t.s("table.verify.cannot-check", "reason", t.reason(err)))}
	}
	out = t.localize(out)
	var res silvergold.SheetResult
	if err := json.Unmarshal(out, &res); err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		writeSheet(t, stdout, res)
	}
	if !res.Valid {
		return t.mistakes(len(res.Findings))
	}
	return nil
}

func verifyRecord(t tr, sg *silvergold.Rules, data []byte, asJSON bool, stdout io.Writer) error {
	rec, err := api.DecodeRecord(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(t.reason(err))}
	}
	v := domain.VerifyRecord(rulesets.All(sg), rec)
	out, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out = t.localize(out)
	if err := json.Unmarshal(out, &v); err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else if err := writeVerdict(t, stdout, rec, v); err != nil {
		return err
	}
	if !v.Valid {
		if v.Problem.Seq > 0 {
			return errors.New(t.s("table.verify.record-invalid-move", "seq", v.Problem.Seq))
		}
		return errors.New(t.s("table.verify.record-invalid", "code", v.Problem.Code))
	}
	return nil
}

// writeSheet writes a checked sheet for people: a table of every player's
// lines, the ranking with what decided each place, and each finding.
func writeSheet(t tr, w io.Writer, res silvergold.SheetResult) {
	writeLines(t, w, res.Players)
	fmt.Fprintln(w)
	writeRanking(t, w, res.Ranking, res.Players)
	fmt.Fprintln(w)
	if res.Valid {
		fmt.Fprintln(w, t.s("table.verify.sheet-valid"))
		return
	}
	fmt.Fprintln(w, t.s("table.verify.sheet-mistakes-head", "count", len(res.Findings)))
	for _, f := range res.Findings {
		where := t.s("table.verify.whole-table")
		if f.Player != nil && *f.Player < len(res.Players) {
			where = res.Players[*f.Player].Name
		}
		fmt.Fprintln(w, "  - "+t.s("table.verify.finding-line", "where", where, "line", t.term(linePrefix, f.Line), "code", f.Code, "reason", sentence(f.Reason)))
	}
}

// linePrefix starts the names of score lines and columns in the report.
const linePrefix = "table.verify.line."

// header returns the name of column id in t's language and its width.
func header(t tr, id string) (string, int) {
	name := t.term(linePrefix, id)
	return name, utf8.RuneCountInString(name)
}

// writeLines writes a table of every player's lines and total.
func writeLines(t tr, w io.Writer, players []silvergold.PlayerScore) {
	player, width := header(t, "player")
	for _, p := range players {
		width = max(width, utf8.RuneCountInString(oneLine(p.Name)))
	}
	cols := []string{"coins", "cups", "palms", "cards", "seals", "total"}
	widths := make([]int, len(cols))
	head := padRight(player, width)
	for i, c := range cols {
		var name string
		name, widths[i] = header(t, c)
		head += "  " + name
	}
	fmt.Fprintln(w, head)
	for _, p := range players {
		l := p.Lines
		row := padRight(oneLine(p.Name), width)
		for i, n := range []int{l.Coins, l.Cups, l.Palms, l.Cards, l.Seals, p.Total} {
			row += fmt.Sprintf("  %*d", widths[i], n)
		}
		fmt.Fprintln(w, row)
	}
}

// padRight pads s with spaces to width characters.
func padRight(s string, width int) string {
	if n := width - utf8.RuneCountInString(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// writeRanking writes the places and what decided each.
func writeRanking(t tr, w io.Writer, ranking []silvergold.Place, players []silvergold.PlayerScore) {
	fmt.Fprintln(w, t.s("table.verify.ranking"))
	for i, p := range ranking {
		line := fmt.Sprintf("  %d. %s, %d", p.Rank, oneLine(p.Name), p.Total)
		if i > 0 {
			line += " - " + decided(t, ranking[i-1], p, players)
		}
		fmt.Fprintln(w, line)
	}
}

// decided says what put place p below the one ranked just above it.
func decided(t tr, above, p silvergold.Place, players []silvergold.PlayerScore) string {
	switch p.DecidedBy {
	case "total":
		return t.s("table.verify.fewer-points", "name", oneLine(above.Name))
	case "shared":
		return t.s("table.verify.sg-shared", "name", oneLine(above.Name))
	}
	c, ok := silvergold.ParseColour(p.DecidedBy)
	if !ok || above.Seat >= len(players) || p.Seat >= len(players) {
		return p.DecidedBy
	}
	return t.s("table.verify.sg-colour", "name", oneLine(above.Name), "points", p.Total, "colour", t.term(colourPrefix, c.String()),
		"more", players[above.Seat].Completed.Get(c), "fewer", players[p.Seat].Completed.Get(c))
}

// colourPrefix starts the names of Silver & Gold's card colours in the
// report ("more grey cards").
const colourPrefix = "table.verify.colour."

// writeVerdict writes the outcome of replaying a record for people.
func writeVerdict(t tr, w io.Writer, rec domain.Record, v domain.Verdict) error {
	fmt.Fprintln(w, t.s("table.verify.record-head", "game", rec.GameID, "ruleset", rec.Ruleset, "mode", rec.Mode,
		"count", len(rec.Players), "names", joinNames(rec.Players), "catalog", rec.Catalog.Name))
	if !v.Valid {
		p := v.Problem
		if p.Seq == 0 {
			fmt.Fprintln(w, t.s("table.verify.invalid", "code", p.Code, "reason", sentence(p.Reason)))
			return nil
		}
		code := p.Code
		if p.Rule != "" {
			code = t.s("table.verify.code-rule", "code", p.Code, "rule", p.Rule)
		}
		fmt.Fprintln(w, t.s("table.verify.invalid-move", "seq", p.Seq, "code", code, "reason", sentence(p.Reason)))
		if i := int(p.Seq) - 1; i < len(rec.Moves) {
			m := rec.Moves[i]
			if !m.Actor.Host && m.Actor.Seat != nil {
				fmt.Fprintln(w, t.s("table.verify.move-by-seat", "seq", p.Seq, "seat", *m.Actor.Seat, "move", compact(m.Move)))
			} else {
				fmt.Fprintln(w, t.s("table.verify.move-by-host", "seq", p.Seq, "move", compact(m.Move)))
			}
		}
		if v.Moves == 0 {
			fmt.Fprintln(w, t.s("table.verify.first-move", "seq", p.Seq))
		} else {
			fmt.Fprintln(w, t.s("table.verify.moves-before", "count", v.Moves, "seq", p.Seq))
		}
		return nil
	}
	how := t.s("table.verify.how-physical")
	if rec.Mode == "digital" {
		how = t.s("table.verify.how-digital")
	}
	if rec.Ruleset == luckytreasurehunter.RulesetName {
		if rec.Mode == "digital" {
			how = t.s("table.verify.how-digital-dice")
		}
		fmt.Fprintln(w, t.s("table.verify.valid", "count", v.Moves, "how", how))
		fmt.Fprintln(w)
		return writeLTHScore(t, w, v.Score)
	}
	if rec.Ruleset != silvergold.RulesetName {
		return writeOtherVerdict(t, w, rec, v)
	}
	var sc silvergold.Score
	if err := json.Unmarshal(v.Score, &sc); err != nil {
		return err
	}
	fmt.Fprintln(w, t.s("table.verify.valid", "count", v.Moves, "how", how))
	fmt.Fprintln(w)
	if !sc.Final {
		fmt.Fprintln(w, t.s("table.verify.scores-not-ended"))
	} else {
		fmt.Fprintln(w, t.s("table.verify.scores-final"))
	}
	writeLines(t, w, sc.Players)
	fmt.Fprintln(w)
	writeRanking(t, w, sc.Ranking, sc.Players)
	return nil
}

// writeOtherVerdict writes a valid record of a ruleset other than Silver &
// Gold: the totals and places every ruleset's score has.
func writeOtherVerdict(t tr, w io.Writer, rec domain.Record, v domain.Verdict) error {
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
	how := t.s("table.verify.how-physical")
	if rec.Mode == "digital" {
		how = t.s("table.verify.how-digital-seed")
	}
	fmt.Fprintln(w, t.s("table.verify.valid", "count", v.Moves, "how", how))
	fmt.Fprintln(w)
	if sc.Final {
		fmt.Fprintln(w, t.s("table.verify.ranking-final"))
	} else {
		fmt.Fprintln(w, t.s("table.verify.ranking-not-ended"))
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

// joinNames lists names on one line.
func joinNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = oneLine(n)
	}
	return strings.Join(out, ", ")
}
