package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// verifyOtherSheet checks the paper tally of a ruleset that has no report of
// its own here: it prints what every ruleset's sheet result holds, the
// ranking and the findings (--json gives every line).
func verifyOtherSheet(t tr, ruleset string, data []byte, asJSON bool, stdout io.Writer) error {
	var sv domain.SheetVerifier
	for _, r := range rulesets.All() {
		if v, ok := r.(domain.SheetVerifier); ok && r.Name() == ruleset {
			sv = v
		}
	}
	if sv == nil {
		return usageError{errors.New(t.s("table.verify.cannot-check", "reason", t.s("table.verify.no-sheet", "ruleset", ruleset)))}
	}
	out, err := sv.VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(t.s("table.verify.cannot-check", "reason", t.reason(err)))}
	}
	out = t.localize(out)
	var res struct {
		Valid   bool `json:"valid"`
		Ranking []struct {
			Rank      int    `json:"rank"`
			Name      string `json:"name"`
			Total     int    `json:"total"`
			DecidedBy string `json:"decided_by"`
		} `json:"ranking"`
		Findings []struct {
			Code   string `json:"code"`
			Player *int   `json:"player"`
			Reason string `json:"reason"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		fmt.Fprintln(stdout, t.s("table.verify.ranking-other", "ruleset", ruleset))
		for _, p := range res.Ranking {
			fmt.Fprintf(stdout, "  %d. %s, %d", p.Rank, oneLine(p.Name), p.Total)
			if p.DecidedBy != "" {
				fmt.Fprintf(stdout, " (%s)", p.DecidedBy)
			}
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout)
		if len(res.Findings) == 0 {
			fmt.Fprintln(stdout, t.s("table.verify.sheet-no-mistake"))
		} else {
			fmt.Fprintln(stdout, t.s("table.verify.sheet-mistakes-head", "count", len(res.Findings)))
			for _, f := range res.Findings {
				fmt.Fprintf(stdout, "  - (%s) %s\n", f.Code, sentence(f.Reason))
			}
		}
	}
	if !res.Valid {
		return t.mistakes(len(res.Findings))
	}
	return nil
}
