// Package api serves the HTTP contract of openapi.yaml over a service.Games:
// thin handlers that turn requests into calls of the service and results into
// answers, request validation against the same document, and
// application/problem+json for every error. It knows no game's rules: a game's
// state, its moves, legal moves, score and catalogs pass through as the
// ruleset's own JSON.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	treasury "github.com/treasury-games/treasury"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/names"
	"github.com/treasury-games/treasury/domain/service"
)

// Server implements the operations of openapi.yaml.
type Server struct {
	games          *service.Games
	log            *slog.Logger
	defaultRuleset string
	metrics        *Metrics
	done           <-chan struct{} // closed when the server shuts down
	heartbeat      time.Duration   // keep-alive period of event streams
	streams        *streamCaps     // open event streams, capped
	hub            *streamHub      // heartbeats of detached event streams
	streamWrite    time.Duration   // bounds each write to an event stream
	detached       *sync.WaitGroup // counts detached streams until each has ended; may be nil
	groups         *groups.Service // nil: the server keeps no groups
}

var _ oapi.StrictServerInterface = (*Server)(nil)

// NewServer returns the handlers over games.
func NewServer(games *service.Games, opts Options) *Server {
	opts = opts.withDefaults()
	return &Server{games: games, log: opts.Logger, defaultRuleset: opts.DefaultRuleset,
		metrics: opts.Metrics, done: opts.Done, heartbeat: opts.Heartbeat,
		streams: newStreamCaps(opts.MaxStreams, opts.StreamsPerAddress, opts.StreamsPerCredential, opts.Metrics),
		hub:     newStreamHub(opts.Heartbeat, opts.Done), streamWrite: opts.StreamWriteTimeout,
		detached: opts.Detached, groups: opts.Groups}
}

// Default and largest page of the move log.
const maxMoves = 1000

// etag is the ETag of a game at version v.
func etag(v int64) string { return `"` + strconv.FormatInt(v, 10) + `"` }

// actor returns who the request's credential stands for in game id: nil
// without a credential, Unauthorized for a credential that is none of the
// game's.
func (s *Server) actor(ctx context.Context, id string) (*domain.Actor, error) {
	cred := credential(ctx)
	if cred == "" {
		return nil, nil
	}
	a, err := s.games.Authenticate(ctx, id, cred)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// mustActor is actor for operations that need a credential.
func (s *Server) mustActor(ctx context.Context, id string) (domain.Actor, error) {
	a, err := s.actor(ctx, id)
	if err != nil {
		return domain.Actor{}, err
	}
	if a == nil {
		return domain.Actor{}, domain.Fail(domain.Unauthorized, "api.auth.needed", "game", id)
	}
	return *a, nil
}

func gameToAPI(g domain.GameView) models.Game {
	out := models.Game{
		Id: g.ID, Ruleset: g.Ruleset, Mode: models.Mode(g.Mode), Version: g.Version, Phase: g.Phase, Ended: g.Ended,
		CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt, State: union[models.GameState](g.State),
		Options: map[string]any{}, SeedCommitment: nonEmpty(g.SeedCommitment), Seed: nonEmpty(g.Seed), SeedSalt: nonEmpty(g.SeedSalt),
		Awaiting: make([]models.Await, len(g.Awaiting)), OnTurn: g.OnTurn, TurnNumber: g.TurnNumber,
	}
	for i, a := range g.Awaiting {
		out.Awaiting[i] = models.Await{Actor: models.AwaitActor(a.Actor), Seat: a.Seat, Action: a.Action, Count: a.Count}
	}
	if len(g.Options) > 0 {
		_ = json.Unmarshal(g.Options, &out.Options) // the ruleset's JSON object
	}
	return out
}

// union returns a generated union type (a ruleset's payload, told apart by a
// discriminator) holding the JSON the ruleset encoded.
func union[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
}](raw []byte) T {
	var v T
	_ = P(&v).UnmarshalJSON(raw) // a union keeps the bytes as they are
	return v
}

