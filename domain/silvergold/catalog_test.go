package silvergold_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	sg "github.com/treasury-games/treasury/domain/silvergold"
)

// The published counts of the deck (rules page, "Components").
var (
	deckSize      = 47
	cardsByColour = map[sg.Colour]int{sg.Grey: 11, sg.Green: 12, sg.Orange: 12, sg.Purple: 12}
	boxesByColour = map[sg.Colour]int{sg.Grey: 8, sg.Green: 10, sg.Orange: 12, sg.Purple: 14}
	// largest grid, as rows (high) by cols (wide)
	boundsByColour = map[sg.Colour][2]int{sg.Grey: {3, 4}, sg.Green: {3, 4}, sg.Orange: {4, 4}, sg.Purple: {4, 4}}
	sealPoints     = map[sg.Colour]int{sg.Grey: 1, sg.Green: 1, sg.Orange: 2, sg.Purple: 2}
)

func TestCatalogStandard(t *testing.T) {
	cat := sg.Standard()
	require.NotNil(t, cat)

	t.Run("name and hash", func(t *testing.T) {
		assert.Equal(t, "standard", cat.Name)
		sum := sha256.Sum256(cat.Content)
		assert.Equal(t, hex.EncodeToString(sum[:]), cat.Hash)
		assert.Contains(t, string(cat.Content), "\ncatalog standard\n")
	})

	t.Run("parsed once", func(t *testing.T) {
		assert.Same(t, cat, sg.Standard())
	})

	t.Run("47 cards, 11 grey and 12 of each other colour, numbered in order", func(t *testing.T) {
		require.Len(t, cat.Cards, deckSize)
		var want []string
		for _, col := range sg.Colours {
			for i := 1; i <= cardsByColour[col]; i++ {
				want = append(want, fmt.Sprintf("%s-%02d", col, i))
			}
		}
		var got []string
		for _, c := range cat.Cards {
			got = append(got, c.ID)
		}
		assert.Equal(t, want, got)
	})

	t.Run("index and card", func(t *testing.T) {
		for i, c := range cat.Cards {
			j, ok := cat.Index(c.ID)
			require.True(t, ok, c.ID)
			assert.Equal(t, i, j, c.ID)
			assert.Same(t, &cat.Cards[i], cat.Card(i), c.ID)
		}
		_, ok := cat.Index("grey-12")
		assert.False(t, ok)
		assert.Nil(t, cat.Card(-1))
		assert.Nil(t, cat.Card(deckSize))
	})

	t.Run("boxes and value by colour", func(t *testing.T) {
		for _, c := range cat.Cards {
			assert.Equal(t, boxesByColour[c.Colour], c.Value, "value of %s", c.ID)
			assert.Equal(t, boxesByColour[c.Colour], countSymbols(c, sg.Blank, sg.Coin, sg.Palm, sg.Cross), "boxes of %s", c.ID)
		}
	})

	t.Run("masks agree with the cells", func(t *testing.T) {
		for _, c := range cat.Cards {
			assert.Equal(t, maskOf(c, sg.Blank, sg.Coin, sg.Palm, sg.Cross), c.Boxes, "boxes of %s", c.ID)
			assert.Equal(t, maskOf(c, sg.Coin), c.Coins, "coins of %s", c.ID)
			assert.Equal(t, maskOf(c, sg.Palm), c.Palms, "palms of %s", c.ID)
			assert.Equal(t, maskOf(c, sg.Cross), c.Crosses, "crosses of %s", c.ID)
		}
	})

	t.Run("grids within the bounds of their colour", func(t *testing.T) {
		for _, c := range cat.Cards {
			b := boundsByColour[c.Colour]
			assert.True(t, c.Rows >= 1 && c.Rows <= b[0], "%s is %d high", c.ID, c.Rows)
			assert.True(t, c.Cols >= 1 && c.Cols <= b[1], "%s is %d wide", c.ID, c.Cols)
			for r := 0; r < sg.MaxRows; r++ {
				for col := 0; col < sg.MaxCols; col++ {
					if r >= c.Rows || col >= c.Cols {
						assert.Equal(t, sg.NoBox, c.Cells[r][col], "%s at (%d,%d), off its grid", c.ID, r, col)
					}
				}
			}
		}
	})

	t.Run("every grid is connected", func(t *testing.T) {
		for _, c := range cat.Cards {
			assert.True(t, connected(c), "%s:\n%s", c.ID, strings.Join(c.GridRows(), "\n"))
		}
	})

	t.Run("no two cards alike", func(t *testing.T) {
		seen := map[string]string{}
		for _, c := range cat.Cards {
			g := strings.Join(c.GridRows(), "/")
			if other, dup := seen[g]; dup {
				t.Errorf("%s and %s have the same grid %s", other, c.ID, g)
			}
			seen[g] = c.ID
		}
	})

	t.Run("no shape repeated within a colour", func(t *testing.T) {
		seen := map[string]string{}
		for _, c := range cat.Cards {
			key := c.Colour.String() + ":" + shapeKey(c)
			if other, dup := seen[key]; dup {
				t.Errorf("%s and %s have the same shape (up to turning and mirroring)", other, c.ID)
			}
			seen[key] = c.ID
		}
	})

	t.Run("12 seals, 3 per colour, naming the other colours once each", func(t *testing.T) {
		total := 0
		named := map[sg.Colour][]sg.Colour{}
		for _, c := range cat.Cards {
			if c.Seal == nil {
				continue
			}
			total++
			named[c.Colour] = append(named[c.Colour], c.Seal.Colour)
			assert.Equal(t, sealPoints[c.Seal.Colour], c.Seal.Points, "seal of %s names %s", c.ID, c.Seal.Colour)
		}
		assert.Equal(t, 12, total)
		for _, col := range sg.Colours {
			var others []sg.Colour
			for _, o := range sg.Colours {
				if o != col {
					others = append(others, o)
				}
			}
			assert.ElementsMatch(t, others, named[col], "seals of the %s cards", col)
		}
	})

	t.Run("42 coins, 16 palm trees (4 per colour, at most 1 a card), 55 crosses", func(t *testing.T) {
		coins, palms, crosses := 0, 0, 0
		palmsBy := map[sg.Colour]int{}
		for _, c := range cat.Cards {
			p := countSymbols(c, sg.Palm)
			assert.LessOrEqual(t, p, 1, "palm trees on %s", c.ID)
			coins += countSymbols(c, sg.Coin)
			palms += p
			crosses += countSymbols(c, sg.Cross)
			palmsBy[c.Colour] += p
		}
		assert.Equal(t, 42, coins, "coins")
		assert.Equal(t, 16, palms, "palm trees")
		assert.Equal(t, 55, crosses, "crosses")
		for _, col := range sg.Colours {
			assert.Equal(t, 4, palmsBy[col], "palm trees on %s cards", col)
		}
	})

	t.Run("sealed cards show no coin and no palm tree", func(t *testing.T) {
		for _, c := range cat.Cards {
			if c.Seal != nil {
				assert.Zero(t, countSymbols(c, sg.Coin, sg.Palm), c.ID)
			}
		}
	})

	t.Run("bigger cards carry more symbols", func(t *testing.T) {
		var perColour [sg.NumColours]int
		for _, c := range cat.Cards {
			perColour[c.Colour] += countSymbols(c, sg.Coin, sg.Palm, sg.Cross)
		}
		for i := 1; i < sg.NumColours; i++ {
			assert.Greater(t, perColour[i], perColour[i-1], "symbols on %s against %s cards", sg.Colours[i], sg.Colours[i-1])
		}
	})
}

