package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/grouprows"
)

var _ domain.GroupStore = (*Store)(nil)

// groupWriter inserts a group's rows in tx, inside one transaction (grouprows.Writer).
type groupWriter struct {
	ctx context.Context
	tx  pgx.Tx
}

// CreateGroup stores a new group with the hash of its credential.
func (s *Store) CreateGroup(ctx context.Context, g domain.Group, credentialHash string) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.write(ctx, func(tx pgx.Tx) error { return groupWriter{ctx, tx}.Group(g, credentialHash) })
}

// Group inserts a new group.
func (w groupWriter) Group(g domain.Group, credentialHash string) error {
	ctx, tx := w.ctx, w.tx
	_, err := tx.Exec(ctx, `INSERT INTO groups (id, name, created_at, credential_hash, revision) VALUES ($1, $2, $3, $4, $5)`,
		g.ID, g.Name, nanos(g.CreatedAt), credentialHash, g.Revision)
	if isUniqueViolation(err, "groups_pkey") {
		return domain.Fail(domain.Conflict, "table.store.group-exists", "group", g.ID)
	}
	if err != nil {
		return unavailable(fmt.Errorf("postgres: create group: %w", err))
	}
	return nil
}

// Group returns a group with the hash of its credential.
func (s *Store) Group(ctx context.Context, id string) (domain.Group, string, error) {
	if err := s.enter(); err != nil {
		return domain.Group{}, "", err
	}
	defer s.leave()
	var (
		g       domain.Group
		created int64
		hash    string
	)
	err := s.pool.QueryRow(ctx, `SELECT id, name, created_at, credential_hash, revision FROM groups WHERE id = $1`, id).
		Scan(&g.ID, &g.Name, &created, &hash, &g.Revision)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Group{}, "", domain.GroupNotFound(id)
	}
	if err != nil {
		return domain.Group{}, "", unavailable(fmt.Errorf("postgres: read group %q: %w", id, err))
	}
	g.CreatedAt = fromNanos(created)
	return g, hash, nil
}

// bump counts a change of a group, NotFound when there is no such group.
func bump(ctx context.Context, tx pgx.Tx, groupID string) error {
	tag, err := tx.Exec(ctx, `UPDATE groups SET revision = revision + 1 WHERE id = $1`, groupID)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: group %q: %w", groupID, err))
	}
	if tag.RowsAffected() == 0 {
		return domain.GroupNotFound(groupID)
	}
	return nil
}

// AddMember adds a member to a group.
func (s *Store) AddMember(ctx context.Context, groupID string, m domain.Member) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.write(ctx, func(tx pgx.Tx) error {
		if err := bump(ctx, tx, groupID); err != nil {
			return err
		}
		return groupWriter{ctx, tx}.Member(groupID, m)
	})
}

// Member inserts a member of a group.
func (w groupWriter) Member(groupID string, m domain.Member) error {
	ctx, tx := w.ctx, w.tx
	_, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, id, name, name_key, joined_at) VALUES ($1, $2, $3, $4, $5)`,
		groupID, m.ID, m.Name, m.NameKey, nanos(m.JoinedAt))
	if isUniqueViolation(err, "group_members_name") || isUniqueViolation(err, "group_members_pkey") {
		return domain.Fail(domain.Conflict, "table.store.member-exists", "name", m.Name, "member", m.ID)
	}
	if err != nil {
		return unavailable(fmt.Errorf("postgres: add member: %w", err))
	}
	return nil
}

// Members returns the members of a group in the order they joined.
func (s *Store) Members(ctx context.Context, groupID string) ([]domain.Member, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	rows, _ := s.pool.Query(ctx, `SELECT id, name, name_key, joined_at FROM group_members WHERE group_id = $1 ORDER BY joined_at, id`, groupID)
	ms := []domain.Member{}
	var (
		m      domain.Member
		joined int64
	)
	_, err := pgx.ForEachRow(rows, []any{&m.ID, &m.Name, &m.NameKey, &joined}, func() error {
		m.JoinedAt = fromNanos(joined)
		ms = append(ms, m)
		return nil
	})
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: members: %w", err))
	}
	return ms, nil
}

// DeleteMember deletes a member and every play they are in.
func (s *Store) DeleteMember(ctx context.Context, groupID, memberID string) (int, error) {
	if err := s.enter(); err != nil {
		return 0, err
	}
	defer s.leave()
	var deleted int
	err := s.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM group_members WHERE group_id = $1 AND id = $2`, groupID, memberID)
		if err != nil {
			return unavailable(fmt.Errorf("postgres: delete member: %w", err))
		}
		if tag.RowsAffected() == 0 {
			return grouprows.NoMember(groupID, memberID)
		}
		tag, err = tx.Exec(ctx, `DELETE FROM plays WHERE group_id = $1 AND id IN
			(SELECT play_id FROM play_members WHERE group_id = $1 AND member_id = $2)`, groupID, memberID)
		if err != nil {
			return unavailable(fmt.Errorf("postgres: delete member's plays: %w", err))
		}
		deleted = int(tag.RowsAffected())
		if _, err := tx.Exec(ctx, `DELETE FROM play_members WHERE group_id = $1 AND play_id IN
			(SELECT play_id FROM play_members WHERE group_id = $1 AND member_id = $2)`, groupID, memberID); err != nil {
			return unavailable(fmt.Errorf("postgres: delete member's plays: %w", err))
		}
		return bump(ctx, tx, groupID)
	})
	return deleted, err
}

