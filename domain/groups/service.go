package groups

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/names"
)

// Games is what the groups need of the games: a game as the public sees
// it, its score, a sheet checked and the rulesets' options (service.Games).
type Games interface {
	Game(ctx context.Context, id string, v domain.Viewer) (domain.GameView, error)
	Score(ctx context.Context, id string) ([]byte, error)
	VerifySheet(ruleset string, sheet []byte) ([]byte, error)
	RulesetInfos() []domain.RulesetEntry
}

// Service keeps groups in a store. Statistics are computed from every play
// of a group; the service keeps a group's members and plays in memory as of
// one revision of the group, and its own changes to them, so that a new play
// costs a computation from memory rather than a read of every play
// (BenchmarkGroupStats: some 400 ms for 10,000 plays read afresh on a busy
// 2-core machine, against under 10 ms from memory).
type Service struct {
	store domain.GroupStore
	games Games
	now   func() time.Time

	mu     sync.Mutex
	cache  map[string]*entry // by group id
	cached int               // plays held in cache, at most cachedPlays
}

// entry is a group's members and plays (earliest first) as of revision,
// with its statistics once computed.
type entry struct {
	revision int64
	members  []domain.Member
	plays    []domain.Play
	stats    *Stats
}

// cachedPlays bounds the plays kept in memory, all groups together.
const cachedPlays = 200000

// New returns the groups kept in store, whose games are games (nil: none;
// games created for a group are then neither seated nor kept as plays).
func New(store domain.GroupStore, games Games) *Service {
	return &Service{store: store, games: games, now: time.Now, cache: map[string]*entry{}}
}

// revision returns the revision of the group's cached entry, -1 for none.
func (s *Service) revision(groupID string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.cache[groupID]; e != nil {
		return e.revision
	}
	return -1
}

// changed follows a change this service made to a group that found the
// cache at revision before: when the group is now at before+1, the change
// was the only one since and change applies it to the cached entry;
// otherwise the entry is dropped (another process or request changed the
// group too, and the next statistics read it afresh).
//
// The statistics of the new revision are computed from memory then and kept
// in the store, so that another server (which has not the group's plays in
// memory) answers from them instead of reading every play: a group changes
// once a game or so, and it is read far more often.
func (s *Service) changed(ctx context.Context, groupID string, before int64, change func(e *entry)) {
	g, _, err := s.store.Group(ctx, groupID)
	if err != nil {
		s.drop(groupID)
		return
	}
	s.mu.Lock()
	e := s.cache[groupID]
	if e == nil || before < 0 || e.revision != before || g.Revision != before+1 {
		if e != nil {
			s.cached -= len(e.plays)
			delete(s.cache, groupID)
		}
		s.mu.Unlock()
		// Not in memory, or changed by others too: read every play now,
		// once, so that readers find the statistics kept. A failure
		// costs only the next reader's time.
		_, _ = s.fromStore(ctx, g)
		return
	}
	n := len(e.plays)
	change(e)
	s.cached += len(e.plays) - n
	st := Compute(g, e.members, e.plays)
	e.revision, e.stats = g.Revision, &st
	s.mu.Unlock()
	s.persist(ctx, st)
}

// keep caches a group's entry, making room when it must.
func (s *Service) keep(groupID string, e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(e.plays) > cachedPlays {
		return
	}
	if old := s.cache[groupID]; old != nil {
		s.cached -= len(old.plays)
		delete(s.cache, groupID)
	}
	for id, o := range s.cache { // any, until there is room: map order is random
		if s.cached+len(e.plays) <= cachedPlays {
			break
		}
		s.cached -= len(o.plays)
		delete(s.cache, id)
	}
	s.cache[groupID] = e
	s.cached += len(e.plays)
}

