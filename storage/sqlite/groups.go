package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/grouprows"
)

var _ domain.GroupStore = (*Store)(nil)

// groupWriter inserts a group's rows in tx, inside one transaction (grouprows.Writer).
type groupWriter struct {
	ctx context.Context
	tx  *sql.Conn
}

// CreateGroup stores a new group with the hash of its credential.
func (s *Store) CreateGroup(ctx context.Context, g domain.Group, credentialHash string) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		return groupWriter{ctx, tx}.Group(g, credentialHash)
	})
}

// Group inserts a new group.
func (w groupWriter) Group(g domain.Group, credentialHash string) error {
	ctx, tx := w.ctx, w.tx
	_, err := tx.ExecContext(ctx, `INSERT INTO groups (id, name, created_at, credential_hash, revision) VALUES (?, ?, ?, ?, ?)`,
		g.ID, g.Name, formatTime(g.CreatedAt), credentialHash, g.Revision)
	if isUniqueViolation(err) {
		return domain.Fail(domain.Conflict, "table.store.group-exists", "group", g.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create group: %w", err)
	}
	return nil
}

// Group returns a group with the hash of its credential.
func (s *Store) Group(ctx context.Context, id string) (domain.Group, string, error) {
	if err := s.checkOpen(); err != nil {
		return domain.Group{}, "", err
	}
	var (
		g       domain.Group
		created string
		hash    string
	)
	err := s.reader.QueryRowContext(ctx, `SELECT id, name, created_at, credential_hash, revision FROM groups WHERE id = ?`, id).
		Scan(&g.ID, &g.Name, &created, &hash, &g.Revision)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Group{}, "", domain.GroupNotFound(id)
	}
	if err != nil {
		return domain.Group{}, "", fmt.Errorf("sqlite: read group %q: %w", id, err)
	}
	if g.CreatedAt, err = parseTime(created); err != nil {
		return domain.Group{}, "", fmt.Errorf("sqlite: read group %q: %w", id, err)
	}
	return g, hash, nil
}

// bump counts a change of a group, NotFound when there is no such group.
func bump(ctx context.Context, tx *sql.Conn, groupID string) error {
	res, err := tx.ExecContext(ctx, `UPDATE groups SET revision = revision + 1 WHERE id = ?`, groupID)
	if err != nil {
		return fmt.Errorf("sqlite: group %q: %w", groupID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.GroupNotFound(groupID)
	}
	return nil
}

// AddMember adds a member to a group.
func (s *Store) AddMember(ctx context.Context, groupID string, m domain.Member) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		if err := bump(ctx, tx, groupID); err != nil {
			return err
		}
		return groupWriter{ctx, tx}.Member(groupID, m)
	})
}

// Member inserts a member of a group.
func (w groupWriter) Member(groupID string, m domain.Member) error {
	ctx, tx := w.ctx, w.tx
	_, err := tx.ExecContext(ctx, `INSERT INTO group_members (group_id, id, name, name_key, joined_at) VALUES (?, ?, ?, ?, ?)`,
		groupID, m.ID, m.Name, m.NameKey, formatTime(m.JoinedAt))
	if isUniqueViolation(err) {
		return domain.Fail(domain.Conflict, "table.store.member-exists", "name", m.Name, "member", m.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: add member: %w", err)
	}
	return nil
}

// Members returns the members of a group in the order they joined.
func (s *Store) Members(ctx context.Context, groupID string) ([]domain.Member, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT id, name, name_key, joined_at FROM group_members WHERE group_id = ? ORDER BY joined_at, id`, groupID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: members: %w", err)
	}
	defer rows.Close()
	ms := []domain.Member{}
	for rows.Next() {
		var (
			m      domain.Member
			joined string
		)
		if err := rows.Scan(&m.ID, &m.Name, &m.NameKey, &joined); err != nil {
			return nil, fmt.Errorf("sqlite: members: %w", err)
		}
		if m.JoinedAt, err = parseTime(joined); err != nil {
			return nil, fmt.Errorf("sqlite: members: %w", err)
		}
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// DeleteMember deletes a member and every play they are in.
func (s *Store) DeleteMember(ctx context.Context, groupID, memberID string) (int, error) {
	if err := s.checkOpen(); err != nil {
		return 0, err
	}
	var deleted int
	err := s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		deleted = 0
		res, err := tx.ExecContext(ctx, `DELETE FROM group_members WHERE group_id = ? AND id = ?`, groupID, memberID)
		if err != nil {
			return fmt.Errorf("sqlite: delete member: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return grouprows.NoMember(groupID, memberID)
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM plays WHERE group_id = ? AND id IN
			(SELECT play_id FROM play_members WHERE group_id = ? AND member_id = ?)`, groupID, groupID, memberID)
		if err != nil {
			return fmt.Errorf("sqlite: delete member's plays: %w", err)
		}
		n, _ := res.RowsAffected()
		deleted = int(n)
		if _, err := tx.ExecContext(ctx, `DELETE FROM play_members WHERE group_id = ? AND play_id IN
			(SELECT play_id FROM play_members WHERE group_id = ? AND member_id = ?)`, groupID, groupID, memberID); err != nil {
			return fmt.Errorf("sqlite: delete member's plays: %w", err)
		}
		return bump(ctx, tx, groupID)
	})
	return deleted, err
}

