// Package groups keeps what a companion app keeps after the game: groups of
// people who play together, their members, every finished game as a play,
// and the statistics computed from the plays. It knows no game's rules: a
// play's scores come from a ruleset's score or checked sheet (JSON with
// "players" and "ranking", the shape every ruleset shares).
package groups

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/treasury-games/treasury/domain"
)

// scored is the part of a ruleset's score (or checked sheet) a play keeps.
type scored struct {
	Valid   *bool             `json:"valid"` // a checked sheet's verdict
	Players []json.RawMessage `json:"players"`
	Ranking []struct {
		Rank      int    `json:"rank"`
		Seat      int    `json:"seat"`
		Name      string `json:"name"`
		Total     int    `json:"total"`
		DecidedBy string `json:"decided_by"`
	} `json:"ranking"`
}

// playersFromScore reads every player's total, rank, what decided the place
// and score lines from a ruleset's score JSON, in seat order. members[seat]
// is the member of each seat; start is the start player's seat (-1: not
// known).
func playersFromScore(score []byte, members []string, start int) ([]domain.PlayPlayer, error) {
	var s scored
	if err := json.Unmarshal(score, &s); err != nil {
		return nil, domain.Fail(domain.Invalid, "table.play.score-unreadable", "error", err.Error())
	}
	if len(s.Players) != len(members) || len(s.Ranking) != len(members) {
		return nil, domain.Fail(domain.Invalid, "table.play.score-size", "players", len(s.Players), "places", len(s.Ranking), "members", len(members))
	}
	out := make([]domain.PlayPlayer, len(members))
	for i, raw := range s.Players {
		var head struct {
			Seat  int             `json:"seat"`
			Name  string          `json:"name"`
			Total int             `json:"total"`
			Lines json.RawMessage `json:"lines"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, domain.Fail(domain.Invalid, "table.play.player-unreadable", "player", i, "error", err.Error())
		}
		if head.Seat < 0 || head.Seat >= len(members) {
			return nil, domain.Fail(domain.Invalid, "table.play.player-seat", "player", i, "seat", head.Seat)
		}
		var lines []domain.ScoreLine
		if len(head.Lines) > 0 {
			lines = intMembers(head.Lines, nil)
		} else {
			// A game without a "lines" object (Lucky Treasure Hunter):
			// its whole-number parts of the score, as the score names them.
			lines = intMembers(raw, map[string]bool{"seat": true, "total": true})
		}
		out[head.Seat] = domain.PlayPlayer{Member: members[head.Seat], Name: head.Name, Seat: head.Seat,
			Score: head.Total, Start: head.Seat == start, Lines: lines}
	}
	for _, r := range s.Ranking {
		if r.Seat < 0 || r.Seat >= len(out) {
			return nil, domain.Fail(domain.Invalid, "table.play.ranking-seat", "seat", r.Seat)
		}
		p := &out[r.Seat]
		p.Rank, p.DecidedBy, p.Winner = r.Rank, r.DecidedBy, r.Rank == 1
	}
	for i, p := range out {
		if p.Rank == 0 {
			return nil, domain.Fail(domain.Invalid, "table.play.ranking-missing", "seat", i)
		}
	}
	return out, nil
}

// intMembers returns the members of a JSON object whose values are whole
// numbers, in the order the object has them, leaving out those in skip.
func intMembers(obj json.RawMessage, skip map[string]bool) []domain.ScoreLine {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	lines := []domain.ScoreLine{}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return lines
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return lines
		}
		name, _ := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return lines
		}
		if n, ok := v.(json.Number); ok && !skip[name] {
			if i, err := n.Int64(); err == nil {
				lines = append(lines, domain.ScoreLine{Line: name, Value: int(i)})
			}
		}
	}
	return lines
}

// sheetNames returns the players' names of a checked sheet, in sheet order,
// and refuses a sheet with findings.
func sheetNames(result []byte) ([]string, error) {
	var s scored
	if err := json.Unmarshal(result, &s); err != nil {
		return nil, fmt.Errorf("groups: read a checked sheet: %w", err)
	}
	if s.Valid != nil && !*s.Valid {
		return nil, domain.Fail(domain.Invalid, "table.play.sheet-mistakes")
	}
	names := make([]string, len(s.Players))
	for i, raw := range s.Players {
		var p struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("groups: read a checked sheet: %w", err)
		}
		names[i] = p.Name
	}
	return names, nil
}