// nonEmpty returns &s, or nil for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateGame creates a game and hands out its credentials.
func (s *Server) CreateGame(ctx context.Context, r oapi.CreateGameRequestObject) (oapi.CreateGameResponseObject, error) {
	b := r.Body
	req := domain.CreateRequest{Mode: string(b.Mode)}
	for _, p := range b.Players {
		req.Players = append(req.Players, p.Name)
	}
	if b.Seed != nil {
		if err := names.CheckSeed(*b.Seed); err != nil {
			return nil, err
		}
		req.Seed = *b.Seed
	}
	if b.Catalog != nil {
		req.Catalog = *b.Catalog
	}
	if b.Options != nil {
		req.Options = *b.Options // as sent: 2.0 is not an integer, null no value
	}
	gs, groupID, err := s.forGroup(ctx, b.Group, req.Players)
	if err != nil {
		return nil, err
	}
	key, body := "", []byte(nil)
	if r.Params.IdempotencyKey != nil {
		key = *r.Params.IdempotencyKey
		// The request as sent, to tell a retry from another request with
		// the key (the service hashes it in canonical form).
		if body, err = json.Marshal(b); err != nil {
			return nil, err
		}
	}
	create := s.games.CreateOnce
	if replayOnly, _ := ctx.Value(replayOnlyKey{}).(bool); replayOnly {
		create = s.games.ReplayCreation // over the creation quota: answered only if a retry
	}
	c, replayed, err := create(ctx, b.Ruleset, req, key, body)
	if err != nil {
		return nil, err
	}
	if !replayed && c.Game.ID == "" {
		return nil, errNotCreated
	}
	if gs != nil {
		// A retry links the game again: the first request may have
		// created it and stopped before.
		err := gs.LinkGame(ctx, groupID, c.Game.ID, b.Group.Members)
		if err != nil && !(replayed && domain.ErrorCode(err) == domain.Conflict) {
			return nil, err
		}
	}
	return oapi.CreateGame201JSONResponse{
		Body: models.Created{Game: gameToAPI(c.Game), Credentials: models.Credentials{Host: c.Host, Seats: c.Seat}},
		Headers: oapi.CreateGame201ResponseHeaders{ETag: langTag(ctx, etag(c.Game.Version)), Location: "/v1/games/" + c.Game.ID,
			IdempotencyReplayed: strconv.FormatBool(replayed)},
	}, nil
}

// GetGame returns a game as the caller may see it.
func (s *Server) GetGame(ctx context.Context, r oapi.GetGameRequestObject) (oapi.GetGameResponseObject, error) {
	a, err := s.actor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	g, err := s.games.Game(ctx, r.Id, domain.ViewerOf(a))
	if err != nil {
		return nil, err
	}
	tag := langTag(ctx, etag(g.Version))
	if r.Params.IfNoneMatch != nil && noneMatch(*r.Params.IfNoneMatch, tag) {
		return oapi.GetGame304Response{Headers: oapi.GetGame304ResponseHeaders{ETag: tag}}, nil
	}
	return oapi.GetGame200JSONResponse{Body: gameToAPI(g), Headers: oapi.GetGame200ResponseHeaders{ETag: tag}}, nil
}

// noneMatch reports whether an If-None-Match header names tag (weak
// comparison, as RFC 9110 asks for If-None-Match).
func noneMatch(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		// The bare value is taken as If-Match takes it.
		if t == "*" || t == tag || `"`+t+`"` == tag {
			return true
		}
	}
	return false
}