func TestCatalogRoundTrip(t *testing.T) {
	cat := sg.Standard()
	file := fileGrids(string(cat.Content))
	require.Len(t, file, deckSize, "card headers in the file")
	for _, c := range cat.Cards {
		t.Run(c.ID, func(t *testing.T) {
			assert.Equal(t, file[c.ID], c.GridRows())
		})
	}
}

func TestCatalogOtherDeck(t *testing.T) {
	std := sg.Standard()
	text := string(std.Content)
	first := firstCard(t, std, sg.Grey, false)
	redrawn := []string{"xo..", "oooo", "..oc"}
	require.NotEqual(t, redrawn, first.GridRows(), "the redrawn grid must differ")
	text = replaceOnce(t, text, "\ncatalog standard\n", "\ncatalog our-table\n")
	text = replaceCard(t, text, first.ID, header(first)+grid(redrawn...))

	cat, err := sg.ParseCatalog([]byte(text))
	require.NoError(t, err)

	t.Run("loads with its own name and hash", func(t *testing.T) {
		assert.Equal(t, "our-table", cat.Name)
		sum := sha256.Sum256([]byte(text))
		assert.Equal(t, hex.EncodeToString(sum[:]), cat.Hash)
		assert.NotEqual(t, std.Hash, cat.Hash)
		assert.Equal(t, []byte(text), cat.Content)
	})

	t.Run("uses its own grids", func(t *testing.T) {
		i, ok := cat.Index(first.ID)
		require.True(t, ok)
		assert.Equal(t, redrawn, cat.Card(i).GridRows())
		assert.Equal(t, sg.Mask(0b1100_0000_0000)|0b1111_0000|0b0011, cat.Card(i).Boxes)
		assert.Equal(t, 1, cat.Card(i).Coins.Count())
		assert.Equal(t, 1, cat.Card(i).Crosses.Count())
	})

	t.Run("leaves the standard catalog alone", func(t *testing.T) {
		assert.Equal(t, "standard", sg.Standard().Name)
		i, _ := sg.Standard().Index(first.ID)
		assert.Equal(t, first.GridRows(), sg.Standard().Card(i).GridRows())
	})

	t.Run("windows line endings", func(t *testing.T) {
		crlf, err := sg.ParseCatalog([]byte(strings.ReplaceAll(string(std.Content), "\n", "\r\n")))
		require.NoError(t, err)
		assert.Equal(t, std.Cards, crlf.Cards)
		assert.NotEqual(t, std.Hash, crlf.Hash)
	})
}

