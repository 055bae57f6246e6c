package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
)

// sheetRuleset reads the ruleset a sheet names ("" when it names none).
func sheetRuleset(data []byte) string {
	var head struct {
		Ruleset string `json:"ruleset"`
	}
	_ = json.Unmarshal(data, &head) // an unreadable sheet is reported by the check itself
	return head.Ruleset
}

// verifyLTHSheet checks a Lucky Treasure Hunter tally.
func verifyLTHSheet(data []byte, asJSON bool, stdout io.Writer) error {
	out, err := luckytreasurehunter.NewRules().VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{fmt.Errorf("cannot check the sheet: %s", domain.ErrorReason(err))}
	}
	var res luckytreasurehunter.SheetResult
	if err := json.Unmarshal(out, &res); err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		writeLTHScores(stdout, res.Players, res.Ranking)
		fmt.Fprintln(stdout)
		if res.Valid {
			fmt.Fprintln(stdout, "The sheet is valid: nothing on it breaks the rules.")
		} else {
			fmt.Fprintf(stdout, "The sheet has %s:\n", plural(len(res.Findings), "mistake"))
			for _, f := range res.Findings {
				where := "The whole table"
				if f.Player != nil && *f.Player < len(res.Players) {
					where = res.Players[*f.Player].Name
				}
				fmt.Fprintf(stdout, "  - %s (%s): %s\n", where, f.Code, sentence(f.Reason))
			}
		}
	}
	if !res.Valid {
		return fmt.Errorf("the sheet has %s", plural(len(res.Findings), "mistake"))
	}
	return nil
}

// writeLTHScore writes the score of a replayed Lucky Treasure Hunter game.
func writeLTHScore(w io.Writer, score []byte) error {
	var sc luckytreasurehunter.Score
	if err := json.Unmarshal(score, &sc); err != nil {
		return err
	}
	if !sc.Final {
		fmt.Fprintln(w, "The game had not ended; the scores as they stood:")
	} else {
		fmt.Fprintln(w, "Final scores:")
	}
	writeLTHScores(w, sc.Players, sc.Ranking)
	return nil
}

// writeLTHScores writes every player's cards, captain and total with their
// sets, then the ranking with what decided each place.
func writeLTHScores(w io.Writer, players []luckytreasurehunter.PlayerScore, ranking []luckytreasurehunter.Place) {
	width := len("player")
	for _, p := range players {
		width = max(width, utf8.RuneCountInString(p.Name))
	}
	fmt.Fprintf(w, "%-*s  cards  captain  total  sets\n", width, "player")
	for _, p := range players {
		sets := strings.Trim(fmt.Sprint(p.SetSizes), "[]")
		fmt.Fprintf(w, "%-*s  %5d  %7d  %5d  %s\n", width, p.Name, p.Cards, p.Captain, p.Total, sets)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ranking:")
	for i, p := range ranking {
		line := fmt.Sprintf("  %d. %s, %d", p.Rank, p.Name, p.Total)
		if i > 0 {
			above := ranking[i-1]
			switch p.DecidedBy {
			case "total":
				line += fmt.Sprintf(" - fewer points than %s", above.Name)
			case "set_sizes":
				line += fmt.Sprintf(" - tied with %s on points; %s's set number %d (largest first) is larger", above.Name, above.Name, p.DecidingSet)
			case "shared":
				line += fmt.Sprintf(" - tied with %s on points and on every set size: the place is shared", above.Name)
			}
		}
		fmt.Fprintln(w, line)
	}
}