// ifMatch reads an If-Match header (RFC 9110 13.1.1): "*", or a list of
// entity tags of which any may match. If-Match compares strongly, so a weak
// tag (W/"3") never matches. It returns the version the move must find the
// game at, nil for any; a list with no tag that can match is refused with
// PreconditionFailed. Of a list naming several versions, current (read only
// then) tells which one the game is at.
func ifMatch(h *string, current func() (int64, error)) (*int64, error) {
	if h == nil {
		return nil, nil
	}
	tags, err := entityTags(*h)
	if err != nil {
		return nil, err
	}
	var versions []int64
	weak := false
	for _, t := range tags {
		switch {
		case t == "*":
			return nil, nil
		case strings.HasPrefix(t, "W/"):
			weak = true
		default:
			if v, err := strconv.ParseInt(withoutLang(strings.Trim(t, `"`)), 10, 64); err == nil && v >= 0 {
				versions = append(versions, v)
			}
		}
	}
	switch len(versions) {
	case 0:
		if weak {
			return nil, domain.Fail(domain.PreconditionFailed, "api.if-match.weak")
		}
		return nil, domain.Fail(domain.PreconditionFailed, "api.if-match.none")
	case 1:
		return &versions[0], nil
	}
	cur, err := current()
	if err != nil {
		return nil, err
	}
	if slices.Contains(versions, cur) {
		return &cur, nil
	}
	return &versions[0], nil // refused with the game's version in the reason
}

// entityTags splits an If-Match or If-None-Match header into its members:
// "*", "<tag>" or W/"<tag>" (a bare number is taken as its quoted tag, as
// clients have sent it).
func entityTags(h string) ([]string, error) {
	var tags []string
	rest := strings.TrimSpace(h)
	bad := domain.Fail(domain.Invalid, "api.if-match.malformed", "value", h)
	for rest != "" {
		var tag string
		switch {
		case rest[0] == '*':
			tag, rest = "*", rest[1:]
		case rest[0] == '"' || strings.HasPrefix(rest, `W/"`):
			start := strings.IndexByte(rest, '"')
			end := strings.IndexByte(rest[start+1:], '"')
			if end < 0 {
				return nil, bad
			}
			tag, rest = rest[:start+end+2], rest[start+end+2:]
		default:
			i := 0
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i == 0 {
				return nil, bad
			}
			tag, rest = `"`+rest[:i]+`"`, rest[i:]
		}
		tags = append(tags, tag)
		rest = strings.TrimSpace(rest)
		if rest == "" {
			break
		}
		if rest[0] != ',' {
			return nil, bad
		}
		rest = strings.TrimSpace(rest[1:])
	}
	if len(tags) == 0 {
		return nil, bad
	}
	return tags, nil
}

// SubmitMove applies a move.
func (s *Server) SubmitMove(ctx context.Context, r oapi.SubmitMoveRequestObject) (oapi.SubmitMoveResponseObject, error) {
	// On a shared store the move's append checks its credential (issue 27).
	cred := credential(ctx)
	if cred == "" {
		return nil, domain.Fail(domain.Unauthorized, "api.auth.needed", "game", r.Id)
	}
	a, err := s.games.AuthenticateMove(ctx, r.Id, cred)
	if err != nil {
		return nil, err
	}
	opt := domain.PlayOptions{Credential: cred}
	current := func() (int64, error) {
		g, err := s.games.Game(ctx, r.Id, domain.Public)
		return g.Version, err
	}
	if opt.IfMatch, err = ifMatch(r.Params.IfMatch, current); err != nil {
		return nil, err
	}
	if r.Params.IdempotencyKey != nil {
		opt.IdempotencyKey = *r.Params.IdempotencyKey
	}
	move, err := r.Body.MarshalJSON() // the bytes of the body, as read
	if err != nil {
		return nil, err
	}
	opt.Minimal = r.Params.Prefer != nil && preferMinimal(*r.Params.Prefer) // then no view is built
	p, err := s.games.Play(ctx, r.Id, a, bytes.TrimSpace(move), opt)
	if err != nil {
		noteRuleset(ctx, s.games.KnownRuleset(r.Id))
		return nil, err
	}
	noteRuleset(ctx, p.Game.Ruleset)
	if opt.Minimal {
		// Sized for both numbers at their longest: one allocation.
		b := strconv.AppendInt(append(make([]byte, 0, 64), `{"seq":`...), p.Seq, 10)
		b = strconv.AppendInt(append(b, `,"version":`...), p.Game.Version, 10)
		return moveResult200{body: append(b, '}'), etag: langTag(ctx, etag(p.Game.Version)), replayed: p.Replayed, minimal: true}, nil
	}
	return moveResult200{body: p.Response, etag: langTag(ctx, etag(p.Game.Version)), replayed: p.Replayed}, nil
}

