package catalogset_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/catalogset"
)

type cat struct{ name, hash string }

func TestSet(t *testing.T) {
	parsed := 0
	parse := func(b []byte) (*cat, error) {
		parsed++
		if string(b) == "garbage" {
			return nil, domain.Errorf(domain.Invalid, "line 1: not a catalog")
		}
		return &cat{name: "old", hash: domain.ContentHash(b)}, nil
	}
	id := func(c *cat) (string, string) { return c.name, c.hash }
	standard, deluxe := &cat{"standard", "h1"}, &cat{"deluxe", "h2"}
	s := catalogset.New(parse, id, standard, deluxe, &cat{"standard", "h3"})

	if got := s.Names(); !slices.Equal(got, []string{"deluxe", "standard"}) {
		t.Errorf("names %v", got)
	}
	if c, err := s.Offered("standard", domain.Invalid); err != nil || c.hash != "h3" {
		t.Errorf("a later catalog of the same name replaces the earlier: %+v %v", c, err)
	}
	if _, err := s.Offered("gold", domain.NotFound); domain.ErrorCode(err) != domain.NotFound || domain.ErrorReason(err) != `there is no catalog "gold"; this server offers [deluxe standard]` {
		t.Errorf("an unknown name: %v", err)
	}
	if c, err := s.Stored(domain.CatalogBlob{Hash: "h2"}); err != nil || c != deluxe || parsed != 0 {
		t.Errorf("an offered catalog is found by its hash without parsing: %v %v %d", c, err, parsed)
	}
	old := []byte("an old catalog")
	for range 2 {
		if c, err := s.Stored(domain.CatalogBlob{Name: "old", Hash: domain.ContentHash(old), Content: old}); err != nil || c.name != "old" {
			t.Fatalf("a stored catalog: %v %v", c, err)
		}
	}
	if parsed != 1 {
		t.Errorf("a stored catalog was parsed %d times, not once", parsed)
	}
	if _, err := s.Stored(domain.CatalogBlob{Hash: "not-its-hash", Content: []byte("edited")}); domain.ErrorCode(err) != domain.Invalid {
		t.Errorf("content that does not hash to its claim: %v", err)
	}
	_, err := s.Stored(domain.CatalogBlob{Hash: "x", Content: []byte("garbage")})
	var de *domain.Error
	if !errors.As(err, &de) || de.Reason != "line 1: not a catalog" {
		t.Errorf("a catalog that does not parse: %v", err)
	}
}

func TestSetWith(t *testing.T) {
	parse := func([]byte) (*cat, error) { return nil, errors.New("not parsed here") }
	id := func(c *cat) (string, string) { return c.name, c.hash }
	s := catalogset.New(parse, id, &cat{"standard", "h1"})
	house := &cat{"standard", "h9"}
	w := s.With(house)
	if c, err := w.Offered("standard", domain.Invalid); err != nil || c != house {
		t.Errorf("a catalog given replaces the offered one of its name: %+v %v", c, err)
	}
	if c, err := w.Stored(domain.CatalogBlob{Hash: "h1"}); err != nil || c.hash != "h1" {
		t.Errorf("games stored with the replaced catalog are still found: %+v %v", c, err)
	}
	if c, err := s.Offered("standard", domain.Invalid); err != nil || c.hash != "h1" {
		t.Errorf("the set it was made from is unchanged: %+v %v", c, err)
	}
	if _, err := s.Stored(domain.CatalogBlob{Hash: "h9"}); err == nil {
		t.Errorf("the set it was made from does not know the new catalog")
	}
}