func TestCatalogRejects(t *testing.T) {
	std := sg.Standard()
	text := string(std.Content)
	grey := firstCard(t, std, sg.Grey, false)
	green := firstCard(t, std, sg.Green, false)
	purple := firstCard(t, std, sg.Purple, false)
	sealed := firstCard(t, std, sg.Grey, true)
	var sealed2 sg.Card // a second sealed grey card
	for _, c := range std.Cards {
		if c.Colour == sg.Grey && c.Seal != nil && c.ID != sealed.ID {
			sealed2 = c
			break
		}
	}
	require.NotNil(t, sealed2.Seal)
	last := std.Cards[len(std.Cards)-1]

	// withHeader replaces a card's header line and keeps its grid.
	withHeader := func(c sg.Card, h string) string {
		return replaceCard(t, text, c.ID, h+"\n"+grid(c.GridRows()...))
	}
	// withGrid replaces a card's grid and keeps its header.
	withGrid := func(c sg.Card, rows ...string) string {
		return replaceCard(t, text, c.ID, header(c)+grid(rows...))
	}
	sealText := func(s *sg.Seal) string { return fmt.Sprintf("seal %s %d", s.Colour, s.Points) }

	tests := []struct {
		name    string
		content string
		want    []string // every one must appear in the reason
	}{
		{"empty file", "", []string{"empty", "catalog <name>"}},
		{"missing catalog line", replaceOnce(t, text, "\ncatalog standard\n", "\n"),
			[]string{"must begin with", "catalog <name>", `"card"`}},
		{"catalog without a name", replaceOnce(t, text, "\ncatalog standard\n", "\ncatalog\n"),
			[]string{"catalog <name>"}},
		{"second catalog line", replaceCard(t, text, green.ID, "catalog more\n\n"+header(green)+grid(green.GridRows()...)),
			[]string{"second catalog line"}},
		{"malformed header: too few words", withHeader(grey, fmt.Sprintf("card %s grey", grey.ID)),
			[]string{grey.ID, "malformed card header"}},
		{"malformed header: value not a number", withHeader(grey, fmt.Sprintf("card %s grey eight", grey.ID)),
			[]string{grey.ID, "malformed card header", `"eight"`}},
		{"malformed header: bad id", withHeader(grey, "card grey/01 grey 8"),
			[]string{`"grey/01"`, "malformed card header"}},
		{"malformed header: not a seal", withHeader(sealed, fmt.Sprintf("card %s grey 8 stamp %s %d", sealed.ID, sealed.Seal.Colour, sealed.Seal.Points)),
			[]string{sealed.ID, "malformed card header"}},
		{"unknown colour", withHeader(grey, fmt.Sprintf("card %s gray 8", grey.ID)),
			[]string{grey.ID, `unknown colour "gray"`}},
		{"duplicate id", replaceCard(t, text, green.ID, fmt.Sprintf("card %s green 10\n", grey.ID)+grid(green.GridRows()...)),
			[]string{grey.ID, "duplicate id"}},
		{"value not the colour's", withHeader(grey, fmt.Sprintf("card %s grey 10", grey.ID)),
			[]string{grey.ID, "value 10, but a grey card is worth 8"}},
		{"unknown symbol", withGrid(grey, "oooo", "ooqo"),
			[]string{grey.ID, "unknown symbol 'q' at (1,2)"}},
		{"ragged rows", withGrid(grey, "oooo", "ooo", "o"),
			[]string{grey.ID, "this row is 3 wide, but the grid's first row is 4"}},
		{"grey grid too wide", withGrid(grey, "ooooo", "ooo.."),
			[]string{grey.ID, "5 wide", "at most 4 wide by 3 high"}},
		{"green grid too high", withGrid(green, "ooo", "ooo", "ooo", "o.."),
			[]string{green.ID, "more than 3 rows high", "at most 4 wide by 3 high"}},
		{"purple grid too high", withGrid(purple, "ooo", "ooo", "ooo", "ooo", "oo."),
			[]string{purple.ID, "more than 4 rows high", "at most 4 wide by 4 high"}},
		{"too many boxes", withGrid(grey, "oooo", "oooo", "o..."),
			[]string{grey.ID, "9 boxes, but a grey card has 8"}},
		{"too few boxes", withGrid(purple, "oooo", "oooo", "oooo", "o..."),
			[]string{purple.ID, "13 boxes, but a purple card has 14"}},
		{"no grid", replaceCard(t, text, grey.ID, header(grey)),
			[]string{grey.ID, "has no grid"}},
		{"two palm trees", withGrid(grey, "poop", "oooo"),
			[]string{grey.ID, "at most one palm tree", "(0,3)"}},
		{"seal naming its own colour", withHeader(sealed, fmt.Sprintf("card %s grey 8 seal grey 1", sealed.ID)),
			[]string{sealed.ID, "seal of a grey card names one of the three other colours, not grey"}},
		{"seal of unknown colour", withHeader(sealed, fmt.Sprintf("card %s grey 8 seal gold 2", sealed.ID)),
			[]string{sealed.ID, `unknown seal colour "gold"`}},
		{"seal worth the wrong points", withHeader(sealed, fmt.Sprintf("card %s grey 8 seal %s 5", sealed.ID, sealed.Seal.Colour)),
			[]string{sealed.ID, fmt.Sprintf("seal naming %s is worth %d, not 5", sealed.Seal.Colour, sealed.Seal.Points)}},
		{"sealed card with a coin", withGrid(sealed, "oooo", "oooc"),
			[]string{sealed.ID, "sealed card shows no coin", "(1,3) is a coin"}},
		{"sealed card with a palm tree", withGrid(sealed, "oopo", "oooo"),
			[]string{sealed.ID, "sealed card shows no coin and no palm tree", "(0,2) is a palm tree"}},
		{"disconnected grid", withGrid(grey, "oooo", "....", "oooo"),
			[]string{grey.ID, "falls apart", "(2,0)"}},
		{"grid row outside a card", text + "\n  oooo\n",
			[]string{"grid row outside any card"}},
		{"stray line", replaceCard(t, text, green.ID, "treasure\n\n"+header(green)+grid(green.GridRows()...)),
			[]string{`"treasure"`, "neither a card header nor a grid row"}},
		{"a grey card missing", replaceCard(t, text, grey.ID, ""),
			[]string{"10 grey cards", "has 11"}},
		{"a purple card too many", text + "\n" + strings.Replace(header(last), last.ID, "purple-13", 1) + grid(last.GridRows()...),
			[]string{"13 purple cards", "has 12"}},
		{"two seals of one colour naming the same colour", withHeader(sealed2, fmt.Sprintf("card %s grey 8 %s", sealed2.ID, sealText(sealed.Seal))),
			[]string{sealed.ID, sealed2.ID, "naming " + sealed.Seal.Colour.String()}},
		{"a colour with only two seals", withHeader(sealed, fmt.Sprintf("card %s grey 8", sealed.ID)),
			[]string{"no grey card carries a seal naming " + sealed.Seal.Colour.String()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEqual(t, text, tt.content, "the case must change the standard file")
			cat, err := sg.ParseCatalog([]byte(tt.content))
			require.Error(t, err)
			assert.Nil(t, cat)
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err), err.Error())
			errorSaysInGerman(t, err)
			reason := domain.ErrorReason(err)
			for _, w := range tt.want {
				assert.Contains(t, reason, w)
			}
		})
	}
}

