package luckytreasurehunter

import (
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// PlayerView is one seat as a viewer may see it.
type PlayerView struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	HandSize int    `json:"hand_size"`
	// Hand is the seat's cards by type: only to that seat, in a digital
	// game, while it runs (to everyone once it has ended).
	Hand         *Counts   `json:"hand,omitempty"`
	Sets         []SetView `json:"sets"`
	Collected    int       `json:"collected"`
	CaptainUsed  bool      `json:"captain_used"`
	CaptainHeart bool      `json:"captain_heart"`
}

// StealView is the steal under way.
type StealView struct {
	Seat     int      `json:"seat"`
	Owner    *int     `json:"owner"` // null: the middle
	Set      int      `json:"set"`
	Treasure Treasure `json:"treasure"`
	// TreasureName is the set's type as a player reads it ("Ruby").
	TreasureName        string       `json:"treasure_name"`
	TreasureNameMessage i18n.Message `json:"treasure_name_message"`
	Size                int          `json:"size"`
	Pirates             int          `json:"pirates"`
	Failed              int          `json:"failed"`
	Rerolls             int          `json:"rerolls"`
	Captain             bool         `json:"captain"`
	// DiceToReport is, in a physical game, how many dice the table reports next.
	DiceToReport int `json:"dice_to_report"`
}

// View is a game as a viewer may see it: everything face up, the viewer's
// own hand, and nothing face down.
type View struct {
	Ruleset      string       `json:"ruleset"`
	Mode         Mode         `json:"mode"`
	Phase        Phase        `json:"phase"`
	Turn         int          `json:"turn"`  // the seat on turn
	Turns        int          `json:"turns"` // turns begun
	CaptainHeart int          `json:"captain_heart"`
	PirateFaces  int          `json:"pirate_faces"`
	PileSize     int          `json:"pile_size"`
	LastRound    bool         `json:"last_round"`
	Middle       []SetView    `json:"middle"`
	Discard      Counts       `json:"discard"`
	Unseen       Counts       `json:"unseen"` // neither face up nor discarded: in hands or the pile
	Players      []PlayerView `json:"players"`
	Steal        *StealView   `json:"steal"`
	// Treasures names the five treasure types, in the order of the rulebook,
	// as a player reads them.
	Treasures []TreasureView `json:"treasures"`
}

// SetView is a face-up set with the name of its type.
type SetView struct {
	Treasure    Treasure     `json:"treasure"`
	Size        int          `json:"size"`
	Name        string       `json:"name"` // the type as a player reads it ("Ruby")
	NameMessage i18n.Message `json:"name_message"`
}

// TreasureView is a treasure type and its name.
type TreasureView struct {
	Treasure    Treasure     `json:"treasure"`
	Name        string       `json:"name"`
	NameMessage i18n.Message `json:"name_message"`
}

func setViews(sets []Set) []SetView {
	out := make([]SetView, len(sets))
	for i, s := range sets {
		m := s.Treasure.Name()
		out[i] = SetView{Treasure: s.Treasure, Size: s.Size, Name: i18n.Text(m), NameMessage: m}
	}
	return out
}

func treasureViews() []TreasureView {
	out := make([]TreasureView, NumTreasures)
	for t := range NumTreasures {
		m := t.Name()
		out[t] = TreasureView{Treasure: t, Name: i18n.Text(m), NameMessage: m}
	}
	return out
}

// NewView returns the game as v may see it.
func (g *Game) NewView(v domain.Viewer) View {
	out := View{
		Ruleset: RulesetName, Mode: g.Mode, Phase: g.Phase, Turn: g.Turn, Turns: g.Turns, CaptainHeart: g.Heart,
		PirateFaces: g.PirateFaces, PileSize: g.PileSize(), LastRound: g.LastRound, Middle: setViews(g.Middle),
		Discard: g.Discard, Unseen: g.Unseen(), Treasures: treasureViews(),
	}
	for i := range g.Players {
		p := &g.Players[i]
		pv := PlayerView{Seat: i, Name: p.Name, HandSize: p.HandSize, Sets: setViews(p.Sets), Collected: p.Collected(),
			CaptainUsed: p.CaptainUsed, CaptainHeart: i == g.Heart}
		if g.Mode == Digital && ((!v.Host && v.Seat == i) || g.Phase == PhaseEnded) {
			h := p.Hand
			pv.Hand = &h
		}
		out.Players = append(out.Players, pv)
	}
	if st := g.Steal; st != nil {
		name := st.Treasure.Name()
		out.Steal = &StealView{Seat: g.Turn, Owner: ownerPtr(st.Owner), Set: st.Set, Treasure: st.Treasure, Size: st.Size,
			TreasureName: i18n.Text(name), TreasureNameMessage: name,
			Pirates: st.Pirates, Failed: st.Failed, Rerolls: st.Rerolls, Captain: st.Captain, DiceToReport: st.Pending}
	}
	return out
}

// AppendView appends the view of v to b.
func (g *Game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	out, err := json.Marshal(g.NewView(v))
	return append(b, out...), err
}
