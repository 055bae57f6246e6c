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

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/locale"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/report"
	"github.com/treasury-games/treasury/domain/rulesets"
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
	rs, err := rules(config{catalog: *catalog})
	if err != nil {
		return usageError{err}
	}
	t := tr{report.T{Lang: reportLang(*langFlag, getenv)}}
	// What is printed comes from the file: never let it drive the terminal.
	stdout = terminalSafe{stdout}
	if what == "sheet" {
		return verifySheet(t, rs, data, *asJSON, stdout)
	}
	return verifyRecord(t, rs, data, *asJSON, stdout)
}

// tr renders the report's sentences in one language.
type tr struct{ report.T }

// reason renders the reason of err in t's language.
func (t tr) reason(err error) string {
	if m := domain.ErrorMessage(err); !m.Zero() {
		return i18n.Render(t.Lang, m)
	}
	return domain.ErrorReason(err)
}

// localize renders every text of a JSON answer that has a message beside
// it in t's language, as the server does for a client's Accept-Language.
func (t tr) localize(b []byte) []byte { return i18n.Localize(t.Lang, b) }

// mistakes is the error a sheet with n findings ends with.
func (t tr) mistakes(n int) error {
	return errors.New(t.S("table.verify.sheet-mistakes", "count", n))
}

// reportLang is the language of the report: the --lang flag's, else the
// one the environment names (LC_ALL, then LC_MESSAGES, then LANG, as POSIX
// orders them), else English.
func reportLang(flagValue string, getenv func(string) string) i18n.Lang {
	if flagValue != "" {
		return locale.Match(posixLocale(flagValue))
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return locale.Match(posixLocale(v))
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

// verifySheet checks a paper score sheet with the ruleset it names (the
// default one when it names none) and writes the ruleset's report, or the
// one every ruleset's answer allows.
func verifySheet(t tr, rs []domain.Ruleset, data []byte, asJSON bool, stdout io.Writer) error {
	name := sheetRuleset(data)
	if name == "" {
		name = rulesets.Default
	}
	sv, ok := rulesets.Named(rs, name).(domain.SheetVerifier)
	if !ok {
		return usageError{errors.New(t.S("table.verify.cannot-check", "reason", t.S("table.verify.no-sheet", "ruleset", name)))}
	}
	out, err := sv.VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(t.S("table.verify.cannot-check", "reason", t.reason(err)))}
	}
	out = t.localize(out)
	var res struct {
		Valid    bool              `json:"valid"`
		Findings []json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return err
	}
	switch rw, ok := sv.(report.Writer); {
	case asJSON:
		fmt.Fprintf(stdout, "%s\n", out)
	case ok:
		if err := rw.WriteSheet(t.T, stdout, out); err != nil {
			return err
		}
	default:
		if err := writeOtherSheet(t, stdout, name, out); err != nil {
			return err
		}
	}
	if !res.Valid {
		return t.mistakes(len(res.Findings))
	}
	return nil
}

// sheetRuleset reads the ruleset a sheet names ("" when it names none).
func sheetRuleset(data []byte) string {
	var head struct {
		Ruleset string `json:"ruleset"`
	}
	_ = json.Unmarshal(data, &head) // an unreadable sheet is reported by the check itself
	return head.Ruleset
}

func verifyRecord(t tr, rs []domain.Ruleset, data []byte, asJSON bool, stdout io.Writer) error {
	rec, err := api.DecodeRecord(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(t.reason(err))}
	}
	v := domain.VerifyRecord(rs, rec)
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
	} else if err := writeVerdict(t, stdout, rulesets.Named(rs, rec.Ruleset), rec, v); err != nil {
		return err
	}
	if !v.Valid {
		if v.Problem.Seq > 0 {
			return errors.New(t.S("table.verify.record-invalid-move", "seq", v.Problem.Seq))
		}
		return errors.New(t.S("table.verify.record-invalid", "code", v.Problem.Code))
	}
	return nil
}

// writeVerdict writes the outcome of replaying a record of ruleset r for
// people.
func writeVerdict(t tr, w io.Writer, r domain.Ruleset, rec domain.Record, v domain.Verdict) error {
	fmt.Fprintln(w, t.S("table.verify.record-head", "game", rec.GameID, "ruleset", rec.Ruleset, "mode", rec.Mode,
		"count", len(rec.Players), "names", joinNames(rec.Players), "catalog", rec.Catalog.Name))
	if !v.Valid {
		p := v.Problem
		if p.Seq == 0 {
			fmt.Fprintln(w, t.S("table.verify.invalid", "code", p.Code, "reason", report.Sentence(p.Reason)))
			return nil
		}
		code := p.Code
		if p.Rule != "" {
			code = t.S("table.verify.code-rule", "code", p.Code, "rule", p.Rule)
		}
		fmt.Fprintln(w, t.S("table.verify.invalid-move", "seq", p.Seq, "code", code, "reason", report.Sentence(p.Reason)))
		if i := int(p.Seq) - 1; i < len(rec.Moves) {
			m := rec.Moves[i]
			if !m.Actor.Host && m.Actor.Seat != nil {
				fmt.Fprintln(w, t.S("table.verify.move-by-seat", "seq", p.Seq, "seat", *m.Actor.Seat, "move", compact(m.Move)))
			} else {
				fmt.Fprintln(w, t.S("table.verify.move-by-host", "seq", p.Seq, "move", compact(m.Move)))
			}
		}
		if v.Moves == 0 {
			fmt.Fprintln(w, t.S("table.verify.first-move", "seq", p.Seq))
		} else {
			fmt.Fprintln(w, t.S("table.verify.moves-before", "count", v.Moves, "seq", p.Seq))
		}
		return nil
	}
	rw, ok := r.(report.Writer)
	how := t.S("table.verify.how-physical")
	if rec.Mode == "digital" {
		how = t.S("table.verify.how-digital-seed")
		if ok {
			how = t.S(rw.DigitalHow())
		}
	}
	fmt.Fprintln(w, t.S("table.verify.valid", "count", v.Moves, "how", how))
	fmt.Fprintln(w)
	if ok {
		return rw.WriteScore(t.T, w, v.Score)
	}
	return writeOtherScore(t, w, v.Score)
}

// compact writes a move on one line.
func compact(b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return string(b)
	}
	return out.String()
}

// joinNames lists names on one line.
func joinNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = report.OneLine(n)
	}
	return strings.Join(out, ", ")
}
