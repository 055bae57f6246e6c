package groups

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// SourceName is how BG Stats names where a play comes from.
const SourceName = "Treasury"

// bgDate is BG Stats' date format ("2026-11-25 19:00:00"), in UTC.
const bgDate = "2006-01-02 15:04:05"

// BGStatsGame is a game as BG Stats knows it.
type BGStatsGame struct {
	ID           int    `json:"id,omitempty"`
	Name         string `json:"name"`
	SourceGameID string `json:"sourceGameId"`
	HighestWins  bool   `json:"highestWins"`
	NoPoints     bool   `json:"noPoints"`
	Cooperative  bool   `json:"cooperative"`
}

// BGStatsLinkPlayer is a player of BG Stats' "create play" link.
type BGStatsLinkPlayer struct {
	Name           string `json:"name"`
	SourcePlayerID string `json:"sourcePlayerId"`
	Score          int    `json:"score"`
	Winner         bool   `json:"winner"`
	Rank           int    `json:"rank"`
	StartPlayer    bool   `json:"startPlayer"`
}

// BGStatsLinkPlay is the data of BG Stats' "create play" link.
type BGStatsLinkPlay struct {
	SourceName   string              `json:"sourceName"`
	SourcePlayID string              `json:"sourcePlayId"`
	PlayDate     string              `json:"playDate"`
	DurationMin  int64               `json:"durationMin"`
	Game         BGStatsGame         `json:"game"`
	Players      []BGStatsLinkPlayer `json:"players"`
}

// BGStatsCreatePlay is the address of BG Stats' "create play" link; the
// play goes in its data parameter as JSON.
const BGStatsCreatePlay = "https://app.bgstatsapp.com/createPlay.html"

// bgGame is how BG Stats is told of a ruleset: its title, highest total wins.
func bgGame(ruleset string, titles map[string]string) BGStatsGame {
	name := titles[ruleset]
	if name == "" {
		name = ruleset
	}
	return BGStatsGame{Name: name, SourceGameID: ruleset, HighestWins: true}
}

// BGStatsLink returns the BG Stats "create play" link of a play; titles
// name the rulesets.
func BGStatsLink(p domain.Play, titles map[string]string) string {
	lp := BGStatsLinkPlay{SourceName: SourceName, SourcePlayID: p.ID, PlayDate: p.PlayedAt.UTC().Format(bgDate),
		DurationMin: (p.Duration + 59) / 60, Game: bgGame(p.Ruleset, titles), Players: []BGStatsLinkPlayer{}}
	for _, pl := range p.Players {
		lp.Players = append(lp.Players, BGStatsLinkPlayer{Name: pl.Name, SourcePlayerID: pl.Member, Score: pl.Score,
			Winner: pl.Winner, Rank: pl.Rank, StartPlayer: pl.Start})
	}
	b, _ := json.Marshal(lp) // plain data always encodes
	return BGStatsCreatePlay + "?data=" + url.QueryEscape(string(b))
}

// BGStatsFile is a file the BG Stats app imports (its own export's shape).
type BGStatsFile struct {
	About string `json:"about"`
	// AboutMessage is About as a message, for the API to render in the
	// reader's language.
	AboutMessage *i18n.Message   `json:"about_message,omitempty"`
	Players      []BGStatsPlayer `json:"players"`
	Locations    []struct{}      `json:"locations"`
	Games        []BGStatsGame   `json:"games"`
	Plays        []BGStatsPlay   `json:"plays"`
	UserInfo     struct {
		MeRefID int `json:"meRefId"`
	} `json:"userInfo"`
}

// BGStatsPlayer is a player of a BG Stats file.
type BGStatsPlayer struct {
	ID             int    `json:"id"`
	Name           string `json:"name"`
	SourcePlayerID string `json:"sourcePlayerId"`
	IsAnonymous    bool   `json:"isAnonymous"`
}