// SavePlay keeps a play and forgets its game's link.
func (s *Store) SavePlay(ctx context.Context, groupID string, p domain.Play) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	body, err := grouprows.Body(p)
	if err != nil {
		return fmt.Errorf("sqlite: save play: %w", err)
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		if err := bump(ctx, tx, groupID); err != nil {
			return err
		}
		if err := (groupWriter{ctx, tx}).Play(groupID, p, body); err != nil {
			return err
		}
		if p.GameID != "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM group_games WHERE game_id = ?`, p.GameID); err != nil {
				return fmt.Errorf("sqlite: save play: %w", err)
			}
		}
		return nil
	})
}

// Play inserts a play with its encoded body.
func (w groupWriter) Play(groupID string, p domain.Play, body []byte) error {
	ctx, tx := w.ctx, w.tx
	at := formatTime(p.PlayedAt)
	_, err := tx.ExecContext(ctx, `INSERT INTO plays (group_id, id, played_at, ruleset, body) VALUES (?, ?, ?, ?, ?)`,
		groupID, p.ID, at, p.Ruleset, body)
	if isUniqueViolation(err) {
		return domain.Fail(domain.Conflict, "table.store.play-exists", "play", p.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: save play: %w", err)
	}
	for _, pl := range p.Players {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO play_members (group_id, member_id, played_at, play_id) VALUES (?, ?, ?, ?)`,
			groupID, pl.Member, at, p.ID); err != nil {
			return fmt.Errorf("sqlite: save play: %w", err)
		}
	}
	return nil
}

// Plays returns a page of a group's plays, latest first.
func (s *Store) Plays(ctx context.Context, groupID string, q domain.PlayQuery) ([]domain.Play, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	before := "~" // after every time
	if !q.Before.PlayedAt.IsZero() {
		before = formatTime(q.Before.PlayedAt)
	}
	lim := grouprows.Limit(q)
	// The ruleset is filtered after the page is read; a page asked for one
	// ruleset may then hold fewer plays, never more.
	var rows *sql.Rows
	var err error
	if q.Member != "" {
		rows, err = s.reader.QueryContext(ctx, `SELECT p.body FROM play_members m JOIN plays p ON p.group_id = m.group_id AND p.id = m.play_id
			WHERE m.group_id = ? AND m.member_id = ? AND (m.played_at < ? OR (m.played_at = ? AND m.play_id < ?))
			AND (? = '' OR p.ruleset = ?)
			ORDER BY m.played_at DESC, m.play_id DESC LIMIT ?`,
			groupID, q.Member, before, before, q.Before.ID, q.Ruleset, q.Ruleset, lim)
	} else {
		rows, err = s.reader.QueryContext(ctx, `SELECT body FROM plays
			WHERE group_id = ? AND (played_at < ? OR (played_at = ? AND id < ?)) AND (? = '' OR ruleset = ?)
			ORDER BY played_at DESC, id DESC LIMIT ?`,
			groupID, before, before, q.Before.ID, q.Ruleset, q.Ruleset, lim)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: plays: %w", err)
	}
	return scanPlays(rows)
}

func scanPlays(rows *sql.Rows) ([]domain.Play, error) {
	defer rows.Close()
	ps := []domain.Play{}
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return nil, fmt.Errorf("sqlite: plays: %w", err)
		}
		p, err := grouprows.Play(body)
		if err != nil {
			return nil, fmt.Errorf("sqlite: plays: %w", err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: plays: %w", err)
	}
	return ps, nil
}

// AllPlays returns every play of a group, earliest first.
func (s *Store) AllPlays(ctx context.Context, groupID string) ([]domain.Play, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT body FROM plays WHERE group_id = ? ORDER BY played_at, id`, groupID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: plays: %w", err)
	}
	return scanPlays(rows)
}

// CountPlays returns how many plays a group keeps.
func (s *Store) CountPlays(ctx context.Context, groupID string) (int, error) {
	if err := s.checkOpen(); err != nil {
		return 0, err
	}
	var n int
	if err := s.reader.QueryRowContext(ctx, `SELECT COUNT(*) FROM plays WHERE group_id = ?`, groupID).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count plays: %w", err)
	}
	return n, nil
}

// DeletePlay deletes one play.
func (s *Store) DeletePlay(ctx context.Context, groupID, playID string) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM plays WHERE group_id = ? AND id = ?`, groupID, playID)
		if err != nil {
			return fmt.Errorf("sqlite: delete play: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return grouprows.NoPlay(groupID, playID)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM play_members WHERE group_id = ? AND play_id = ?`, groupID, playID); err != nil {
			return fmt.Errorf("sqlite: delete play: %w", err)
		}
		return bump(ctx, tx, groupID)
	})
}

