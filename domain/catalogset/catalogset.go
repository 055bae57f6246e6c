// Package catalogset keeps a ruleset's card catalogs: those offered for new
// games, by name, and every catalog a stored game was created with, parsed
// once and found by the hash of its content. Silver & Gold and Colorful
// Treasure both keep their catalogs this way.
package catalogset

import (
	"fmt"
	"maps"
	"sort"
	"sync"

	"github.com/treasury-games/treasury/domain"
)

// Set is the catalogs of one ruleset; C is its parsed catalog.
type Set[C any] struct {
	parse   func([]byte) (C, error)
	id      func(C) (name, hash string)
	offered map[string]C

	mu     sync.Mutex
	byHash map[string]C
}

// New returns the set offering catalogs (a later one replaces an earlier of
// the same name). parse reads a catalog's content; id gives its name and the
// hash of its content.
func New[C any](parse func([]byte) (C, error), id func(C) (name, hash string), catalogs ...C) *Set[C] {
	s := &Set[C]{parse: parse, id: id, offered: map[string]C{}, byHash: map[string]C{}}
	for _, c := range catalogs {
		name, hash := id(c)
		s.offered[name] = c
		s.byHash[hash] = c
	}
	return s
}

// With returns a set offering s's catalogs and c (replacing the one of its
// name, as New does); s itself is unchanged.
func (s *Set[C]) With(c C) *Set[C] {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := &Set[C]{parse: s.parse, id: s.id, offered: maps.Clone(s.offered), byHash: maps.Clone(s.byHash)}
	name, hash := s.id(c)
	n.offered[name] = c
	n.byHash[hash] = c
	return n
}

// Names lists the catalogs offered for new games, in name order.
func (s *Set[C]) Names() []string {
	names := make([]string, 0, len(s.offered))
	for n := range s.offered {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Offered returns the catalog offered by that name; an error with code (the
// caller's: Invalid for a request, NotFound for a URL) names those there are.
func (s *Set[C]) Offered(name string, code domain.Code) (C, error) {
	c, ok := s.offered[name]
	if !ok {
		var zero C
		return zero, domain.Fail(code, "table.catalog.unknown", "catalog", name, "offered", fmt.Sprint(s.Names()))
	}
	return c, nil
}

// Stored returns the catalog a stored game was created with, parsing its
// content once; content that does not hash to what the blob claims is
// Invalid.
func (s *Set[C]) Stored(blob domain.CatalogBlob) (C, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.byHash[blob.Hash]; ok {
		return c, nil
	}
	c, err := s.parse(blob.Content)
	if err != nil {
		return c, err
	}
	if _, hash := s.id(c); hash != blob.Hash {
		var zero C
		return zero, domain.Fail(domain.Invalid, "table.catalog.hash", "got", hash, "claimed", blob.Hash)
	}
	s.byHash[blob.Hash] = c
	return c, nil
}

// Embedded returns the catalog content holds (a file embedded in the binary)
// parsed on first use. A test parses each embedded catalog, so content that
// does not parse is a broken build: it panics, naming game.
func Embedded[C any](game string, parse func([]byte) (C, error), content []byte) func() C {
	return sync.OnceValue(func() C {
		c, err := parse(content)
		if err != nil {
			panic(game + ": the embedded standard catalog is invalid: " + err.Error())
		}
		return c
	})
}

// ValidName reports whether s is a usable catalog name or card id: one word
// of ASCII letters, digits, '-', '_' and '.', at most 64 long.
func ValidName(s string) bool {
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
