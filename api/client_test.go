package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
)

// clientMove builds, with the typed Go client alone, the first move of a new
// game of one ruleset: from the seat's legal moves, as a typed union.
type clientMove func(t *testing.T, legal models.LegalMoves) models.Move

// clientRulesets lists, per ruleset the server plays, how a Go client builds
// a first move with the generated types (no hand-written JSON).
var clientRulesets = map[string]clientMove{
	"colorful-treasure": func(t *testing.T, legal models.LegalMoves) models.Move {
		l, err := legal.AsColorfulTreasureLegal()
		if err != nil || l.Phase != models.ColorfulTreasureLegalPhaseReveal || l.Flip == nil || l.Flip.Count != 2 {
			t.Fatalf("colorful-treasure legal moves %+v, %v", l, err)
		}
		cells := l.Flip.Cells
		var m models.Move
		if err := m.FromColorfulTreasureFlip(models.ColorfulTreasureFlip{Seat: 0, Cards: []models.ColorfulTreasurePos{
			{Column: cells[0].Column, Row: cells[0].Row}, {Column: cells[len(cells)-1].Column, Row: cells[len(cells)-1].Row},
		}}); err != nil {
			t.Fatal(err)
		}
		return m
	},
	"silver-and-gold": func(t *testing.T, legal models.LegalMoves) models.Move {
		l, err := legal.AsSilverGoldLegal()
		if err != nil || l.Action != models.SilverGoldLegalActionKeep {
			t.Fatalf("silver-and-gold legal moves %+v, %v", l, err)
		}
		cards := []models.SilverGoldCardID{l.KeepFrom[0], l.KeepFrom[1]}
		var m models.Move
		if err := m.FromSilverGoldKeep(models.SilverGoldKeep{Seat: 0, Cards: &cards}); err != nil {
			t.Fatal(err)
		}
		return m
	},
	"lucky-treasure-hunter": func(t *testing.T, legal models.LegalMoves) models.Move {
		l, err := legal.AsLuckyTreasureHunterLegal()
		if err != nil || l.Step != models.LuckyTreasureHunterLegalStepPlace || len(l.Moves) == 0 {
			t.Fatalf("lucky-treasure-hunter legal moves %+v, %v", l, err)
		}
		o := l.Moves[0] // place: a type and a count from the seat's hand
		var m models.Move
		if err := m.FromLuckyTreasureHunterPlace(models.LuckyTreasureHunterPlace{
			Type: models.LuckyTreasureHunterPlaceTypePlace, Seat: *o.Seat, Treasure: *o.Treasure, Count: *o.Count,
		}); err != nil {
			t.Fatal(err)
		}
		return m
	},
}

// TestGoClient plays a first move of every ruleset the server plays with the
// generated Go client: typed requests, typed unions told apart by their
// discriminators.
func TestGoClient(t *testing.T) {
	s := newServer(t)
	c, err := client.NewClientWithResponses(s.HTTP.URL, client.WithHTTPClient(s.HTTP.Client()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list, err := c.ListRulesetsWithResponse(ctx)
	if err != nil || list.JSON200 == nil {
		t.Fatalf("rulesets: %v", err)
	}
	for _, r := range list.JSON200.Rulesets {
		t.Run(r.Name, func(t *testing.T) {
			build, ok := clientRulesets[r.Name]
			if !ok {
				t.Fatalf("no Go client example for ruleset %s: add one to clientRulesets", r.Name)
			}
			players := make([]models.PlayerSpec, r.MinPlayers)
			for i := range players {
				players[i].Name = string(rune('A' + i))
			}
			created, err := c.CreateGameWithResponse(ctx, nil, models.CreateGameRequest{Ruleset: r.Name, Mode: models.Digital, Players: players})
			if err != nil || created.JSON201 == nil {
				t.Fatalf("create: %v %s", err, created.Body)
			}
			g := created.JSON201
			if kind, err := g.Game.State.Discriminator(); err != nil || kind != r.Name {
				t.Fatalf("the state says ruleset %q (%v)", kind, err)
			}
			legal, err := c.GetLegalMovesWithResponse(ctx, g.Game.Id, nil, client.Bearer(g.Credentials.Seats[0]))
			if err != nil || legal.JSON200 == nil {
				t.Fatalf("legal moves: %v %s", err, legal.Body)
			}
			if kind, _ := legal.JSON200.Discriminator(); kind != r.Name {
				t.Fatalf("the legal moves say ruleset %q", kind)
			}
			move := build(t, *legal.JSON200)
			played, err := c.SubmitMoveWithResponse(ctx, g.Game.Id, nil, move, client.Bearer(g.Credentials.Seats[0]))
			if err != nil || played.StatusCode() != http.StatusOK || played.JSON200 == nil {
				t.Fatalf("move: %v %d %s", err, played.StatusCode(), played.Body)
			}
			if played.JSON200.Seq != 1 || played.JSON200.Game.Version != 1 {
				t.Errorf("the move answer says seq %d, version %d", played.JSON200.Seq, played.JSON200.Game.Version)
			}
		})
	}
}
