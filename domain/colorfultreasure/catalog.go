package colorfultreasure

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/catalogset"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Catalog sizes from the rules.
const (
	NumWonders      = 10 // columns of the grid
	CardsPerWonder  = 5  // a diamond, a key or chest, three gems
	GemsPerWonder   = 3  // gem cards of each wonder, one per colour on its back
	WondersPerColor = 6  // wonders showing each gem colour
	KeyWonders      = 5  // wonders with a key card (the others have a chest)
)

// Wonder is one wonder type: a column of the grid.
type Wonder struct {
	ID      string              `json:"id"`
	Lock    Kind                `json:"lock"`    // Key or Chest
	Colours [GemsPerWonder]Kind `json:"colours"` // the gems on its card back, in file order
}

// Cards returns the wonder's cards' kinds: diamond, its key or chest (unless
// junior), its three gems.
func (w *Wonder) Cards(junior bool) []Kind {
	out := make([]Kind, 0, CardsPerWonder)
	out = append(out, Diamond)
	if !junior {
		out = append(out, w.Lock)
	}
	return append(out, w.Colours[:]...)
}

// Has reports whether the wonder has a card of kind k (in the variant).
func (w *Wonder) Has(k Kind, junior bool) bool {
	switch {
	case k == Diamond:
		return true
	case k.IsLock():
		return !junior && k == w.Lock
	}
	for _, c := range w.Colours {
		if c == k {
			return true
		}
	}
	return false
}

// Catalog is a validated set of ten wonders.
type Catalog struct {
	Name    string
	Hash    string // hex SHA-256 of Content
	Content []byte // the file as loaded
	Wonders []Wonder
	byID    map[string]int
	// places name the cards of the grid for people, by column and row
	// (Game.place), made once with the catalog: a flip's pool names every
	// face-down card after every move of the seat on turn. Their messages
	// are shared, read only.
	places [][CardsPerWonder]placeName
}

// placeName is a card of the grid named for people: the message and its
// text in the default language, and the parts choosing the card as a pool
// lists them (Game.cardPart, and with its wonder excluded for a peek at
// different wonders), each with its JSON. A digital flip's pool has a part
// for every face-down card, written after every move of the seat on turn:
// making and encoding them was half of the listing's time in the load
// run's profile (issue 27, BenchmarkLegalMovesJSON).
type placeName struct {
	msg         i18n.Message
	text        string
	part, apart domain.Part // apart: its wonder excluded
	json, ajson []byte      // json.Marshal of part and apart
	// shows are, by kind, the parts reporting that the card shows the
	// kind in a physical game's flip (nil for a kind its wonder has none of).
	shows [NumKinds]*piece
}

// piece is a part of a pool and its JSON.
type piece struct {
	part domain.Part
	json []byte
}

// placeNames names the cards of the grid of wonders.
func placeNames(wonders []Wonder) [][CardsPerWonder]placeName {
	out := make([][CardsPerWonder]placeName, len(wonders))
	for c := range wonders {
		for r := range CardsPerWonder {
			m := i18n.M("ct.label.place", "wonder", wonderTerm(wonders[c].ID), "row", r+1)
			n := placeName{msg: m, text: i18n.Text(m)}
			n.part = posPart(n.text, m, Pos{c, r})
			n.apart = n.part
			n.apart.Excludes = []string{wonders[c].ID}
			n.json, _ = json.Marshal(n.part) // a part of strings and numbers encodes
			n.ajson, _ = json.Marshal(n.apart)
			for _, k := range wonders[c].Cards(false) { // junior's kinds are among them
				part := flipShowsPart(m, wonders[c].ID, Pos{c, r}, k)
				pj, _ := json.Marshal(part)
				n.shows[k] = &piece{part, pj}
			}
			out[c][r] = n
		}
	}
	return out
}

// Index returns the column of the wonder with the given id.
func (c *Catalog) Index(id string) (int, bool) {
	i, ok := c.byID[id]
	return i, ok
}

//go:embed catalogs/standard.wonders
var standardWonders []byte

