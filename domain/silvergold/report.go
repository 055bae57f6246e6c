package silvergold

import (
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/treasury-games/treasury/domain/report"
)

var _ report.Writer = (*Rules)(nil)

// DigitalHow says that a replayed digital game's seed deals every card drawn.
func (r *Rules) DigitalHow() string { return "table.verify.how-digital" }

// WriteSheet writes a checked sheet for people: a table of every player's
// lines, the ranking with what decided each place, and each finding.
func (r *Rules) WriteSheet(t report.T, w io.Writer, result []byte) error {
	var res SheetResult
	if err := json.Unmarshal(result, &res); err != nil {
		return err
	}
	writeLines(t, w, res.Players)
	fmt.Fprintln(w)
	writeRanking(t, w, res.Ranking, res.Players)
	fmt.Fprintln(w)
	if !t.SheetVerdict(w, res.Valid, len(res.Findings)) {
		return nil
	}
	for _, f := range res.Findings {
		where := t.Where(f.Player, len(res.Players), func(i int) string { return res.Players[i].Name })
		fmt.Fprintln(w, "  - "+t.S("table.verify.finding-line", "where", where, "line", t.Term(report.LinePrefix, f.Line), "code", f.Code, "reason", report.Sentence(f.Reason)))
	}
	return nil
}

// WriteScore writes a replayed game's score: whether it has ended, every
// player's lines and the ranking.
func (r *Rules) WriteScore(t report.T, w io.Writer, score []byte) error {
	var sc Score
	if err := json.Unmarshal(score, &sc); err != nil {
		return err
	}
	t.ScoresHead(w, sc.Final)
	writeLines(t, w, sc.Players)
	fmt.Fprintln(w)
	writeRanking(t, w, sc.Ranking, sc.Players)
	return nil
}

// writeLines writes a table of every player's lines and total.
func writeLines(t report.T, w io.Writer, players []PlayerScore) {
	player, width := t.Header("player")
	for _, p := range players {
		width = max(width, utf8.RuneCountInString(report.OneLine(p.Name)))
	}
	cols := []string{"coins", "cups", "palms", "cards", "seals", "total"}
	widths := make([]int, len(cols))
	head := report.PadRight(player, width)
	for i, c := range cols {
		var name string
		name, widths[i] = t.Header(c)
		head += "  " + name
	}
	fmt.Fprintln(w, head)
	for _, p := range players {
		l := p.Lines
		row := report.PadRight(report.OneLine(p.Name), width)
		for i, n := range []int{l.Coins, l.Cups, l.Palms, l.Cards, l.Seals, p.Total} {
			row += fmt.Sprintf("  %*d", widths[i], n)
		}
		fmt.Fprintln(w, row)
	}
}

// writeRanking writes the places and what decided each.
func writeRanking(t report.T, w io.Writer, ranking []Place, players []PlayerScore) {
	fmt.Fprintln(w, t.S("table.verify.ranking"))
	for i, p := range ranking {
		line := fmt.Sprintf("  %d. %s, %d", p.Rank, report.OneLine(p.Name), p.Total)
		if i > 0 {
			line += " - " + decided(t, ranking[i-1], p, players)
		}
		fmt.Fprintln(w, line)
	}
}

// colourPrefix starts the names of the card colours in the report ("more
// grey cards").
const colourPrefix = "table.verify.colour."

// decided says what put place p below the one ranked just above it.
func decided(t report.T, above, p Place, players []PlayerScore) string {
	switch p.DecidedBy {
	case "total":
		return t.S("table.verify.fewer-points", "name", report.OneLine(above.Name))
	case "shared":
		return t.S("table.verify.sg-shared", "name", report.OneLine(above.Name))
	}
	c, ok := ParseColour(p.DecidedBy)
	if !ok || above.Seat >= len(players) || p.Seat >= len(players) {
		return p.DecidedBy
	}
	return t.S("table.verify.sg-colour", "name", report.OneLine(above.Name), "points", p.Total, "colour", t.Term(colourPrefix, c.String()),
		"more", players[above.Seat].Completed.Get(c), "fewer", players[p.Seat].Completed.Get(c))
}
