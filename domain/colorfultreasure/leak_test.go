package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// FaceDownNamed returns a description of the first card in the JSON doc that
// names a card lying face down in g's grid: an object with a "kind" and a
// place ("column", "row") or a "wonder", or a grid cell drawn as a kind.
// Empty when doc names none. It reads g's digital grid (tests only).
func faceDownNamed(g *Game, doc []byte) string {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return "not JSON: " + err.Error()
	}
	return walkFaceDown(g, v)
}

func walkFaceDown(g *Game, v any) string {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if s := walkFaceDown(g, e); s != "" {
				return s
			}
		}
	case map[string]any:
		if ks, ok := x["kind"].(string); ok {
			k, _ := ParseKind(ks)
			if col, ok := x["column"].(float64); ok {
				c := g.cell(Pos{int(col), int(x["row"].(float64))})
				if c != nil && c.State == CellDown {
					return fmt.Sprintf("%v names the face-down card at column %v row %v", x, col, x["row"])
				}
			} else if w, ok := x["wonder"].(string); ok {
				col, _ := g.cat.Index(w)
				for _, c := range g.Grid[col] {
					if c.Kind == int8(k) && c.State == CellDown {
						return fmt.Sprintf("%v names a card face down in the grid", x)
					}
				}
			}
		}
		if cols, ok := x["columns"].([]any); ok {
			for ci, col := range cols {
				for r, cell := range col.(map[string]any)["cells"].([]any) {
					s := cell.(string)
					if s != "down" && s != "gone" && g.Grid[ci][r].State != CellUp {
						return fmt.Sprintf("the view shows %s at column %d row %d, which is not face up", s, ci, r)
					}
				}
			}
		}
		for _, e := range x {
			if s := walkFaceDown(g, e); s != "" {
				return s
			}
		}
	}
	return ""
}

// TestNoFaceDownCardLeaks plays digital games of every variant and, after
// every move, reads everything each viewer can read as a catch-up reader
// (views, legal moves, score, the move log and its events): none names a card
// that is face down now.
func TestNoFaceDownCardLeaks(t *testing.T) {
	games := 30
	if testing.Short() || raceEnabled {
		games = 6
	}
	for i := 0; i < games; i++ {
		s := randomSetup(uint64(900+i), 2+i%3, Digital, variants[i%3])
		var records []domain.MoveRecord
		var events [][]domain.Event
		g, err := New(Standard(), s)
		require.NoError(t, err)
		w := Wrap(g)
		viewers := []domain.Viewer{domain.Public, domain.HostViewer}
		for seat := range s.Players {
			viewers = append(viewers, domain.SeatViewer(seat))
		}
		_, log := randomGame(t, s, uint64(900+i), nil) // the moves, replayed below through the adapter
		for n, pm := range log {
			b, _ := json.Marshal(&pm.move)
			logged, err := w.Apply(pm.actor, b)
			require.NoError(t, err)
			records = append(records, domain.MoveRecord{Seq: int64(n + 1), Actor: pm.actor, Move: logged.Move, Public: logged.Public, For: logged.For, NotHost: logged.NotHost})
			events = append(events, w.Events())
			if g.Phase == PhaseEnded {
				break
			}
			for _, v := range viewers {
				check := func(what string, doc []byte) {
					if s := faceDownNamed(g, doc); s != "" {
						t.Fatalf("game %d after move %d: %s read by %+v: %s\n%s", i, n+1, what, v, s, doc)
					}
				}
				view, _ := w.AppendView(nil, v)
				check("the view", view)
				for seat := -1; seat < len(s.Players); seat++ {
					l, _ := w.LegalMoves(v, seat)
					check("legal moves", l)
				}
				score, _ := w.Score()
				check("the score", score)
				for j := range records {
					check("the move log", domain.DiscloseMove(&records[j], v, false))
					for _, e := range domain.DiscloseEvents(events[j], v, false, false) {
						check("event "+e.Type, e.Data)
					}
				}
			}
		}
	}
}