// BGStatsPlay is a play of a BG Stats file.
type BGStatsPlay struct {
	SourceName   string             `json:"sourceName"`
	SourcePlayID string             `json:"sourcePlayId"`
	PlayDate     string             `json:"playDate"`
	EntryDate    string             `json:"entryDate"`
	DurationMin  int64              `json:"durationMin"`
	GameRefID    int                `json:"gameRefId"`
	Ignored      bool               `json:"ignored"`
	Rounds       int                `json:"rounds"`
	PlayerScores []BGStatsPlayScore `json:"playerScores"`
}

// BGStatsPlayScore is one player's result in a play of a BG Stats file. BG
// Stats keeps scores as text.
type BGStatsPlayScore struct {
	PlayerRefID int    `json:"playerRefId"`
	Score       string `json:"score"`
	Winner      bool   `json:"winner"`
	Rank        int    `json:"rank"`
	StartPlayer bool   `json:"startPlayer"`
	NewPlayer   bool   `json:"newPlayer"`
}

// BGStats returns a group's plays (earliest first) as a BG Stats file.
// Members are numbered from 1 in the order they joined; a player who is no
// longer a member is added after them.
func BGStats(members []domain.Member, plays []domain.Play, titles map[string]string) BGStatsFile {
	about := i18n.M("table.export.bgstats-about", "source", SourceName)
	f := BGStatsFile{About: i18n.Text(about), AboutMessage: &about,
		Players: []BGStatsPlayer{}, Locations: []struct{}{}, Games: []BGStatsGame{}, Plays: []BGStatsPlay{}}
	player := map[string]int{}
	add := func(id, name string) int {
		if n, ok := player[id]; ok {
			return n
		}
		n := len(f.Players) + 1
		player[id] = n
		f.Players = append(f.Players, BGStatsPlayer{ID: n, Name: name, SourcePlayerID: id})
		return n
	}
	for _, m := range members {
		add(m.ID, m.Name)
	}
	game := map[string]int{}
	for _, p := range plays {
		g, ok := game[p.Ruleset]
		if !ok {
			g = len(f.Games) + 1
			game[p.Ruleset] = g
			bg := bgGame(p.Ruleset, titles)
			bg.ID = g
			f.Games = append(f.Games, bg)
		}
		at := p.PlayedAt.UTC().Format(bgDate)
		bp := BGStatsPlay{SourceName: SourceName, SourcePlayID: p.ID, PlayDate: at, EntryDate: at,
			DurationMin: (p.Duration + 59) / 60, GameRefID: g, PlayerScores: []BGStatsPlayScore{}}
		for _, pl := range p.Players {
			bp.PlayerScores = append(bp.PlayerScores, BGStatsPlayScore{PlayerRefID: add(pl.Member, pl.Name),
				Score: strconv.Itoa(pl.Score), Winner: pl.Winner, Rank: pl.Rank, StartPlayer: pl.Start})
		}
		f.Plays = append(f.Plays, bp)
	}
	return f
}

// CSVHeader is the first row of CSV.
var CSVHeader = []string{"play", "played_at", "duration_seconds", "game", "mode", "source", "member", "name", "seat",
	"score", "rank", "winner", "start_player", "decided_by", "lines"}

// CSV returns plays as CSV: one row per player per play, the score lines
// as "coins=9;cups=11".
func CSV(plays []domain.Play) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(CSVHeader)
	for _, p := range plays {
		for _, pl := range p.Players {
			var lines []string
			for _, l := range pl.Lines {
				lines = append(lines, l.Line+"="+strconv.Itoa(l.Value))
			}
			_ = w.Write([]string{p.ID, p.PlayedAt.UTC().Format(time.RFC3339), strconv.FormatInt(p.Duration, 10), p.Ruleset, p.Mode,
				p.Source, pl.Member, csvSafe(pl.Name), strconv.Itoa(pl.Seat), strconv.Itoa(pl.Score), strconv.Itoa(pl.Rank),
				strconv.FormatBool(pl.Winner), strconv.FormatBool(pl.Start), pl.DecidedBy, strings.Join(lines, ";")})
		}
	}
	w.Flush()
	return buf.Bytes()
}

// csvSafe keeps a spreadsheet from reading a name as a formula (a name may
// begin with =, +, - or @): such a name gets a leading apostrophe.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}
