package luckytreasurehunter

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/treasury-games/treasury/domain/report"
)

var _ report.Writer = Rules{}

// DigitalHow says that a replayed digital game's seed deals every card drawn
// and rolls every die.
func (Rules) DigitalHow() string { return "table.verify.how-digital-dice" }

// WriteSheet writes a checked tally for people: every player's score, the
// ranking and each finding.
func (Rules) WriteSheet(t report.T, w io.Writer, result []byte) error {
	var res SheetResult
	if err := json.Unmarshal(result, &res); err != nil {
		return err
	}
	writeScores(t, w, res.Players, res.Ranking)
	fmt.Fprintln(w)
	if !t.SheetVerdict(w, res.Valid, len(res.Findings)) {
		return nil
	}
	for _, f := range res.Findings {
		where := t.Where(f.Player, len(res.Players), func(i int) string { return res.Players[i].Name })
		fmt.Fprintf(w, "  - %s (%s): %s\n", where, f.Code, report.Sentence(f.Reason))
	}
	return nil
}

// WriteScore writes the score of a replayed game: whether it has ended,
// every player's score and the ranking.
func (Rules) WriteScore(t report.T, w io.Writer, score []byte) error {
	var sc Score
	if err := json.Unmarshal(score, &sc); err != nil {
		return err
	}
	t.ScoresHead(w, sc.Final)
	writeScores(t, w, sc.Players, sc.Ranking)
	return nil
}

// writeScores writes every player's cards, captain and total with their
// sets, then the ranking with what decided each place.
func writeScores(t report.T, w io.Writer, players []PlayerScore, ranking []Place) {
	player, width := t.Header("player")
	for _, p := range players {
		width = max(width, utf8.RuneCountInString(p.Name))
	}
	cards, wCards := t.Header("cards")
	captain, wCaptain := t.Header("captain")
	total, wTotal := t.Header("total")
	sets, _ := t.Header("sets")
	fmt.Fprintln(w, report.PadRight(player, width)+"  "+cards+"  "+captain+"  "+total+"  "+sets)
	for _, p := range players {
		sets := strings.Trim(fmt.Sprint(p.SetSizes), "[]")
		fmt.Fprintf(w, "%s  %*d  %*d  %*d  %s\n", report.PadRight(p.Name, width), wCards, p.Cards, wCaptain, p.Captain, wTotal, p.Total, sets)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, t.S("table.verify.ranking"))
	for i, p := range ranking {
		line := fmt.Sprintf("  %d. %s, %d", p.Rank, p.Name, p.Total)
		if i > 0 {
			above := ranking[i-1]
			switch p.DecidedBy {
			case "total":
				line += " - " + t.S("table.verify.fewer-points", "name", above.Name)
			case "set_sizes":
				line += " - " + t.S("table.verify.lth-set", "name", above.Name, "set", p.DecidingSet)
			case "shared":
				line += " - " + t.S("table.verify.lth-shared", "name", above.Name)
			}
		}
		fmt.Fprintln(w, line)
	}
}
