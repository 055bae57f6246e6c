package silvergold

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"github.com/treasury-games/treasury/domain"
)

// Catalog is a validated set of treasure cards.
type Catalog struct {
	Name    string
	Hash    string // hex SHA-256 of Content
	Content []byte // the catalog file as loaded
	Cards   []Card // in file order; a card's index is its number in a game
	byID    map[string]int
	derived derivedData // filled by c.derive(); do not touch its contents
}

// standardCards is the standard deck; its format is described at the top of
// the file itself.
//
//go:embed catalogs/standard.cards
var standardCards []byte

var standard = sync.OnceValue(func() *Catalog {
	c, err := ParseCatalog(standardCards)
	if err != nil {
		// A test parses the embedded file, so this is a broken build, not bad input.
		panic("silvergold: the embedded standard catalog is invalid: " + err.Error())
	}
	return c
})

// Standard returns the standard catalog embedded in the binary, parsed once.
func Standard() *Catalog { return standard() }

// Index returns the index of the card with the given id.
func (c *Catalog) Index(id string) (int, bool) {
	i, ok := c.byID[id]
	return i, ok
}

// Card returns the card with index i, or nil when there is none.
func (c *Catalog) Card(i int) *Card {
	if i < 0 || i >= len(c.Cards) {
		return nil
	}
	return &c.Cards[i]
}

// deckCards is how many cards of each colour a deck of Silver & Gold has.
var deckCards = [NumColours]int{11, 12, 12, 12}

// gridBounds returns the largest grid a card of colour c may have.
func gridBounds(c Colour) (rows, cols int) {
	if c == Grey || c == Green {
		return 3, 4
	}
	return 4, 4
}

// ParseCatalog reads a catalog file (the format is described at the top of
// catalogs/standard.cards) and checks it against the rules of the game. It
// reports the first problem it finds as a domain.Invalid error whose reason
// names the line and the card at fault, or, for the deck as a whole, the
// colour and the cards.
func ParseCatalog(content []byte) (*Catalog, error) {
	p := catalogParser{cat: &Catalog{
		Content: bytes.Clone(content),
		byID:    make(map[string]int),
	}}
	sum := sha256.Sum256(content)
	p.cat.Hash = hex.EncodeToString(sum[:])
	if err := p.parse(string(content)); err != nil {
		return nil, err
	}
	if err := p.checkDeck(); err != nil {
		return nil, err
	}
	p.cat.derive()
	return p.cat, nil
}

// catalogParser reads a catalog file line by line.
type catalogParser struct {
	cat        *Catalog
	sawCatalog bool

	// The card being read: open is true from its header to the blank line
	// (or the next header, or the end of the file) that ends it.
	open       bool
	card       Card
	headerLine int
	palms      int

	headers []int // the header line of every card read so far
}

func (p *catalogParser) parse(text string) error {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "#"):
			continue
		case trimmed == "":
			if err := p.closeCard(); err != nil {
				return err
			}
		case line[0] == ' ' || line[0] == '\t':
			if err := p.gridRow(n, trimmed); err != nil {
				return err
			}
		default:
			if err := p.closeCard(); err != nil {
				return err
			}
			if err := p.header(n, strings.Fields(line)); err != nil {
				return err
			}
		}
	}
	if err := p.closeCard(); err != nil {
		return err
	}
	if !p.sawCatalog {
		return domain.Errorf(domain.Invalid, "the catalog file is empty: it must begin with a \"catalog <name>\" line")
	}
	return nil
}