// SavePlay keeps a play and forgets its game's link.
func (s *Store) SavePlay(ctx context.Context, groupID string, p domain.Play) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	body, err := grouprows.Body(p)
	if err != nil {
		return fmt.Errorf("postgres: save play: %w", err)
	}
	return s.write(ctx, func(tx pgx.Tx) error {
		if err := bump(ctx, tx, groupID); err != nil {
			return err
		}
		if err := (groupWriter{ctx, tx}).Play(groupID, p, body); err != nil {
			return err
		}
		if p.GameID != "" {
			if _, err := tx.Exec(ctx, `DELETE FROM group_games WHERE game_id = $1`, p.GameID); err != nil {
				return unavailable(fmt.Errorf("postgres: save play: %w", err))
			}
		}
		return nil
	})
}

// Play inserts a play with its encoded body.
func (w groupWriter) Play(groupID string, p domain.Play, body []byte) error {
	ctx, tx := w.ctx, w.tx
	at := nanos(p.PlayedAt)
	_, err := tx.Exec(ctx, `INSERT INTO plays (group_id, id, played_at, ruleset, body) VALUES ($1, $2, $3, $4, $5)`,
		groupID, p.ID, at, p.Ruleset, body)
	if isUniqueViolation(err, "plays_pkey") {
		return domain.Fail(domain.Conflict, "table.store.play-exists", "play", p.ID)
	}
	if err != nil {
		return unavailable(fmt.Errorf("postgres: save play: %w", err))
	}
	for _, pl := range p.Players {
		if _, err := tx.Exec(ctx, `INSERT INTO play_members (group_id, member_id, played_at, play_id) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING`, groupID, pl.Member, at, p.ID); err != nil {
			return unavailable(fmt.Errorf("postgres: save play: %w", err))
		}
	}
	return nil
}

// Plays returns a page of a group's plays, latest first.
func (s *Store) Plays(ctx context.Context, groupID string, q domain.PlayQuery) ([]domain.Play, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	before := int64(math.MaxInt64)
	if !q.Before.PlayedAt.IsZero() {
		before = nanos(q.Before.PlayedAt)
	}
	lim := grouprows.Limit(q)
	var rows pgx.Rows
	if q.Member != "" {
		rows, _ = s.pool.Query(ctx, `SELECT p.body FROM play_members m JOIN plays p ON p.group_id = m.group_id AND p.id = m.play_id
			WHERE m.group_id = $1 AND m.member_id = $2 AND (m.played_at < $3 OR (m.played_at = $3 AND m.play_id < $4))
			AND ($5 = '' OR p.ruleset = $5)
			ORDER BY m.played_at DESC, m.play_id DESC LIMIT $6`,
			groupID, q.Member, before, q.Before.ID, q.Ruleset, lim)
	} else {
		rows, _ = s.pool.Query(ctx, `SELECT body FROM plays
			WHERE group_id = $1 AND (played_at < $2 OR (played_at = $2 AND id < $3)) AND ($4 = '' OR ruleset = $4)
			ORDER BY played_at DESC, id DESC LIMIT $5`,
			groupID, before, q.Before.ID, q.Ruleset, lim)
	}
	return scanPlays(rows)
}

func scanPlays(rows pgx.Rows) ([]domain.Play, error) {
	ps := []domain.Play{}
	var body []byte
	_, err := pgx.ForEachRow(rows, []any{&body}, func() error {
		p, err := grouprows.Play(body)
		if err != nil {
			return err
		}
		ps = append(ps, p)
		return nil
	})
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: plays: %w", err))
	}
	return ps, nil
}

// AllPlays returns every play of a group, earliest first.
func (s *Store) AllPlays(ctx context.Context, groupID string) ([]domain.Play, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	rows, _ := s.pool.Query(ctx, `SELECT body FROM plays WHERE group_id = $1 ORDER BY played_at, id`, groupID)
	return scanPlays(rows)
}

// CountPlays returns how many plays a group keeps.
func (s *Store) CountPlays(ctx context.Context, groupID string) (int, error) {
	if err := s.enter(); err != nil {
		return 0, err
	}
	defer s.leave()
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM plays WHERE group_id = $1`, groupID).Scan(&n); err != nil {
		return 0, unavailable(fmt.Errorf("postgres: count plays: %w", err))
	}
	return n, nil
}

// DeletePlay deletes one play.
func (s *Store) DeletePlay(ctx context.Context, groupID, playID string) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM plays WHERE group_id = $1 AND id = $2`, groupID, playID)
		if err != nil {
			return unavailable(fmt.Errorf("postgres: delete play: %w", err))
		}
		if tag.RowsAffected() == 0 {
			return grouprows.NoPlay(groupID, playID)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM play_members WHERE group_id = $1 AND play_id = $2`, groupID, playID); err != nil {
			return unavailable(fmt.Errorf("postgres: delete play: %w", err))
		}
		return bump(ctx, tx, groupID)
	})
}

// LinkGame records a game created for a group.
func (s *Store) LinkGame(ctx context.Context, g domain.GroupGame) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	members := grouprows.Members(g)
	return s.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO group_games (game_id, group_id, members) VALUES ($1, $2, $3)`, g.GameID, g.GroupID, string(members))
		if isUniqueViolation(err, "group_games_pkey") {
			return domain.Fail(domain.Conflict, "table.store.game-in-group", "game", g.GameID)
		}
		if err != nil {
			return unavailable(fmt.Errorf("postgres: link game: %w", err))
		}
		return nil
	})
}

