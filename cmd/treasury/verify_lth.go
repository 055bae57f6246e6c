package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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
func verifyLTHSheet(t tr, data []byte, asJSON bool, stdout io.Writer) error {
	out, err := luckytreasurehunter.NewRules().VerifySheet(bytes.TrimSpace(data))
	if err != nil {
		return usageError{errors.New(t.s("table.verify.cannot-check", "reason", t.reason(err)))}
	}
	out = t.localize(out)
	var res luckytreasurehunter.SheetResult
	if err := json.Unmarshal(out, &res); err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		writeLTHScores(t, stdout, res.Players, res.Ranking)
		fmt.Fprintln(stdout)
		if res.Valid {
			fmt.Fprintln(stdout, t.s("table.verify.sheet-valid"))
		} else {
			fmt.Fprintln(stdout, t.s("table.verify.sheet-mistakes-head", "count", len(res.Findings)))
			for _, f := range res.Findings {
				where := t.s("table.verify.whole-table")
				if f.Player != nil && *f.Player < len(res.Players) {
					where = res.Players[*f.Player].Name
				}
				fmt.Fprintf(stdout, "  - %s (%s): %s\n", where, f.Code, sentence(f.Reason))
			}
		}
	}
	if !res.Valid {
		return t.mistakes(len(res.Findings))
	}
	return nil
}

// writeLTHScore writes the score of a replayed Lucky Treasure Hunter game.
func writeLTHScore(t tr, w io.Writer, score []byte) error {
	var sc luckytreasurehunter.Score
	if err := json.Unmarshal(score, &sc); err != nil {
		return err
	}
	if !sc.Final {
		fmt.Fprintln(w, t.s("table.verify.scores-not-ended"))
	} else {
		fmt.Fprintln(w, t.s("table.verify.scores-final"))
	}
	writeLTHScores(t, w, sc.Players, sc.Ranking)
	return nil
}

// writeLTHScores writes every player's cards, captain and total with their
// sets, then the ranking with what decided each place.
func writeLTHScores(t tr, w io.Writer, players []luckytreasurehunter.PlayerScore, ranking []luckytreasurehunter.Place) {
	player, width := header(t, "player")
	for _, p := range players {
		width = max(width, utf8.RuneCountInString(p.Name))
	}
	cards, wCards := header(t, "cards")
	captain, wCaptain := header(t, "captain")
	total, wTotal := header(t, "total")
	sets, _ := header(t, "sets")
	fmt.Fprintln(w, padRight(player, width)+"  "+cards+"  "+captain+"  "+total+"  "+sets)
	for _, p := range players {
		sets := strings.Trim(fmt.Sprint(p.SetSizes), "[]")
		fmt.Fprintf(w, "%s  %*d  %*d  %*d  %s\n", padRight(p.Name, width), wCards, p.Cards, wCaptain, p.Captain, wTotal, p.Total, sets)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, t.s("table.verify.ranking"))
	for i, p := range ranking {
		line := fmt.Sprintf("  %d. %s, %d", p.Rank, p.Name, p.Total)
		if i > 0 {
			above := ranking[i-1]
			switch p.DecidedBy {
			case "total":
				line += " - " + t.s("table.verify.fewer-points", "name", above.Name)
			case "set_sizes":
				line += " - " + t.s("table.verify.lth-set", "name", above.Name, "set", p.DecidingSet)
			case "shared":
				line += " - " + t.s("table.verify.lth-shared", "name", above.Name)
			}
		}
		fmt.Fprintln(w, line)
	}
}