// header reads a line that is not indented: the catalog line or a card's header.
func (p *catalogParser) header(n int, f []string) error {
	if !p.sawCatalog {
		if f[0] != "catalog" {
			return domain.Errorf(domain.Invalid, "line %d: the catalog file must begin with a \"catalog <name>\" line, not %q", n, f[0])
		}
		if len(f) != 2 || !validName(f[1]) {
			return domain.Errorf(domain.Invalid, "line %d: write the catalog line as \"catalog <name>\", the name one word of letters, digits, '-', '_' or '.'", n)
		}
		p.sawCatalog = true
		p.cat.Name = f[1]
		return nil
	}
	switch f[0] {
	case "catalog":
		return domain.Errorf(domain.Invalid, "line %d: a second catalog line; a file holds one catalog, named once at the top", n)
	case "card":
	default:
		return domain.Errorf(domain.Invalid, "line %d: %q is neither a card header nor a grid row (grid rows are indented by two spaces)", n, f[0])
	}
	if len(f) < 2 {
		return domain.Errorf(domain.Invalid, "line %d: malformed card header: write \"card <id> <colour> <value> [seal <colour> <points>]\"", n)
	}
	id := f[1]
	if len(f) != 4 && !(len(f) == 7 && f[4] == "seal") {
		return domain.Errorf(domain.Invalid, "line %d, card %s: malformed card header: write \"card <id> <colour> <value> [seal <colour> <points>]\"", n, id)
	}
	if !validName(id) {
		return domain.Errorf(domain.Invalid, "line %d: malformed card header: the id %q must be one word of letters, digits, '-', '_' or '.'", n, id)
	}
	if prev, dup := p.cat.byID[id]; dup {
		return domain.Errorf(domain.Invalid, "line %d, card %s: duplicate id; the card on line %d has it already", n, id, p.headers[prev])
	}
	colour, ok := ParseColour(f[2])
	if !ok {
		return domain.Errorf(domain.Invalid, "line %d, card %s: unknown colour %q (grey, green, orange or purple)", n, id, f[2])
	}
	value, err := strconv.Atoi(f[3])
	if err != nil {
		return domain.Errorf(domain.Invalid, "line %d, card %s: malformed card header: the value %q is not a number", n, id, f[3])
	}
	if value != colour.Boxes() {
		return domain.Errorf(domain.Invalid, "line %d, card %s: value %d, but %s card is worth %d", n, id, value, aColour(colour), colour.Boxes())
	}
	p.open = true
	p.headerLine = n
	p.palms = 0
	p.card = Card{ID: id, Colour: colour, Value: value}
	if len(f) == 4 {
		return nil
	}
	sc, ok := ParseColour(f[5])
	if !ok {
		return domain.Errorf(domain.Invalid, "line %d, card %s: unknown seal colour %q (grey, green, orange or purple)", n, id, f[5])
	}
	if sc == colour {
		return domain.Errorf(domain.Invalid, "line %d, card %s: the seal of %s card names one of the three other colours, not %s", n, id, aColour(colour), sc)
	}
	points, err := strconv.Atoi(f[6])
	if err != nil {
		return domain.Errorf(domain.Invalid, "line %d, card %s: malformed card header: the seal's points %q are not a number", n, id, f[6])
	}
	if points != sc.SealPoints() {
		return domain.Errorf(domain.Invalid, "line %d, card %s: a seal naming %s is worth %d, not %d", n, id, sc, sc.SealPoints(), points)
	}
	p.card.Seal = &Seal{Colour: sc, Points: points}
	return nil
}

// gridRow reads one indented row of the open card's grid.
func (p *catalogParser) gridRow(n int, row string) error {
	if !p.open {
		return domain.Errorf(domain.Invalid, "line %d: a grid row outside any card; a grid follows its card header with no blank line between", n)
	}
	c := &p.card
	maxRows, maxCols := gridBounds(c.Colour)
	if c.Rows == maxRows {
		return domain.Errorf(domain.Invalid, "line %d, card %s: the grid is more than %d rows high, but %s card's grid is at most %d wide by %d high", n, c.ID, maxRows, aColour(c.Colour), maxCols, maxRows)
	}
	runes := []rune(row)
	if c.Rows == 0 {
		if len(runes) > maxCols {
			return domain.Errorf(domain.Invalid, "line %d, card %s: the grid is %d wide, but %s card's grid is at most %d wide by %d high", n, c.ID, len(runes), aColour(c.Colour), maxCols, maxRows)
		}
		c.Cols = len(runes)
	} else if len(runes) != c.Cols {
		return domain.Errorf(domain.Invalid, "line %d, card %s: this row is %d wide, but the grid's first row is %d; draw every row at the grid's full width", n, c.ID, len(runes), c.Cols)
	}
	r := c.Rows
	for col, ch := range runes {
		pos := Pos{Row: r, Col: col}
		s, ok := symbolOf(ch)
		if !ok {
			return domain.Errorf(domain.Invalid, "line %d, card %s: unknown symbol %q at %v; a grid uses . o c p x", n, c.ID, ch, pos)
		}
		if c.Seal != nil && (s == Coin || s == Palm) {
			return domain.Errorf(domain.Invalid, "line %d, card %s: a sealed card shows no coin and no palm tree, but %v is a %s", n, c.ID, pos, symbolName(s))
		}
		if s == Palm {
			p.palms++
			if p.palms > 1 {
				return domain.Errorf(domain.Invalid, "line %d, card %s: a card shows at most one palm tree, and %v is a second", n, c.ID, pos)
			}
		}
		c.Cells[r][col] = s
		bit, _ := pos.Bit()
		switch s {
		case NoBox:
			continue
		case Coin:
			c.Coins |= bit
		case Palm:
			c.Palms |= bit
		case Cross:
			c.Crosses |= bit
		}
		c.Boxes |= bit
	}
	c.Rows++
	return nil
}