// preferMinimal reports whether a Prefer header (RFC 7240) asks for
// return=minimal.
func preferMinimal(h string) bool {
	for rest, more := h, true; more; {
		var pref string
		pref, rest, more = strings.Cut(rest, ",")
		token, _, _ := strings.Cut(pref, ";") // parameters of a preference
		k, v, _ := strings.Cut(strings.TrimSpace(token), "=")
		if strings.EqualFold(strings.TrimSpace(k), "return") && strings.EqualFold(strings.Trim(strings.TrimSpace(v), `"`), "minimal") {
			return true
		}
	}
	return false
}

// moveResult200 answers an accepted move with the bytes the service encoded
// (the same a retry with the Idempotency-Key gets), as
// oapi.SubmitMove200JSONResponse would write them, without decoding and
// encoding the game once more.
type moveResult200 struct {
	body     []byte
	etag     string
	replayed bool
	minimal  bool // Prefer: return=minimal was honoured
}

func (r moveResult200) VisitSubmitMoveResponse(w http.ResponseWriter) error {
	w.Header().Add("Vary", "Prefer")
	if r.minimal {
		return writeJSON(w, r.body, "Etag", r.etag, "Idempotency-Replayed", strconv.FormatBool(r.replayed),
			"Preference-Applied", "return=minimal")
	}
	return writeJSON(w, r.body, "Etag", r.etag, "Idempotency-Replayed", strconv.FormatBool(r.replayed))
}

// writeJSON answers 200 with body, a JSON value encoded before, and the
// headers of pairs (a canonical name, as http.CanonicalHeaderKey writes it,
// then its value). The values share one slice (http.Header.Set makes one
// of its own a header: a move's answer made six), each capped at its one
// value so that a later Add appends elsewhere.
func writeJSON(w http.ResponseWriter, body []byte, pairs ...string) error {
	vals := make([]string, 0, len(pairs)/2+2)
	h := w.Header()
	set := func(name, value string) {
		vals = append(vals, value)
		h[name] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		set(pairs[i], pairs[i+1])
	}
	set("Content-Type", "application/json")
	// With its length known, an answer of more than 2 KB (most of a game's)
	// is sent as it is rather than in chunks.
	set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return err
	}
	_, err := w.Write(newline) // as json.Encoder ends a value
	return err
}

// newline ends every JSON answer (a []byte made from a string at each
// Write would be an allocation of every answer).
var newline = []byte("\n")

// ListMoves returns a page of the move log.
func (s *Server) ListMoves(ctx context.Context, r oapi.ListMovesRequestObject) (oapi.ListMovesResponseObject, error) {
	after, limit := int64(0), maxMoves
	if r.Params.After != nil {
		after = *r.Params.After
	}
	if r.Params.Limit != nil {
		limit = min(*r.Params.Limit, maxMoves)
	}
	a, err := s.actor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	moves, err := s.games.Moves(ctx, r.Id, after, limit, domain.ViewerOf(a))
	if err != nil {
		return nil, err
	}
	out := oapi.ListMoves200JSONResponse{Moves: make([]models.MoveEntry, len(moves))}
	for i, m := range moves {
		e := models.MoveEntry{Seq: m.Seq, Actor: models.Actor{Host: m.Actor.Host}, Move: union[models.Move](m.Move), At: m.At}
		if !m.Actor.Host {
			seat := m.Actor.Seat
			e.Actor.Seat = &seat
		}
		out.Moves[i] = e
	}
	return out, nil
}

