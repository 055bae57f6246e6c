package grouprows_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/grouprows"
)

// recorder is a Writer that notes each row and refuses the one named fail.
type recorder struct {
	rows []string
	fail string
}

func (r *recorder) note(row string) error {
	r.rows = append(r.rows, row)
	if row == r.fail {
		return errors.New("refused " + row)
	}
	return nil
}

func (r *recorder) Group(g domain.Group, hash string) error {
	return r.note("group " + g.ID + " " + hash)
}
func (r *recorder) Member(_ string, m domain.Member) error { return r.note("member " + m.ID) }
func (r *recorder) Play(_ string, p domain.Play, body []byte) error {
	back, err := grouprows.Play(body)
	if err != nil || back.ID != p.ID {
		return fmt.Errorf("play %s: body %s does not decode to it (%v)", p.ID, body, err)
	}
	return r.note("play " + p.ID)
}
func (r *recorder) Game(_ string, g domain.GroupGame, members []byte) error {
	back, err := grouprows.Game("g1", g.GameID, members)
	if err != nil || !slices.Equal(back.Members, g.Members) {
		return fmt.Errorf("game %s: members %s do not decode to them (%v)", g.GameID, members, err)
	}
	return r.note("game " + g.GameID)
}

func export() domain.GroupExport {
	return domain.GroupExport{
		Group: domain.Group{ID: "g1"}, CredentialHash: "h",
		Members: []domain.Member{{ID: "m1"}, {ID: "m2"}},
		Plays:   []domain.Play{{ID: "p1", Ruleset: "silver-and-gold"}},
		Games:   []domain.GroupGame{{GameID: "x1", GroupID: "g1", Members: []string{"m1", "m2"}}},
	}
}

func TestImport(t *testing.T) {
	t.Run("every row, the group first", func(t *testing.T) {
		e := export()
		bodies, err := grouprows.Bodies("test", e)
		if err != nil {
			t.Fatal(err)
		}
		var r recorder
		if err := grouprows.Import(&r, e, bodies); err != nil {
			t.Fatal(err)
		}
		want := []string{"group g1 h", "member m1", "member m2", "play p1", "game x1"}
		if !slices.Equal(r.rows, want) {
			t.Errorf("rows %q, want %q", r.rows, want)
		}
	})
	t.Run("stops at the first refused row", func(t *testing.T) {
		e := export()
		bodies, _ := grouprows.Bodies("test", e)
		r := recorder{fail: "member m1"}
		if err := grouprows.Import(&r, e, bodies); err == nil {
			t.Fatal("import went on past a refused member")
		}
		if want := []string{"group g1 h", "member m1"}; !slices.Equal(r.rows, want) {
			t.Errorf("rows %q, want %q", r.rows, want)
		}
	})
}

func TestOne(t *testing.T) {
	if _, err := grouprows.One(nil, "g1", "p9"); domain.ErrorCode(err) != domain.NotFound {
		t.Errorf("no play found: %v, want NotFound", err)
	}
	p, err := grouprows.One([]domain.Play{{ID: "p1"}}, "g1", "p1")
	if err != nil || p.ID != "p1" {
		t.Errorf("One = %v, %v", p, err)
	}
}

func TestStatsAndLimit(t *testing.T) {
	if rev, _ := grouprows.Stats(4, nil); rev != -1 {
		t.Errorf("no stats kept: revision %d, want -1", rev)
	}
	if rev, _ := grouprows.Stats(4, []byte(`{}`)); rev != 4 {
		t.Errorf("stats kept at 4: revision %d", rev)
	}
	if n := grouprows.Limit(domain.PlayQuery{}); n != grouprows.DefaultLimit {
		t.Errorf("no limit asked: %d, want %d", n, grouprows.DefaultLimit)
	}
	if n := grouprows.Limit(domain.PlayQuery{Limit: 7}); n != 7 {
		t.Errorf("limit 7 asked: %d", n)
	}
}
