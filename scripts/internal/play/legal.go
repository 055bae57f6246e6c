package play

import "slices"

// localLegal computes what the server's legal-moves listing would say about
// a crossing, from the game as the seat sees it: every placement of the
// expedition pattern (in any rotation or mirror image) on the seat's cards,
// and every box that can be crossed alone. Only what the view shows is used:
// the pattern, the grids and the crossed boxes.
func localLegal(g game, p player) legal {
	l := legal{Action: "cross"}
	if g.State.Expedition == nil {
		return l
	}
	shapes := orientations(g.State.Expedition.Boxes)
	for _, c := range p.Cards {
		crossed := map[[2]int]bool{}
		for _, b := range c.Crossed {
			crossed[b] = true
		}
		free := func(r, col int) (bool, bool) {
			if r < 0 || r >= len(c.Grid) || col < 0 || col >= len(c.Grid[r]) {
				return false, false
			}
			sym := c.Grid[r][col]
			return sym != '.' && !crossed[[2]int{r, col}], sym == 'x'
		}
		for r, line := range c.Grid {
			for col := range line {
				if ok, x := free(r, col); ok {
					l.Singles = append(l.Singles, placement{Card: c.Card, Boxes: [][2]int{{r, col}}, Crosses: b2i(x)})
				}
			}
		}
		for _, shape := range shapes {
			for r := range c.Grid {
				for col := range c.Grid[r] {
					p := placement{Card: c.Card}
					fits := true
					for _, cell := range shape {
						ok, x := free(r+cell[0], col+cell[1])
						if !ok {
							fits = false
							break
						}
						p.Boxes = append(p.Boxes, [2]int{r + cell[0], col + cell[1]})
						p.Crosses += b2i(x)
					}
					if fits {
						l.Placements = append(l.Placements, p)
					}
				}
			}
		}
	}
	return l
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// orientations returns the distinct rotations and mirror images of a
// pattern, each shifted to the top-left corner and sorted.
func orientations(cells [][2]int) [][][2]int {
	var out [][][2]int
	shape := slices.Clone(cells)
	for mirror := range 2 {
		for range 4 {
			n := normalised(shape)
			if !slices.ContainsFunc(out, func(o [][2]int) bool { return slices.Equal(o, n) }) {
				out = append(out, n)
			}
			for i, c := range shape { // rotate a quarter turn
				shape[i] = [2]int{c[1], -c[0]}
			}
		}
		if mirror == 0 {
			for i, c := range shape {
				shape[i] = [2]int{c[0], -c[1]}
			}
		}
	}
	return out
}

func normalised(cells [][2]int) [][2]int {
	minR, minC := cells[0][0], cells[0][1]
	for _, c := range cells {
		minR, minC = min(minR, c[0]), min(minC, c[1])
	}
	out := make([][2]int, len(cells))
	for i, c := range cells {
		out[i] = [2]int{c[0] - minR, c[1] - minC}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return out
}