// GetLegalMoves lists what a seat may do now. A seat asks for itself; the
// host for any seat.
func (s *Server) GetLegalMoves(ctx context.Context, r oapi.GetLegalMovesRequestObject) (oapi.GetLegalMovesResponseObject, error) {
	a, err := s.mustActor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	var seat int
	switch {
	case a.Host && r.Params.Seat == nil:
		seat = -1 // the table's own moves: the reports a physical game owes
	case a.Host:
		seat = *r.Params.Seat
	case r.Params.Seat != nil && *r.Params.Seat != a.Seat:
		return nil, domain.Fail(domain.Forbidden, "api.legal-moves.own-seat", "seat", a.Seat)
	default:
		seat = a.Seat
	}
	head, l, err := s.games.LegalMoves(ctx, r.Id, domain.ViewerOf(&a), seat)
	if err != nil {
		return nil, err
	}
	return legalMoves200{body: withHead(l, head), etag: langTag(ctx, etag(head.Version))}, nil
}

// legalMoves200 answers a listing with the bytes the service encoded, as
// oapi.GetLegalMoves200JSONResponse would write them, without encoding them
// once more.
type legalMoves200 struct {
	body []byte
	etag string
}

func (r legalMoves200) VisitGetLegalMovesResponse(w http.ResponseWriter) error {
	return writeJSON(w, r.body, "Etag", r.etag)
}

// withHead returns the JSON object obj (a ruleset's legal moves) with
// "version" and "awaiting" members first: the game's version the moves were
// listed at, so that a client can send If-Match without reading the game
// again, and who the game awaits now, so that a client knows whether the
// moves are owed, whatever the ruleset.
func withHead(obj []byte, head domain.GameHead) []byte {
	return appendWithHead(make([]byte, 0, len(obj)+128), obj, head)
}

// appendWithHead appends withHead(obj, head) to out.
func appendWithHead(out, obj []byte, head domain.GameHead) []byte {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' {
		return append(out, obj...) // not an object: the ruleset's bug, shown as it is
	}
	return append(appendHead(out, obj, head), obj[1:]...)
}

// appendHead appends what withHead writes before obj[1:] (obj a trimmed
// JSON object): the head's members, and the comma that parts them from
// obj's when it has any.
func appendHead(out, obj []byte, head domain.GameHead) []byte {
	out = append(out, `{"version":`...)
	out = strconv.AppendInt(out, head.Version, 10)
	out = append(out, `,"awaiting":`...)
	if len(head.Awaiting) == 0 {
		out = append(out, "[]"...)
	} else {
		out = domain.AppendList(out, head.Awaiting, domain.AppendAwait)
	}
	if rest := bytes.TrimSpace(obj[1:]); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return out
}