// TestCatalogRejectsDisconnectedShapes checks the connectivity rule on grids
// that fit every bound and have the right number of boxes.
func TestCatalogRejectsDisconnectedShapes(t *testing.T) {
	std := sg.Standard()
	text := string(std.Content)
	grey := firstCard(t, std, sg.Grey, false)
	orange := firstCard(t, std, sg.Orange, false)
	purple := firstCard(t, std, sg.Purple, false)
	for _, tt := range []struct {
		name string
		card sg.Card
		rows []string
	}{
		{"one box alone in a corner", grey, []string{"ooo.", "ooo.", "o..o"}},
		{"touching only at corners", grey, []string{"ooo.", "oo.o", "..oo"}},
		{"a corner cut off by two gaps", purple, []string{"o.oo", ".ooo", "oooo", "oooo"}},
		{"two halves", orange, []string{"oo.o", "oo.o", "oo.o", "oo.o"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sg.ParseCatalog([]byte(replaceCard(t, text, tt.card.ID, header(tt.card)+grid(tt.rows...))))
			require.Error(t, err)
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
			errorSaysInGerman(t, err)
			reason := domain.ErrorReason(err)
			assert.Contains(t, reason, tt.card.ID)
			assert.Contains(t, reason, "falls apart")
		})
	}
}