var standard = catalogset.Embedded("colorfultreasure", ParseCatalog, standardWonders)

// Standard returns the standard catalog embedded in the binary, parsed once.
func Standard() *Catalog { return standard() }

// ParseCatalog reads a catalog file (the format is described at the top of
// catalogs/standard.wonders) and checks every count the rules fix. The first
// problem is a domain.Invalid error naming the line and the wonder at fault,
// or, for the catalog as a whole, the colour or the count.
func ParseCatalog(content []byte) (*Catalog, error) {
	sum := sha256.Sum256(content)
	c := &Catalog{Content: bytes.Clone(content), Hash: hex.EncodeToString(sum[:]), byID: map[string]int{}}
	named := false
	for i, line := range strings.Split(string(content), "\n") {
		n := i + 1
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if !named {
			if f[0] != "catalog" || len(f) != 2 || !catalogset.ValidName(f[1]) {
				return nil, domain.Fail(domain.Invalid, "ct.catalog.first-line", "line", n)
			}
			c.Name, named = f[1], true
			continue
		}
		if f[0] != "wonder" {
			return nil, domain.Fail(domain.Invalid, "ct.catalog.not-wonder-line", "line", n, "word", f[0])
		}
		if len(f) < 2 {
			return nil, domain.Fail(domain.Invalid, "ct.catalog.no-id", "line", n)
		}
		id := f[1]
		if !catalogset.ValidName(id) {
			return nil, domain.Fail(domain.Invalid, "ct.catalog.bad-id", "line", n, "wonder", id)
		}
		if len(f) != 6 {
			return nil, domain.Fail(domain.Invalid, "ct.catalog.words", "line", n, "wonder", id, "count", len(f))
		}
		if _, dup := c.byID[id]; dup {
			return nil, domain.Fail(domain.Invalid, "ct.catalog.duplicate-id", "line", n, "wonder", id)
		}
		w := Wonder{ID: id}
		switch f[2] {
		case "key":
			w.Lock = Key
		case "chest":
			w.Lock = Chest
		default:
			return nil, domain.Fail(domain.Invalid, "ct.catalog.lock", "line", n, "wonder", id, "word", f[2])
		}
		for j, s := range f[3:] {
			k, ok := ParseKind(s)
			if !ok || !k.IsGem() {
				return nil, domain.Fail(domain.Invalid, "ct.catalog.colour", "line", n, "wonder", id, "word", s)
			}
			for _, prev := range w.Colours[:j] {
				if prev == k {
					return nil, domain.Fail(domain.Invalid, "ct.catalog.colour-twice", "line", n, "wonder", id, "kind", kindTerm(k))
				}
			}
			w.Colours[j] = k
		}
		c.byID[id] = len(c.Wonders)
		c.Wonders = append(c.Wonders, w)
	}
	if !named {
		return nil, domain.Fail(domain.Invalid, "ct.catalog.empty")
	}
	if len(c.Wonders) != NumWonders {
		return nil, domain.Fail(domain.Invalid, "ct.catalog.wonder-count", "count", len(c.Wonders), "want", NumWonders)
	}
	var keys []string
	for _, w := range c.Wonders {
		if w.Lock == Key {
			keys = append(keys, w.ID)
		}
	}
	if len(keys) != KeyWonders {
		return nil, domain.Fail(domain.Invalid, "ct.catalog.key-count", "count", len(keys), "wonders", strings.Join(keys, ", "), "keys", KeyWonders, "chests", NumWonders-KeyWonders)
	}
	for _, col := range Colours {
		var on []string
		for _, w := range c.Wonders {
			if w.Has(col, false) {
				on = append(on, w.ID)
			}
		}
		if len(on) != WondersPerColor {
			return nil, domain.Fail(domain.Invalid, "ct.catalog.colour-count", "kind", kindTerm(col), "count", len(on), "wonders", strings.Join(on, ", "), "want", WondersPerColor)

		}
	}
	c.places = placeNames(c.Wonders)
	return c, nil
}
