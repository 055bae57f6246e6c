package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// verifyOtherSheet checks the paper tally of a ruleset that has no report of
// its own here: it prints what every ruleset's sheet result holds, the
// ranking and the findings (--json gives every line).
func verifyOtherSheet(ruleset string, data []byte, asJSON bool, stdout io.Writer) error {
	var sv domain.SheetVerifier
	for _, r := range rulesets.All() {
		if v, ok := r.(domain.SheetVerifier); ok && r.Name() == ruleset {
			sv = v
		}
	}
	if sv == nil {
		return usageError{fmt.Errorf("cannot check the sheet: this server checks no score sheet of ruleset %q", ruleset)}
	}
	out, err := sv.VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{fmt.Errorf("cannot check the sheet: %s", domain.ErrorReason(err))}
	}
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
		fmt.Fprintf(stdout, "Ranking (%s; --json gives every line):\n", ruleset)
		for _, p := range res.Ranking {
			fmt.Fprintf(stdout, "  %d. %s, %d", p.Rank, oneLine(p.Name), p.Total)
			if p.DecidedBy != "" {
				fmt.Fprintf(stdout, " (%s)", p.DecidedBy)
			}
			fmt.Fprintln(stdout)
		}
		if len(res.Findings) == 0 {
			fmt.Fprintln(stdout, "\nThe sheet holds no mistake.")
		} else {
			fmt.Fprintf(stdout, "\nThe sheet has %s:\n", plural(len(res.Findings), "mistake"))
			for _, f := range res.Findings {
				fmt.Fprintf(stdout, "  - (%s) %s\n", f.Code, sentence(f.Reason))
			}
		}
	}
	if !res.Valid {
		return fmt.Errorf("the sheet has %s", plural(len(res.Findings), "mistake"))
	}
	return nil
}
