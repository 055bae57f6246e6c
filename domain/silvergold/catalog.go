package silvergold

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/catalogset"
	"github.com/treasury-games/treasury/domain/i18n"
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

var standard = catalogset.Embedded("silvergold", ParseCatalog, standardCards)

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
		return domain.Fail(domain.Invalid, "sg.catalog.empty")
	}
	return nil
}

// header reads a line that is not indented: the catalog line or a card's header.
func (p *catalogParser) header(n int, f []string) error {
	if !p.sawCatalog {
		if f[0] != "catalog" {
			return domain.Fail(domain.Invalid, "sg.catalog.first-line", "line", n, "word", quote(f[0]))
		}
		if len(f) != 2 || !catalogset.ValidName(f[1]) {
			return domain.Fail(domain.Invalid, "sg.catalog.name", "line", n)
		}
		p.sawCatalog = true
		p.cat.Name = f[1]
		return nil
	}
	switch f[0] {
	case "catalog":
		return domain.Fail(domain.Invalid, "sg.catalog.second-name", "line", n)
	case "card":
	default:
		return domain.Fail(domain.Invalid, "sg.catalog.stray-line", "line", n, "word", quote(f[0]))
	}
	if len(f) < 2 {
		return domain.Fail(domain.Invalid, "sg.catalog.header", "line", n)
	}
	id := f[1]
	if len(f) != 4 && !(len(f) == 7 && f[4] == "seal") {
		return domain.Fail(domain.Invalid, "sg.catalog.card-header", "line", n, "card", id)
	}
	if !catalogset.ValidName(id) {
		return domain.Fail(domain.Invalid, "sg.catalog.card-id", "line", n, "id", quote(id))
	}
	if prev, dup := p.cat.byID[id]; dup {
		return domain.Fail(domain.Invalid, "sg.catalog.duplicate-id", "line", n, "card", id, "first", p.headers[prev])
	}
	colour, ok := ParseColour(f[2])
	if !ok {
		return domain.Fail(domain.Invalid, "sg.catalog.colour", "line", n, "card", id, "colour", quote(f[2]))
	}
	value, err := strconv.Atoi(f[3])
	if err != nil {
		return domain.Fail(domain.Invalid, "sg.catalog.value-number", "line", n, "card", id, "value", quote(f[3]))
	}
	if value != colour.Boxes() {
		return domain.Fail(domain.Invalid, "sg.catalog.value", "line", n, "card", id, "value", value, "a_card", aColour(colour), "worth", colour.Boxes())
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
		return domain.Fail(domain.Invalid, "sg.catalog.seal-colour", "line", n, "card", id, "colour", quote(f[5]))
	}
	if sc == colour {
		return domain.Fail(domain.Invalid, "sg.catalog.seal-own-colour", "line", n, "card", id, "a_card", aColour(colour), "colour", sc.Message())
	}
	points, err := strconv.Atoi(f[6])
	if err != nil {
		return domain.Fail(domain.Invalid, "sg.catalog.seal-number", "line", n, "card", id, "points", quote(f[6]))
	}
	if points != sc.SealPoints() {
		return domain.Fail(domain.Invalid, "sg.catalog.seal-points", "line", n, "card", id, "colour", sc.Message(), "worth", sc.SealPoints(), "points", points)
	}
	p.card.Seal = &Seal{Colour: sc, Points: points}
	return nil
}

// gridRow reads one indented row of the open card's grid.
func (p *catalogParser) gridRow(n int, row string) error {
	if !p.open {
		return domain.Fail(domain.Invalid, "sg.catalog.stray-row", "line", n)
	}
	c := &p.card
	maxRows, maxCols := gridBounds(c.Colour)
	if c.Rows == maxRows {
		return domain.Fail(domain.Invalid, "sg.catalog.too-high", "line", n, "card", c.ID, "rows", maxRows, "a_card", aColour(c.Colour), "cols", maxCols)
	}
	runes := []rune(row)
	if c.Rows == 0 {
		if len(runes) > maxCols {
			return domain.Fail(domain.Invalid, "sg.catalog.too-wide", "line", n, "card", c.ID, "width", len(runes), "a_card", aColour(c.Colour), "cols", maxCols, "rows", maxRows)
		}
		c.Cols = len(runes)
	} else if len(runes) != c.Cols {
		return domain.Fail(domain.Invalid, "sg.catalog.row-width", "line", n, "card", c.ID, "width", len(runes), "cols", c.Cols)
	}
	r := c.Rows
	for col, ch := range runes {
		pos := Pos{Row: r, Col: col}
		s, ok := symbolOf(ch)
		if !ok {
			return domain.Fail(domain.Invalid, "sg.catalog.symbol", "line", n, "card", c.ID, "symbol", strconv.QuoteRune(ch), "box", pos.String())
		}
		if c.Seal != nil && (s == Coin || s == Palm) {
			return domain.Fail(domain.Invalid, "sg.catalog.sealed-symbol", "line", n, "card", c.ID, "box", pos.String(), "symbol", symbolTerm(symbolWord(s)))
		}
		if s == Palm {
			p.palms++
			if p.palms > 1 {
				return domain.Fail(domain.Invalid, "sg.catalog.second-palm", "line", n, "card", c.ID, "box", pos.String())
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
		return domain.Fail(domain.Invalid, "sg.catalog.no-grid", "line", n, "card", c.ID)
	}
	if got := c.Boxes.Count(); got != c.Colour.Boxes() {
		return domain.Fail(domain.Invalid, "sg.catalog.boxes", "line", n, "card", c.ID, "count", got, "a_card", aColour(c.Colour), "boxes", c.Colour.Boxes())
	}
	if apart := unreachable(c.Boxes); apart != 0 {
		return domain.Fail(domain.Invalid, "sg.catalog.apart", "line", n, "card", c.ID, "box", apart.Positions()[0].String(), "first", c.Boxes.Positions()[0].String())
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
			return domain.Fail(domain.Invalid, "sg.catalog.deck-count", "count", count[col], "colour", col.Message(), "want", deckCards[col])
		}
	}
	// Duplicates first: a seal naming the wrong colour shows as a duplicate
	// and a gap, and the duplicate says which card to fix.
	for _, col := range Colours {
		for _, named := range Colours {
			if ids := seals[col][named]; len(ids) > 1 {
				return domain.Fail(domain.Invalid, "sg.catalog.seal-twice", "cards", ids, "colour", named.Message())
			}
		}
	}
	for _, col := range Colours {
		for _, named := range Colours {
			if named != col && len(seals[col][named]) == 0 {
				return domain.Fail(domain.Invalid, "sg.catalog.seal-missing", "colour", col.Message(), "named", named.Message())
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

// aColour says "a grey card", "an orange card" and so on, as a term of
// reasons.
func aColour(c Colour) i18n.Message { return i18n.M("sg.a-card." + c.String()) }

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

// symbolWord is the word of a box's symbol in views and events ("coin").
func symbolWord(s Symbol) string {
	return [...]string{"none", "blank", "coin", "palm", "cross"}[s]
}