// LinkGame records a game created for a group.
func (s *Store) LinkGame(ctx context.Context, g domain.GroupGame) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	members := grouprows.Members(g)
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO group_games (game_id, group_id, members) VALUES (?, ?, ?)`, g.GameID, g.GroupID, string(members))
		if isUniqueViolation(err) {
			return domain.Fail(domain.Conflict, "table.store.game-in-group", "game", g.GameID)
		}
		if err != nil {
			return fmt.Errorf("sqlite: link game: %w", err)
		}
		return nil
	})
}

// GroupGames returns the games of a group whose play is not kept yet.
func (s *Store) GroupGames(ctx context.Context, groupID string) ([]domain.GroupGame, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT game_id, members FROM group_games WHERE group_id = ? ORDER BY game_id`, groupID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: group games: %w", err)
	}
	defer rows.Close()
	gs := []domain.GroupGame{}
	for rows.Next() {
		var id, members string
		if err := rows.Scan(&id, &members); err != nil {
			return nil, fmt.Errorf("sqlite: group games: %w", err)
		}
		g, err := grouprows.Game(groupID, id, []byte(members))
		if err != nil {
			return nil, fmt.Errorf("sqlite: group games: %w", err)
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}

// UnlinkGame forgets a game's link.
func (s *Store) UnlinkGame(ctx context.Context, gameID string) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM group_games WHERE game_id = ?`, gameID)
		return err
	})
}

// LinkedGroups returns ids of groups with linked games.
func (s *Store) LinkedGroups(ctx context.Context, after string, limit int) ([]string, error) {
	return s.ids(ctx, "groups", `SELECT DISTINCT group_id FROM group_games WHERE group_id > ? ORDER BY group_id LIMIT ?`, after, limit)
}

// GroupIDs returns ids of groups greater than after.
func (s *Store) GroupIDs(ctx context.Context, after string, limit int) ([]string, error) {
	return s.ids(ctx, "groups", `SELECT id FROM groups WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
}

// ids returns the ids query lists (after and a limit as its parameters;
// limit <= 0: all of them), never nil; what names them in errors.
func (s *Store) ids(ctx context.Context, what, query, after string, limit int) ([]string, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	lim := int64(limit)
	if limit <= 0 {
		lim = -1
	}
	rows, err := s.reader.QueryContext(ctx, query, after, lim)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list %s: %w", what, err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: list %s: %w", what, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list %s: %w", what, err)
	}
	return ids, nil
}

// ImportGroup stores a whole group in one transaction.
func (s *Store) ImportGroup(ctx context.Context, e domain.GroupExport) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	bodies, err := grouprows.Bodies("sqlite", e)
	if err != nil {
		return err
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		return grouprows.Import(groupWriter{ctx, tx}, e, bodies)
	})
}

// Game links a game to the group unless it is linked already.
func (w groupWriter) Game(groupID string, g domain.GroupGame, members []byte) error {
	if _, err := w.tx.ExecContext(w.ctx, `INSERT OR IGNORE INTO group_games (game_id, group_id, members) VALUES (?, ?, ?)`,
		g.GameID, groupID, string(members)); err != nil {
		return fmt.Errorf("sqlite: import group: %w", err)
	}
	return nil
}

// Play returns one play.
func (s *Store) Play(ctx context.Context, groupID, playID string) (domain.Play, error) {
	if err := s.checkOpen(); err != nil {
		return domain.Play{}, err
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT body FROM plays WHERE group_id = ? AND id = ?`, groupID, playID)
	if err != nil {
		return domain.Play{}, fmt.Errorf("sqlite: play: %w", err)
	}
	ps, err := scanPlays(rows)
	if err != nil {
		return domain.Play{}, err
	}
	return grouprows.One(ps, groupID, playID)
}

// SaveGroupStats keeps a group's statistics as computed at revision.
func (s *Store) SaveGroupStats(ctx context.Context, groupID string, revision int64, stats []byte) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, `UPDATE groups SET stats = ?, stats_revision = ? WHERE id = ? AND revision = ?`, stats, revision, groupID, revision)
		return err
	})
}

// GroupStats returns the statistics last kept and their revision.
func (s *Store) GroupStats(ctx context.Context, groupID string) (int64, []byte, error) {
	if err := s.checkOpen(); err != nil {
		return -1, nil, err
	}
	var (
		rev   int64
		stats []byte
	)
	err := s.reader.QueryRowContext(ctx, `SELECT stats_revision, stats FROM groups WHERE id = ?`, groupID).Scan(&rev, &stats)
	if errors.Is(err, sql.ErrNoRows) {
		return -1, nil, domain.GroupNotFound(groupID)
	}
	if err != nil {
		return -1, nil, fmt.Errorf("sqlite: group stats: %w", err)
	}
	rev, stats = grouprows.Stats(rev, stats)
	return rev, stats, nil
}
