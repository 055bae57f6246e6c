package colorfultreasure_test

import (
	"testing"

	"github.com/treasury-games/treasury/api/webtest"
)

// TestWebAppColorfulTreasureGerman plays a whole digital standard game of
// Colorful Treasure on phones set to German (as TestWebAppGerman plays
// Silver & Gold): no English sentence on any screen after the first moves,
// in the middle of the game and at the end, and the final ranking says in
// German what decided each place, as the server says it.
func TestWebAppColorfulTreasureGerman(t *testing.T) {
	t.Parallel()
	checked := map[string]bool{}
	var b *webtest.Browser
	var pages []*webtest.Page
	g := playColorfulTreasure(t, "standard", ctTable{lang: "de-DE", hook: func(bb *webtest.Browser, p *webtest.Page, step int, did string) {
		if pages == nil {
			b = bb
			pages = b.Pages
		}
		if step == 4 || step == 40 {
			checked[did] = true
			webtest.Settled(b, pages)
			webtest.GermanOn(b, pages, "after "+did, []string{"Das Raster · noch", "aufgedeckt", "ist am Zug (Runde"})
		}
	}})
	if !g.ended {
		t.Fatalf("the game did not end through the pages: %v", g.counts)
	}
	if len(checked) < 2 {
		t.Errorf("the game was checked for English at %d points only", len(checked))
	}
	webtest.GermanEnd(t, g.b, g.s, g.links[0], []*webtest.Page{g.ann, g.bob, g.host}, []string{"Endwertung", "Punkte", "Edelsteine", "Auszeichnungen", "Summe"})
}
