package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
)

// groupsImportRoute is the path of the operation that takes whole groups.
const groupsImportRoute = "/v1/groups/import"

// GroupImportBodyLimit is the largest group export POST /v1/groups/import
// takes: 100,000 plays of four players (the most a group keeps) are some
// 60 MB as JSON, so a group that large moves with treasury copy instead; a
// group of some 25,000 plays fits.
const GroupImportBodyLimit = 16 << 20

// groupImportJSONLimits are the JSON limits of a group export.
var groupImportJSONLimits = JSONLimits{Depth: 16, Array: domain.MaxGroupPlays, Tokens: 4 << 20}

// Default and largest page of plays.
const (
	defaultPlays = 50
	maxPlays     = 200
)

// answer is a JSON answer the domain encoded, with its status and headers;
// it is the answer of every group operation.
type answer struct {
	status  int
	body    []byte
	headers map[string]string
	ctype   string
}

func (a answer) write(w http.ResponseWriter) error {
	for k, v := range a.headers {
		w.Header().Set(k, v)
	}
	ct := a.ctype
	if ct == "" {
		ct = "application/json"
	}
	if a.body != nil {
		w.Header().Set("Content-Type", ct)
	}
	w.WriteHeader(a.status)
	_, err := w.Write(a.body)
	return err
}

func answerJSON(status int, v any) (answer, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return answer{}, err
	}
	return answer{status: status, body: append(b, '\n')}, nil
}

func (a answer) VisitCreateGroupResponse(w http.ResponseWriter) error        { return a.write(w) }
func (a answer) VisitImportGroupResponse(w http.ResponseWriter) error        { return a.write(w) }
func (a answer) VisitGetGroupResponse(w http.ResponseWriter) error           { return a.write(w) }
func (a answer) VisitAddGroupMemberResponse(w http.ResponseWriter) error     { return a.write(w) }
func (a answer) VisitDeleteGroupMemberResponse(w http.ResponseWriter) error  { return a.write(w) }
func (a answer) VisitListGroupPlaysResponse(w http.ResponseWriter) error     { return a.write(w) }
func (a answer) VisitSaveSheetPlayResponse(w http.ResponseWriter) error      { return a.write(w) }
func (a answer) VisitGetGroupPlayResponse(w http.ResponseWriter) error       { return a.write(w) }
func (a answer) VisitDeleteGroupPlayResponse(w http.ResponseWriter) error    { return a.write(w) }
func (a answer) VisitGetGroupStatsResponse(w http.ResponseWriter) error      { return a.write(w) }
func (a answer) VisitExportGroupResponse(w http.ResponseWriter) error        { return a.write(w) }
func (a answer) VisitExportGroupBGStatsResponse(w http.ResponseWriter) error { return a.write(w) }
func (a answer) VisitExportGroupCSVResponse(w http.ResponseWriter) error     { return a.write(w) }

// groupsOn returns the groups service, Unavailable when the server keeps none.
func (s *Server) groupsOn() (*groups.Service, error) {
	if s.groups == nil {
		return nil, domain.Fail(domain.Unavailable, "api.groups.none")
	}
	return s.groups, nil
}

// group authenticates the request's credential as group id's.
func (s *Server) group(ctx context.Context, id string) (*groups.Service, domain.Group, error) {
	gs, err := s.groupsOn()
	if err != nil {
		return nil, domain.Group{}, err
	}
	g, err := gs.Authenticate(ctx, id, credential(ctx))
	return gs, g, err
}

// titles names each ruleset by its title, for the BG Stats exports.
func (s *Server) titles() map[string]string {
	t := map[string]string{}
	for _, e := range s.games.RulesetInfos() {
		t[e.Name] = e.Title
	}
	return t
}

// apiPlay is a play as the API shows it: with the link to its game's
// record and its BG Stats link.
type apiPlay struct {
	domain.Play
	Record      string `json:"record,omitempty"`
	BGStatsLink string `json:"bgstats_link"`
}

func (s *Server) playToAPI(p domain.Play, titles map[string]string) apiPlay {
	out := apiPlay{Play: p, BGStatsLink: groups.BGStatsLink(p, titles)}
	if p.GameID != "" {
		out.Record = "/v1/games/" + p.GameID + "/record"
	}
	return out
}

// CreateGroup creates a group and hands out its credential.
func (s *Server) CreateGroup(ctx context.Context, r oapi.CreateGroupRequestObject) (oapi.CreateGroupResponseObject, error) {
	gs, err := s.groupsOn()
	if err != nil {
		return nil, err
	}
	g, secret, err := gs.Create(ctx, r.Body.Name)
	if err != nil {
		return nil, err
	}
	a, err := answerJSON(http.StatusCreated, map[string]any{"group": g, "credential": secret})
	a.headers = map[string]string{"Location": "/v1/groups/" + g.ID}
	return a, err
}