// firstCard returns the first card of the colour that carries a seal (or not).
func firstCard(t *testing.T, cat *sg.Catalog, col sg.Colour, sealed bool) sg.Card {
	t.Helper()
	for _, c := range cat.Cards {
		if c.Colour == col && (c.Seal != nil) == sealed {
			return c
		}
	}
	t.Fatalf("no %s card with sealed=%v", col, sealed)
	return sg.Card{}
}

// header writes a card's header line as the catalog file does.
func header(c sg.Card) string {
	h := fmt.Sprintf("card %s %s %d", c.ID, c.Colour, c.Value)
	if c.Seal != nil {
		h += fmt.Sprintf(" seal %s %d", c.Seal.Colour, c.Seal.Points)
	}
	return h + "\n"
}

// grid writes grid rows as the catalog file does.
func grid(rows ...string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString("  " + r + "\n")
	}
	return b.String()
}

// replaceCard replaces the block of card id (its header and grid rows, up to
// the blank line that ends it) with block.
func replaceCard(t *testing.T, text, id, block string) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	start := -1
	for i, l := range lines {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "card" && f[1] == id {
			start = i
			break
		}
	}
	require.GreaterOrEqual(t, start, 0, "card %s in the file", id)
	end := start + 1
	for end < len(lines) && strings.HasPrefix(lines[end], "  ") {
		end++
	}
	return strings.Join(lines[:start], "") + block + strings.Join(lines[end:], "")
}

// replaceOnce replaces old, which must occur exactly once, with new.
func replaceOnce(t *testing.T, text, old, new string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(text, old), "occurrences of %q", old)
	return strings.Replace(text, old, new, 1)
}

// fileGrids reads the grid lines of every card from the file text, without the
// parser under test.
func fileGrids(text string) map[string][]string {
	out := map[string][]string{}
	id := ""
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "card "):
			id = strings.Fields(l)[1]
			out[id] = nil
		case strings.HasPrefix(l, "  ") && id != "":
			out[id] = append(out[id], strings.TrimPrefix(l, "  "))
		default:
			id = ""
		}
	}
	return out
}

func countSymbols(c sg.Card, syms ...sg.Symbol) int {
	return maskOf(c, syms...).Count()
}

func maskOf(c sg.Card, syms ...sg.Symbol) sg.Mask {
	var m sg.Mask
	for r := 0; r < sg.MaxRows; r++ {
		for col := 0; col < sg.MaxCols; col++ {
			for _, s := range syms {
				if c.Cells[r][col] == s {
					m |= 1 << (r*sg.GridStride + col)
				}
			}
		}
	}
	return m
}

// connected reports whether every box of c is reachable from every other
// through edge-adjacent boxes (a flood fill, independent of the parser's).
func connected(c sg.Card) bool {
	boxes := c.Boxes.Positions()
	if len(boxes) == 0 {
		return false
	}
	seen := map[sg.Pos]bool{boxes[0]: true}
	stack := []sg.Pos{boxes[0]}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range []sg.Pos{{Row: 1}, {Row: -1}, {Col: 1}, {Col: -1}} {
			n := sg.Pos{Row: p.Row + d.Row, Col: p.Col + d.Col}
			if c.Boxes.Has(n) && !seen[n] {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	return len(seen) == len(boxes)
}

// shapeKey names the shape of a card's boxes the same way under all eight
// turns and mirrorings.
func shapeKey(c sg.Card) string {
	best := ""
	for t := 0; t < 8; t++ {
		var pts [][2]int
		for _, p := range c.Boxes.Positions() {
			r, col := p.Row, p.Col
			if t&4 != 0 {
				r, col = col, r
			}
			if t&1 != 0 {
				r = -r
			}
			if t&2 != 0 {
				col = -col
			}
			pts = append(pts, [2]int{r, col})
		}
		minR, minC := pts[0][0], pts[0][1]
		for _, p := range pts {
			minR, minC = min(minR, p[0]), min(minC, p[1])
		}
		var cells [sg.MaxRows][sg.MaxCols]bool
		for _, p := range pts {
			cells[p[0]-minR][p[1]-minC] = true
		}
		key := fmt.Sprint(cells)
		if best == "" || key < best {
			best = key
		}
	}
	return best
}