// GetScore returns the scores and the ranking.
func (s *Server) GetScore(ctx context.Context, r oapi.GetScoreRequestObject) (oapi.GetScoreResponseObject, error) {
	sc, err := s.games.Score(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	return oapi.GetScore200JSONResponse(union[models.Score](sc)), nil
}

// GetCatalog returns a catalog offered for new games.
func (s *Server) GetCatalog(ctx context.Context, r oapi.GetCatalogRequestObject) (oapi.GetCatalogResponseObject, error) {
	ruleset := s.rulesetOr(r.Params.Ruleset)
	if r.Params.Ruleset == nil {
		// A catalog's name is its ruleset's: without the ruleset the name
		// must be one ruleset's only.
		var have []string
		for _, e := range s.games.RulesetInfos() {
			for _, c := range e.Catalogs {
				if c.Name == r.Name {
					have = append(have, e.Name)
				}
			}
		}
		switch len(have) {
		case 0:
			return nil, domain.Fail(domain.NotFound, "api.catalog.unknown", "name", r.Name)
		case 1:
			ruleset = have[0]
		default:
			return nil, domain.Fail(domain.Invalid, "api.catalog.ambiguous", "rulesets", have, "name", r.Name)
		}
	}
	info, c, err := s.games.Catalog(ruleset, r.Name)
	if err != nil {
		return nil, err
	}
	// The content is fixed by its hash; only the name may be bound to
	// another catalog when the server restarts.
	cache := "public, max-age=300"
	if r.Params.Hash != nil {
		if *r.Params.Hash != info.Hash {
			return nil, domain.Fail(domain.NotFound, "api.catalog.hash", "name", info.Name, "hash", info.Hash, "asked", *r.Params.Hash)
		}
		cache = "public, max-age=31536000, immutable"
	}
	tag := langTag(ctx, `"`+info.Hash+`"`)
	if r.Params.IfNoneMatch != nil && noneMatch(*r.Params.IfNoneMatch, tag) {
		return oapi.GetCatalog304Response{Headers: oapi.GetCatalog304ResponseHeaders{ETag: tag, CacheControl: cache}}, nil
	}
	return oapi.GetCatalog200JSONResponse{Body: union[models.Catalog](c),
		Headers: oapi.GetCatalog200ResponseHeaders{ETag: tag, CacheControl: cache}}, nil
}

// ListRulesets lists the games this server plays.
func (s *Server) ListRulesets(context.Context, oapi.ListRulesetsRequestObject) (oapi.ListRulesetsResponseObject, error) {
	out := oapi.ListRulesets200JSONResponse{Rulesets: []models.RulesetInfo{}}
	for _, r := range s.games.RulesetInfos() {
		info := models.RulesetInfo{
			Name: r.Name, Title: r.Title, Summary: r.Summary, SummaryMessage: r.SummaryMessage, MinPlayers: r.MinPlayers, MaxPlayers: r.MaxPlayers,
			Modes: []models.Mode{}, Options: []models.RulesetOption{}, Catalogs: []models.RulesetCatalog{}, ScoreSheets: r.ScoreSheets,
		}
		for _, m := range r.Modes {
			info.Modes = append(info.Modes, models.Mode(m))
		}
		for _, o := range r.Options {
			opt := models.RulesetOption{Name: o.Name, Type: models.RulesetOptionType(o.Type), Description: o.Description, DescriptionMessage: o.DescriptionMessage,
				Minimum: o.Minimum, Maximum: o.Maximum}
			_ = json.Unmarshal(o.Default, &opt.Default) // the ruleset's JSON value
			if len(o.Enum) > 0 {
				opt.Enum = &o.Enum
			}
			if o.Seat {
				opt.Seat = &o.Seat
			}
			info.Options = append(info.Options, opt)
		}
		for _, c := range r.Catalogs {
			info.Catalogs = append(info.Catalogs, models.RulesetCatalog{Name: c.Name, Hash: c.Hash,
				Href: "/v1/catalogs/" + url.PathEscape(c.Name) + "?ruleset=" + url.QueryEscape(r.Name) + "&hash=" + c.Hash})
		}
		out.Rulesets = append(out.Rulesets, info)
	}
	return out, nil
}

// GetHealth says the process is alive. It does not touch the store: a
// supervisor that restarts on a failed liveness check must not restart a
// server whose database is merely slow (readiness is GetReadiness).
func (s *Server) GetHealth(context.Context, oapi.GetHealthRequestObject) (oapi.GetHealthResponseObject, error) {
	return oapi.GetHealth200JSONResponse{Status: models.Ok}, nil
}

// GetReadiness reports whether the store answers and is migrated.
func (s *Server) GetReadiness(ctx context.Context, _ oapi.GetReadinessRequestObject) (oapi.GetReadinessResponseObject, error) {
	if err := s.games.Ping(ctx); err != nil {
		if domain.ErrorCode(err) == domain.Internal {
			s.log.ErrorContext(ctx, "readiness check", "error", err)
			return nil, domain.Fail(domain.Unavailable, "api.store.not-ready")
		}
		return nil, err
	}
	return oapi.GetReadiness200JSONResponse{Status: models.Ok}, nil
}

// GetOpenAPI serves openapi.yaml.
func (s *Server) GetOpenAPI(context.Context, oapi.GetOpenAPIRequestObject) (oapi.GetOpenAPIResponseObject, error) {
	return oapi.GetOpenAPI200ApplicationyamlResponse{Body: bytes.NewReader(treasury.OpenAPI), ContentLength: int64(len(treasury.OpenAPI))}, nil
}