// ImportGroup stores a group exported elsewhere.
func (s *Server) ImportGroup(ctx context.Context, r oapi.ImportGroupRequestObject) (oapi.ImportGroupResponseObject, error) {
	gs, err := s.groupsOn()
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(r.Body)
	if err != nil {
		return nil, err
	}
	var e groups.Export
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, domain.Fail(domain.Invalid, "api.groups.not-export", "why", jsonWhy(err))
	}
	g, err := gs.Import(ctx, e, credential(ctx))
	if err != nil {
		return nil, err
	}
	a, err := answerJSON(http.StatusCreated, g)
	a.headers = map[string]string{"Location": "/v1/groups/" + g.ID}
	return a, err
}

// GetGroup returns a group with its members.
func (s *Server) GetGroup(ctx context.Context, r oapi.GetGroupRequestObject) (oapi.GetGroupResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	if err := gs.Settle(ctx, g.ID); err != nil {
		return nil, err
	}
	ms, err := gs.Members(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	open, err := gs.Store().GroupGames(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, o := range open {
		ids = append(ids, o.GameID)
	}
	if g, _, err = gs.Store().Group(ctx, g.ID); err != nil { // its revision after the settling
		return nil, err
	}
	return answerJSON(http.StatusOK, map[string]any{"group": g, "members": ms, "open_games": ids})
}

// AddGroupMember adds a member to a group.
func (s *Server) AddGroupMember(ctx context.Context, r oapi.AddGroupMemberRequestObject) (oapi.AddGroupMemberResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	m, err := gs.AddMember(ctx, g.ID, r.Body.Name)
	if err != nil {
		return nil, err
	}
	return answerJSON(http.StatusCreated, m)
}

// DeleteGroupMember deletes a member and their plays.
func (s *Server) DeleteGroupMember(ctx context.Context, r oapi.DeleteGroupMemberRequestObject) (oapi.DeleteGroupMemberResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	n, err := gs.DeleteMember(ctx, g.ID, r.Member)
	if err != nil {
		return nil, err
	}
	return answerJSON(http.StatusOK, map[string]any{"member": r.Member, "deleted_plays": n})
}

// ListGroupPlays returns a page of a group's plays, latest first.
func (s *Server) ListGroupPlays(ctx context.Context, r oapi.ListGroupPlaysRequestObject) (oapi.ListGroupPlaysResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	q := domain.PlayQuery{Limit: defaultPlays}
	if p := r.Params; p.Limit != nil {
		q.Limit = min(*p.Limit, maxPlays)
	}
	if r.Params.Member != nil {
		q.Member = *r.Params.Member
	}
	if r.Params.Ruleset != nil {
		q.Ruleset = *r.Params.Ruleset
	}
	if r.Params.Before != nil {
		at, id, ok := strings.Cut(*r.Params.Before, "~")
		t, err := time.Parse(time.RFC3339Nano, at)
		if !ok || err != nil || id == "" {
			return nil, domain.Fail(domain.Invalid, "api.groups.bad-before", "value", *r.Params.Before)
		}
		q.Before = domain.PlayCursor{PlayedAt: t, ID: id}
	}
	plays, err := gs.Plays(ctx, g.ID, q)
	if err != nil {
		return nil, err
	}
	titles := s.titles()
	out := struct {
		Plays []apiPlay `json:"plays"`
		Next  *string   `json:"next"`
	}{Plays: []apiPlay{}}
	for _, p := range plays {
		out.Plays = append(out.Plays, s.playToAPI(p, titles))
	}
	if len(plays) == q.Limit {
		last := plays[len(plays)-1]
		next := last.PlayedAt.UTC().Format(time.RFC3339Nano) + "~" + last.ID
		out.Next = &next
	}
	return answerJSON(http.StatusOK, out)
}

// SaveSheetPlay keeps a checked paper score sheet as a play.
func (s *Server) SaveSheetPlay(ctx context.Context, r oapi.SaveSheetPlayRequestObject) (oapi.SaveSheetPlayResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	b := r.Body
	sheet, err := b.Sheet.MarshalJSON()
	if err != nil {
		return nil, err
	}
	ruleset, err := b.Sheet.Discriminator()
	if err != nil {
		return nil, err
	}
	sp := groups.SheetPlay{Ruleset: ruleset, Sheet: bytes.TrimSpace(sheet), Start: -1}
	if b.PlayedAt != nil {
		sp.PlayedAt = *b.PlayedAt
	}
	if b.DurationSeconds != nil {
		sp.Duration = *b.DurationSeconds
	}
	if b.StartPlayer != nil {
		sp.Start = *b.StartPlayer
	}
	if r.Params.IdempotencyKey != nil {
		sp.Key = *r.Params.IdempotencyKey
	}
	p, replayed, err := gs.SaveSheet(ctx, g.ID, sp)
	if err != nil {
		return nil, err
	}
	status := http.StatusCreated
	if replayed {
		status = http.StatusOK
	}
	return answerJSON(status, s.playToAPI(p, s.titles()))
}

// GetGroupPlay returns one play.
func (s *Server) GetGroupPlay(ctx context.Context, r oapi.GetGroupPlayRequestObject) (oapi.GetGroupPlayResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	p, err := gs.Play(ctx, g.ID, r.Play)
	if err != nil {
		return nil, err
	}
	return answerJSON(http.StatusOK, s.playToAPI(p, s.titles()))
}

// DeleteGroupPlay deletes a play.
func (s *Server) DeleteGroupPlay(ctx context.Context, r oapi.DeleteGroupPlayRequestObject) (oapi.DeleteGroupPlayResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	if err := gs.DeletePlay(ctx, g.ID, r.Play); err != nil {
		return nil, err
	}
	return answer{status: http.StatusNoContent}, nil
}

// GetGroupStats returns a group's statistics.
func (s *Server) GetGroupStats(ctx context.Context, r oapi.GetGroupStatsRequestObject) (oapi.GetGroupStatsResponseObject, error) {
	gs, g, err := s.group(ctx, r.Group)
	if err != nil {
		return nil, err
	}
	st, err := gs.Stats(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	return answerJSON(http.StatusOK, st)
}

// ExportGroup returns a whole group in the project's own format.
func (s *Server) ExportGroup(ctx context.Context, r oapi.ExportGroupRequestObject) (oapi.ExportGroupResponseObject, error) {
	return s.groupFile(ctx, r.Group, "json", func(e groups.Export) (answer, error) { return answerJSON(http.StatusOK, e) })
}

// ExportGroupBGStats returns a group's plays as a BG Stats file.
func (s *Server) ExportGroupBGStats(ctx context.Context, r oapi.ExportGroupBGStatsRequestObject) (oapi.ExportGroupBGStatsResponseObject, error) {
	return s.groupFile(ctx, r.Group, "bgsplay", func(e groups.Export) (answer, error) {
		return answerJSON(http.StatusOK, groups.BGStats(e.Members, e.Plays, s.titles()))
	})
}

// ExportGroupCSV returns a group's plays as CSV.
func (s *Server) ExportGroupCSV(ctx context.Context, r oapi.ExportGroupCSVRequestObject) (oapi.ExportGroupCSVResponseObject, error) {
	return s.groupFile(ctx, r.Group, "csv", func(e groups.Export) (answer, error) {
		return answer{status: http.StatusOK, body: groups.CSV(e.Plays), ctype: "text/csv; charset=utf-8"}, nil
	})
}

// groupFile answers with a file made of the whole group, to be saved as
// group-<id>.<ext>.
func (s *Server) groupFile(ctx context.Context, ref, ext string, file func(groups.Export) (answer, error)) (answer, error) {
	gs, g, err := s.group(ctx, ref)
	if err != nil {
		return answer{}, err
	}
	e, err := gs.Export(ctx, g.ID)
	if err != nil {
		return answer{}, err
	}
	a, err := file(e)
	if err != nil {
		return answer{}, err
	}
	a.headers = map[string]string{"Content-Disposition": `attachment; filename="group-` + g.ID + `.` + ext + `"`}
	return a, nil
}

// forGroup checks a game to create for a group: the request's credential is
// the group's, each member sits once and each player's name is the
// member's. It returns the group's service and id, nil when the game is for
// no group.
func (s *Server) forGroup(ctx context.Context, gg *models.GameGroup, players []string) (*groups.Service, string, error) {
	if gg == nil {
		return nil, "", nil
	}
	gs, g, err := s.group(ctx, gg.Id)
	if err != nil {
		return nil, "", err
	}
	if len(gg.Members) != len(players) {
		return nil, "", domain.Fail(domain.Invalid, "api.groups.member-count", "members", len(gg.Members), "count", len(players))
	}
	names, err := gs.Seat(ctx, g.ID, gg.Members)
	if err != nil {
		return nil, "", err
	}
	for i, n := range names {
		if n != players[i] {
			return nil, "", domain.Fail(domain.Invalid, "api.groups.member-name", "index", i, "member", gg.Members[i], "name", n)
		}
	}
	return gs, g.ID, nil
}
