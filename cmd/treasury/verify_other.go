package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/treasury-games/treasury/domain/report"
)

// writeOtherSheet writes the checked paper tally of a ruleset that has no
// report of its own (no report.Writer): what every ruleset's sheet result
// holds, the ranking and the findings (--json gives every line).
func writeOtherSheet(t tr, w io.Writer, ruleset string, result []byte) error {
	var res struct {
		Ranking []struct {
			Rank      int    `json:"rank"`
			Name      string `json:"name"`
			Total     int    `json:"total"`
			DecidedBy string `json:"decided_by"`
		} `json:"ranking"`
		Findings []struct {
			Code   string `json:"code"`
			Reason string `json:"reason"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return err
	}
	fmt.Fprintln(w, t.S("table.verify.ranking-other", "ruleset", ruleset))
	for _, p := range res.Ranking {
		fmt.Fprintf(w, "  %d. %s, %d", p.Rank, report.OneLine(p.Name), p.Total)
		if p.DecidedBy != "" {
			fmt.Fprintf(w, " (%s)", p.DecidedBy)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	if len(res.Findings) == 0 {
		fmt.Fprintln(w, t.S("table.verify.sheet-no-mistake"))
	} else {
		fmt.Fprintln(w, t.S("table.verify.sheet-mistakes-head", "count", len(res.Findings)))
		for _, f := range res.Findings {
			fmt.Fprintf(w, "  - (%s) %s\n", f.Code, report.Sentence(f.Reason))
		}
	}
	return nil
}

// writeOtherScore writes the score of a replayed game of a ruleset that has
// no report of its own: the totals and places every ruleset's score has.
func writeOtherScore(t tr, w io.Writer, score []byte) error {
	var sc struct {
		Final   bool `json:"final"`
		Ranking []struct {
			Rank  int    `json:"rank"`
			Name  string `json:"name"`
			Total int    `json:"total"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(score, &sc); err != nil {
		return err
	}
	if sc.Final {
		fmt.Fprintln(w, t.S("table.verify.ranking-final"))
	} else {
		fmt.Fprintln(w, t.S("table.verify.ranking-not-ended"))
	}
	for _, p := range sc.Ranking {
		fmt.Fprintf(w, "  %d. %s, %d\n", p.Rank, report.OneLine(p.Name), p.Total)
	}
	return nil
}