// insertPlay returns plays with p in its place by time (then id).
func insertPlay(plays []domain.Play, p domain.Play) []domain.Play {
	i, _ := slices.BinarySearchFunc(plays, p, func(a, b domain.Play) int {
		if c := a.PlayedAt.Compare(b.PlayedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return slices.Insert(slices.Clip(plays), i, p)
}

// Store returns the store the groups are kept in.
func (s *Service) Store() domain.GroupStore { return s.store }

// MaxGroupName is the longest group name, in characters.
const MaxGroupName = 64

// Create makes a group and returns it with its credential, shown once.
func (s *Service) Create(ctx context.Context, name string) (domain.Group, string, error) {
	if err := names.Check([]string{name}); err != nil {
		return domain.Group{}, "", domain.Fail(domain.Invalid, "table.group.name", "max", domain.MaxNameLength)
	}
	g := domain.Group{ID: domain.NewID(), Name: name, CreatedAt: s.now().UTC()}
	secret := domain.NewSecret()
	if err := s.store.CreateGroup(ctx, g, domain.HashSecret(secret)); err != nil {
		return domain.Group{}, "", err
	}
	return g, secret, nil
}

// Authenticate returns the group a credential holds: Unauthorized without
// a credential or with another one, NotFound for no such group.
func (s *Service) Authenticate(ctx context.Context, groupID, secret string) (domain.Group, error) {
	if secret == "" {
		return domain.Group{}, domain.Fail(domain.Unauthorized, "table.group.no-credential", "group", groupID)
	}
	g, hash, err := s.store.Group(ctx, groupID)
	if err != nil {
		return domain.Group{}, err
	}
	if subtle.ConstantTimeCompare([]byte(hash), []byte(domain.HashSecret(secret))) != 1 {
		return domain.Group{}, domain.Fail(domain.Unauthorized, "table.group.wrong-credential", "group", groupID)
	}
	return g, nil
}

// AddMember adds a member named name to a group.
func (s *Service) AddMember(ctx context.Context, groupID, name string) (domain.Member, error) {
	if err := names.Check([]string{name}); err != nil {
		return domain.Member{}, domain.Fail(domain.Invalid, "table.group.member-name", "reason", domain.ErrorMessage(err))
	}
	ms, err := s.store.Members(ctx, groupID)
	if err != nil {
		return domain.Member{}, err
	}
	if len(ms) >= domain.MaxGroupMembers {
		return domain.Member{}, domain.Fail(domain.Conflict, "table.group.members-full", "count", len(ms))
	}
	m := domain.Member{ID: domain.NewID()[:8], Name: name, JoinedAt: s.now().UTC(), NameKey: names.Key(name)}
	for _, o := range ms {
		if o.NameKey == m.NameKey {
			return domain.Member{}, domain.Fail(domain.Conflict, "table.group.member-same", "name", o.Name)
		}
	}
	before := s.revision(groupID)
	if err := s.store.AddMember(ctx, groupID, m); err != nil {
		return domain.Member{}, err
	}
	s.changed(ctx, groupID, before, func(e *entry) { e.members = append(slices.Clip(e.members), m) })
	return m, nil
}

// Members returns a group's members in the order they joined.
func (s *Service) Members(ctx context.Context, groupID string) ([]domain.Member, error) {
	return s.store.Members(ctx, groupID)
}

// DeleteMember deletes a member and every play they are in; it returns how
// many plays went with them.
func (s *Service) DeleteMember(ctx context.Context, groupID, memberID string) (int, error) {
	if err := s.Settle(ctx, groupID); err != nil {
		return 0, err
	}
	before := s.revision(groupID)
	n, err := s.store.DeleteMember(ctx, groupID, memberID)
	if err != nil {
		return 0, err
	}
	s.changed(ctx, groupID, before, func(e *entry) {
		e.members = slices.DeleteFunc(slices.Clone(e.members), func(m domain.Member) bool { return m.ID == memberID })
		e.plays = slices.DeleteFunc(slices.Clone(e.plays), func(p domain.Play) bool {
			return slices.ContainsFunc(p.Players, func(pl domain.PlayPlayer) bool { return pl.Member == memberID })
		})
	})
	return n, nil
}

// Seat returns the names of the members of a game to create for the group,
// in seat order. Each member may sit once.
func (s *Service) Seat(ctx context.Context, groupID string, memberIDs []string) ([]string, error) {
	ms, err := s.store.Members(ctx, groupID)
	if err != nil {
		return nil, err
	}
	games, err := s.store.GroupGames(ctx, groupID)
	if err != nil {
		return nil, err
	}
	if len(games) >= domain.MaxGroupGames {
		// Some may have ended: keep their plays and count again.
		if err := s.Settle(ctx, groupID); err != nil {
			return nil, err
		}
		if games, err = s.store.GroupGames(ctx, groupID); err != nil {
			return nil, err
		}
		if len(games) >= domain.MaxGroupGames {
			return nil, domain.Fail(domain.Conflict, "table.group.games-full", "count", len(games))
		}
	}
	out := make([]string, len(memberIDs))
	for i, id := range memberIDs {
		j := slices.IndexFunc(ms, func(m domain.Member) bool { return m.ID == id })
		if j < 0 {
			return nil, domain.Fail(domain.Invalid, "table.group.seat-no-member", "index", i, "member", id)
		}
		if slices.Index(memberIDs[:i], id) >= 0 {
			return nil, domain.Fail(domain.Invalid, "table.group.seat-twice", "index", i, "member", id)
		}
		out[i] = ms[j].Name
	}
	return out, nil
}

// LinkGame records that a game was created for the group with these
// members, so that its play is kept once it ends.
func (s *Service) LinkGame(ctx context.Context, groupID, gameID string, memberIDs []string) error {
	return s.store.LinkGame(ctx, domain.GroupGame{GameID: gameID, GroupID: groupID, Members: memberIDs})
}

// Settle keeps the play of every game of the group that has ended, and
// forgets the games that are gone without ending. A service without games
// (a tool reading the store alone) leaves them as they are.
func (s *Service) Settle(ctx context.Context, groupID string) error {
	if s.games == nil {
		return nil
	}
	games, err := s.store.GroupGames(ctx, groupID)
	if err != nil {
		return err
	}
	for _, gg := range games {
		if err := s.settleGame(ctx, gg); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) settleGame(ctx context.Context, gg domain.GroupGame) error {
	g, err := s.games.Game(ctx, gg.GameID, domain.Public)
	if domain.ErrorCode(err) == domain.NotFound {
		return s.store.UnlinkGame(ctx, gg.GameID)
	}
	if err != nil || !g.Ended {
		return err
	}
	score, err := s.games.Score(ctx, gg.GameID)
	if err != nil {
		return err
	}
	players, err := playersFromScore(score, gg.Members, s.startSeat(g.Ruleset, g.Options))
	if err != nil {
		return err
	}
	p := domain.Play{ID: g.ID, Source: domain.PlayFromGame, GameID: g.ID, Ruleset: g.Ruleset, Mode: g.Mode,
		Options: g.Options, PlayedAt: g.CreatedAt.UTC(), Duration: int64(g.UpdatedAt.Sub(g.CreatedAt) / time.Second), Players: players}
	if len(p.Options) == 0 {
		p.Options = json.RawMessage(`{}`)
	}
	err = s.save(ctx, gg.GroupID, p)
	if domain.ErrorCode(err) == domain.Conflict { // kept by another request meanwhile
		return s.store.UnlinkGame(ctx, gg.GameID)
	}
	return err
}

// save keeps a play.
func (s *Service) save(ctx context.Context, groupID string, p domain.Play) error {
	before := s.revision(groupID)
	if err := s.store.SavePlay(ctx, groupID, p); err != nil {
		return err
	}
	s.changed(ctx, groupID, before, func(e *entry) { e.plays = insertPlay(e.plays, p) })
	return nil
}

// SettleAll keeps the plays of every group's ended games (the idle sweep
// calls it before it deletes games).
func (s *Service) SettleAll(ctx context.Context) error {
	after := ""
	for {
		ids, err := s.store.LinkedGroups(ctx, after, 100)
		if err != nil || len(ids) == 0 {
			return err
		}
		for _, id := range ids {
			if err := s.Settle(ctx, id); err != nil {
				return err
			}
		}
		after = ids[len(ids)-1]
	}
}

// startSeat is the seat of a game's start player as its options say (the
// ruleset's option that names a seat), or 0.
func (s *Service) startSeat(ruleset string, options json.RawMessage) int {
	var opts map[string]json.RawMessage
	_ = json.Unmarshal(options, &opts)
	for _, e := range s.games.RulesetInfos() {
		if e.Name != ruleset {
			continue
		}
		for _, o := range e.Options {
			if !o.Seat {
				continue
			}
			var seat int
			if err := json.Unmarshal(opts[o.Name], &seat); err == nil {
				return seat
			}
		}
	}
	return 0
}

// SheetPlay is a checked paper score sheet to keep as a play.
type SheetPlay struct {
	Ruleset  string
	Sheet    []byte // the ruleset's sheet, as POST /v1/score-sheets/verify takes it
	PlayedAt time.Time
	Duration int64 // seconds; 0 when unknown
	Start    int   // the start player's place on the sheet; -1 when not known
	Key      string
}

// SaveSheet checks a paper score sheet and keeps it as a play; each player
// on the sheet is the member of the same name. A sheet with mistakes is
// refused. With a key (Idempotency-Key), a retry keeps nothing more and
// answers with the play kept the first time (replayed true).
func (s *Service) SaveSheet(ctx context.Context, groupID string, sp SheetPlay) (p domain.Play, replayed bool, err error) {
	if s.games == nil {
		return domain.Play{}, false, domain.Fail(domain.Unavailable, "table.group.no-sheets")
	}
	result, err := s.games.VerifySheet(sp.Ruleset, sp.Sheet)
	if err != nil {
		return domain.Play{}, false, err
	}
	sheetNames, err := sheetNames(result)
	if err != nil {
		return domain.Play{}, false, err
	}
	ms, err := s.store.Members(ctx, groupID)
	if err != nil {
		return domain.Play{}, false, err
	}
	members, memberNames := make([]string, len(sheetNames)), make([]string, len(sheetNames))
	for i, n := range sheetNames {
		k := names.Key(n)
		j := slices.IndexFunc(ms, func(m domain.Member) bool { return m.NameKey == k })
		if j < 0 {
			return domain.Play{}, false, domain.Fail(domain.Invalid, "table.group.sheet-stranger", "player", i+1)
		}
		members[i], memberNames[i] = ms[j].ID, ms[j].Name
	}
	if sp.Start >= len(members) {
		return domain.Play{}, false, domain.Fail(domain.Invalid, "table.group.start-player", "start", sp.Start, "count", len(members))
	}
	players, err := playersFromScore(result, members, sp.Start)
	if err != nil {
		return domain.Play{}, false, err
	}
	for i := range players { // as the group writes them, whatever the sheet's hand
		players[i].Name = memberNames[i]
	}
	if n, err := s.store.CountPlays(ctx, groupID); err != nil {
		return domain.Play{}, false, err
	} else if n >= domain.MaxGroupPlays {
		return domain.Play{}, false, domain.Fail(domain.Conflict, "table.group.plays-full", "count", n)
	}
	at := sp.PlayedAt
	if at.IsZero() {
		at = s.now()
	}
	p = domain.Play{ID: domain.NewID(), Source: domain.PlayFromSheet, Ruleset: sp.Ruleset, Mode: domain.Physical,
		Options: json.RawMessage(`{}`), PlayedAt: at.UTC(), Duration: sp.Duration, Players: players}
	if sp.Key != "" {
		h := sha256.Sum256([]byte(groupID + "\x00" + sp.Key))
		p.ID = "k" + base64.RawURLEncoding.EncodeToString(h[:12])
	}
	err = s.save(ctx, groupID, p)
	if domain.ErrorCode(err) == domain.Conflict && sp.Key != "" {
		kept, err := s.store.Play(ctx, groupID, p.ID)
		return kept, true, err
	}
	return p, false, err
}

// Plays returns a page of a group's plays, latest first, after keeping the
// plays of its games that have ended.
func (s *Service) Plays(ctx context.Context, groupID string, q domain.PlayQuery) ([]domain.Play, error) {
	if err := s.Settle(ctx, groupID); err != nil {
		return nil, err
	}
	return s.store.Plays(ctx, groupID, q)
}

// Play returns one play.
func (s *Service) Play(ctx context.Context, groupID, playID string) (domain.Play, error) {
	if err := s.Settle(ctx, groupID); err != nil {
		return domain.Play{}, err
	}
	return s.store.Play(ctx, groupID, playID)
}

// DeletePlay deletes one play.
func (s *Service) DeletePlay(ctx context.Context, groupID, playID string) error {
	if err := s.Settle(ctx, groupID); err != nil {
		return err
	}
	before := s.revision(groupID)
	if err := s.store.DeletePlay(ctx, groupID, playID); err != nil {
		return err
	}
	s.changed(ctx, groupID, before, func(e *entry) {
		e.plays = slices.DeleteFunc(slices.Clone(e.plays), func(p domain.Play) bool { return p.ID == playID })
	})
	return nil
}

// Stats returns a group's statistics. They are computed once per revision
// of the group (a play kept or deleted, a member added or deleted) and kept
// in memory until the next.
func (s *Service) Stats(ctx context.Context, groupID string) (Stats, error) {
	if err := s.Settle(ctx, groupID); err != nil {
		return Stats{}, err
	}
	g, _, err := s.store.Group(ctx, groupID)
	if err != nil {
		return Stats{}, err
	}
	s.mu.Lock()
	if e := s.cache[groupID]; e != nil && e.revision == g.Revision {
		// Computed from memory (at this server's change, and kept in the
		// store then for the others).
		if e.stats == nil {
			st := Compute(g, e.members, e.plays)
			e.stats = &st
		}
		st := *e.stats
		s.mu.Unlock()
		return st, nil
	}
	s.mu.Unlock()
	// Kept by this or another server at this revision: no play is read.
	if rev, raw, err := s.store.GroupStats(ctx, groupID); err == nil && rev == g.Revision {
		var st Stats
		if json.Unmarshal(raw, &st) == nil && st.Revision == g.Revision {
			return st, nil
		}
	}
	return s.fromStore(ctx, g)
}

// fromStore computes group g's statistics from every member and play read
// from the store, keeps them in memory and in the store.
func (s *Service) fromStore(ctx context.Context, g domain.Group) (Stats, error) {
	ms, err := s.store.Members(ctx, g.ID)
	if err != nil {
		return Stats{}, err
	}
	plays, err := s.store.AllPlays(ctx, g.ID)
	if err != nil {
		return Stats{}, err
	}
	// A change between the reads above and the group's revision read
	// before them makes the entry one revision late: the next read drops it,
	// and the store keeps no statistics for a revision the group has left.
	st := Compute(g, ms, plays)
	s.keep(g.ID, &entry{revision: g.Revision, members: ms, plays: plays, stats: &st})
	s.persist(ctx, st)
	return st, nil
}

// drop forgets a group's cached entry.
func (s *Service) drop(groupID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.cache[groupID]; e != nil {
		s.cached -= len(e.plays)
		delete(s.cache, groupID)
	}
}

// persist keeps statistics in the store, for servers that have not the
// group's plays in memory. A failure costs only speed: it is not reported.
func (s *Service) persist(ctx context.Context, st Stats) {
	raw, err := json.Marshal(st)
	if err == nil {
		_ = s.store.SaveGroupStats(ctx, st.Group, st.Revision, raw)
	}
}

// ExportFormat names the project's own format of a whole group.
const ExportFormat = "treasury.group-export/v1"

// Export is a whole group in the project's own format.
type Export struct {
	Format string `json:"format"`
	domain.GroupExport
}

// Export reads everything kept about a group.
func (s *Service) Export(ctx context.Context, groupID string) (Export, error) {
	if err := s.Settle(ctx, groupID); err != nil {
		return Export{}, err
	}
	g, hash, err := s.store.Group(ctx, groupID)
	if err != nil {
		return Export{}, err
	}
	e := Export{Format: ExportFormat, GroupExport: domain.GroupExport{Group: g, CredentialHash: hash}}
	if e.Members, err = s.store.Members(ctx, groupID); err != nil {
		return Export{}, err
	}
	if e.Plays, err = s.store.AllPlays(ctx, groupID); err != nil {
		return Export{}, err
	}
	if e.Games, err = s.store.GroupGames(ctx, groupID); err != nil {
		return Export{}, err
	}
	return e, nil
}

// Import stores a group exported elsewhere, all or nothing. The importer
// shows the group's credential (secret), so the devices that held the
// group go on holding it. Conflict when a group with its id exists.
func (s *Service) Import(ctx context.Context, e Export, secret string) (domain.Group, error) {
	if e.Format != ExportFormat {
		return domain.Group{}, domain.Fail(domain.Invalid, "table.group.export-format", "format", e.Format, "want", ExportFormat)
	}
	if err := Check(&e.GroupExport); err != nil {
		return domain.Group{}, err
	}
	if subtle.ConstantTimeCompare([]byte(e.CredentialHash), []byte(domain.HashSecret(secret))) != 1 {
		return domain.Group{}, domain.Fail(domain.Unauthorized, "table.group.import-credential")
	}
	if err := s.store.ImportGroup(ctx, e.GroupExport); err != nil {
		return domain.Group{}, err
	}
	return e.Group, nil
}

// Check says whether a group export holds together: an id and a name, at
// most the members and plays a group may have, members with names a player
// could have and unique in the group, plays with unique ids whose players
// are members. It fills in the members' name keys.
func Check(e *domain.GroupExport) error {
	switch {
	case e.Group.ID == "" || len(e.Group.ID) > 64:
		return domain.Fail(domain.Invalid, "table.group.import-no-id")
	case e.Group.Name == "":
		return domain.Fail(domain.Invalid, "table.group.import-no-name")
	case len(e.CredentialHash) != 64:
		return domain.Fail(domain.Invalid, "table.group.import-no-hash")
	case len(e.Members) > domain.MaxGroupMembers:
		return domain.Fail(domain.Invalid, "table.group.import-members", "count", len(e.Members), "max", domain.MaxGroupMembers)
	case len(e.Plays) > domain.MaxGroupPlays:
		return domain.Fail(domain.Invalid, "table.group.import-plays", "count", len(e.Plays), "max", domain.MaxGroupPlays)
	case len(e.Games) > domain.MaxGroupGames:
		return domain.Fail(domain.Invalid, "table.group.import-games", "count", len(e.Games), "max", domain.MaxGroupGames)
	}
	ids, keys := map[string]bool{}, map[string]bool{}
	for i := range e.Members {
		m := &e.Members[i]
		if err := names.Check([]string{m.Name}); err != nil || m.ID == "" || ids[m.ID] {
			return domain.Fail(domain.Invalid, "table.group.import-member", "index", i)
		}
		m.NameKey = names.Key(m.Name)
		if keys[m.NameKey] {
			return domain.Fail(domain.Invalid, "table.group.import-member-name", "index", i)
		}
		ids[m.ID], keys[m.NameKey] = true, true
	}
	plays := map[string]bool{}
	for i, p := range e.Plays {
		if p.ID == "" || plays[p.ID] || len(p.Players) == 0 {
			return domain.Fail(domain.Invalid, "table.group.import-play", "index", i)
		}
		plays[p.ID] = true
		for j, pl := range p.Players {
			if !ids[pl.Member] {
				return domain.Fail(domain.Invalid, "table.group.import-play-player", "index", i, "player", j)
			}
		}
	}
	return nil
}