// closeCard checks the open card as a whole and adds it to the catalog.
func (p *catalogParser) closeCard() error {
	if !p.open {
		return nil
	}
	p.open = false
	c := p.card
	n := p.headerLine
	if c.Rows == 0 {
		return domain.Errorf(domain.Invalid, "line %d, card %s: the card has no grid; draw it on the lines below its header, indented by two spaces", n, c.ID)
	}
	if got := c.Boxes.Count(); got != c.Colour.Boxes() {
		return domain.Errorf(domain.Invalid, "line %d, card %s: %d boxes, but %s card has %d", n, c.ID, got, aColour(c.Colour), c.Colour.Boxes())
	}
	if apart := unreachable(c.Boxes); apart != 0 {
		return domain.Errorf(domain.Invalid, "line %d, card %s: the grid falls apart: box %v is not joined edge to edge with box %v", n, c.ID, apart.Positions()[0], c.Boxes.Positions()[0])
	}
	p.cat.byID[c.ID] = len(p.cat.Cards)
	p.headers = append(p.headers, n)
	p.cat.Cards = append(p.cat.Cards, c)
	return nil
}

// checkDeck checks what holds for a whole deck: the number of cards of each
// colour, and the seals of each colour naming the other three once each.
func (p *catalogParser) checkDeck() error {
	var count [NumColours]int
	var seals [NumColours][NumColours][]string // [card colour][seal colour] -> ids
	for _, c := range p.cat.Cards {
		count[c.Colour]++
		if c.Seal != nil {
			seals[c.Colour][c.Seal.Colour] = append(seals[c.Colour][c.Seal.Colour], c.ID)
		}
	}
	for _, col := range Colours {
		if count[col] != deckCards[col] {
			return domain.Errorf(domain.Invalid, "the deck has %d %s cards, but a deck of Silver & Gold has %d (47 cards in all: 11 grey, 12 green, 12 orange, 12 purple)", count[col], col, deckCards[col])
		}
	}
	// Duplicates first: a seal naming the wrong colour shows as a duplicate
	// and a gap, and the duplicate says which card to fix.
	for _, col := range Colours {
		for _, named := range Colours {
			if ids := seals[col][named]; len(ids) > 1 {
				return domain.Errorf(domain.Invalid, "cards %s each carry a seal naming %s; the three seals of one colour name the three other colours once each", strings.Join(ids, ", "), named)
			}
		}
	}
	for _, col := range Colours {
		for _, named := range Colours {
			if named != col && len(seals[col][named]) == 0 {
				return domain.Errorf(domain.Invalid, "no %s card carries a seal naming %s; the three seals of one colour name the three other colours once each", col, named)
			}
		}
	}
	return nil
}

// unreachable returns the boxes of m that cannot be reached from its first
// box by steps between edge-adjacent boxes.
func unreachable(m Mask) Mask {
	if m == 0 {
		return 0
	}
	const (
		notCol0 Mask = 0xEEEE // every position but column 0
		notCol3 Mask = 0x7777 // every position but column 3
	)
	seen := m & -m // the lowest box
	for {
		grow := seen | seen<<GridStride | seen>>GridStride | (seen<<1)&notCol0 | (seen>>1)&notCol3
		grow &= m
		if grow == seen {
			return m &^ seen
		}
		seen = grow
	}
}

// aColour returns "a grey", "an orange" and so on, for reasons.
func aColour(c Colour) string {
	if c == Orange {
		return "an " + c.String()
	}
	return "a " + c.String()
}

func symbolOf(r rune) (Symbol, bool) {
	switch r {
	case '.':
		return NoBox, true
	case 'o':
		return Blank, true
	case 'c':
		return Coin, true
	case 'p':
		return Palm, true
	case 'x':
		return Cross, true
	}
	return 0, false
}

func symbolName(s Symbol) string {
	return [...]string{"no box", "blank box", "coin", "palm tree", "red cross"}[s]
}

// validName reports whether s is a usable catalog name or card id: one word
// of ASCII letters, digits, '-', '_' and '.'.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}