// GroupGames returns the games of a group whose play is not kept yet.
func (s *Store) GroupGames(ctx context.Context, groupID string) ([]domain.GroupGame, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	rows, _ := s.pool.Query(ctx, `SELECT game_id, members FROM group_games WHERE group_id = $1 ORDER BY game_id`, groupID)
	gs := []domain.GroupGame{}
	var id, members string
	_, err := pgx.ForEachRow(rows, []any{&id, &members}, func() error {
		g, err := grouprows.Game(groupID, id, []byte(members))
		if err != nil {
			return err
		}
		gs = append(gs, g)
		return nil
	})
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: group games: %w", err))
	}
	return gs, nil
}

// UnlinkGame forgets a game's link.
func (s *Store) UnlinkGame(ctx context.Context, gameID string) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	_, err := s.pool.Exec(ctx, `DELETE FROM group_games WHERE game_id = $1`, gameID)
	return unavailable(err)
}

// LinkedGroups returns ids of groups with linked games.
func (s *Store) LinkedGroups(ctx context.Context, after string, limit int) ([]string, error) {
	return s.ids(ctx, "groups", `SELECT DISTINCT group_id FROM group_games WHERE group_id > $1 ORDER BY group_id LIMIT $2`, after, limit)
}

// GroupIDs returns ids of groups greater than after.
func (s *Store) GroupIDs(ctx context.Context, after string, limit int) ([]string, error) {
	return s.ids(ctx, "groups", `SELECT id FROM groups WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
}

// ids returns the ids query lists (after and a limit as its parameters;
// limit <= 0: all of them), never nil; what names them in errors.
func (s *Store) ids(ctx context.Context, what, query, after string, limit int) ([]string, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	var lim *int64
	if limit > 0 {
		l := int64(limit)
		lim = &l
	}
	rows, _ := s.pool.Query(ctx, query, after, lim)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list %s: %w", what, err))
	}
	if ids == nil {
		ids = []string{}
	}
	return ids, nil
}

// ImportGroup stores a whole group in one transaction.
func (s *Store) ImportGroup(ctx context.Context, e domain.GroupExport) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	bodies, err := grouprows.Bodies("postgres", e)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx pgx.Tx) error { return grouprows.Import(groupWriter{ctx, tx}, e, bodies) })
}

// Game links a game to the group unless it is linked already.
func (w groupWriter) Game(groupID string, g domain.GroupGame, members []byte) error {
	if _, err := w.tx.Exec(w.ctx, `INSERT INTO group_games (game_id, group_id, members) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		g.GameID, groupID, string(members)); err != nil {
		return unavailable(fmt.Errorf("postgres: import group: %w", err))
	}
	return nil
}

// Play returns one play.
func (s *Store) Play(ctx context.Context, groupID, playID string) (domain.Play, error) {
	if err := s.enter(); err != nil {
		return domain.Play{}, err
	}
	defer s.leave()
	rows, _ := s.pool.Query(ctx, `SELECT body FROM plays WHERE group_id = $1 AND id = $2`, groupID, playID)
	ps, err := scanPlays(rows)
	if err != nil {
		return domain.Play{}, err
	}
	return grouprows.One(ps, groupID, playID)
}

// SaveGroupStats keeps a group's statistics as computed at revision.
func (s *Store) SaveGroupStats(ctx context.Context, groupID string, revision int64, stats []byte) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	_, err := s.pool.Exec(ctx, `UPDATE groups SET stats = $1, stats_revision = $2 WHERE id = $3 AND revision = $2`, stats, revision, groupID)
	return unavailable(err)
}

// GroupStats returns the statistics last kept and their revision.
func (s *Store) GroupStats(ctx context.Context, groupID string) (int64, []byte, error) {
	if err := s.enter(); err != nil {
		return -1, nil, err
	}
	defer s.leave()
	var (
		rev   int64
		stats []byte
	)
	err := s.pool.QueryRow(ctx, `SELECT stats_revision, stats FROM groups WHERE id = $1`, groupID).Scan(&rev, &stats)
	if errors.Is(err, pgx.ErrNoRows) {
		return -1, nil, domain.GroupNotFound(groupID)
	}
	if err != nil {
		return -1, nil, unavailable(fmt.Errorf("postgres: group stats: %w", err))
	}
	rev, stats = grouprows.Stats(rev, stats)
	return rev, stats, nil
}
