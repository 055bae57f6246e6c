package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/treasury-games/treasury/domain"
)

// Seating: join codes, seats picked on a join page, credentials issued
// again by the host, and the next game with the same players (issue 24).
//
// A seat is free until someone holds it: its credential is used for the
// first time (a player opened the host's link or QR code), it is picked on
// the join page, or the host issues it again. A join code offers the free
// seats only, so a code read aloud cannot take a seat someone plays.

// JoinSeat is one seat as the join page shows it.
type JoinSeat struct {
	Seat  int
	Name  string
	Taken bool
}

// JoinTable is what a join code opens: the game and its seats.
type JoinTable struct {
	GameID, Ruleset, Mode string
	Seats                 []JoinSeat
}

// SeatCredential is a seat's credential handed out after the game was
// created: picked on the join page, issued again, or in the next game.
type SeatCredential struct {
	GameID     string
	Seat       int
	Credential string
}

// joinCodeAttempts bounds the retries when a fresh code is another game's
// (1 in 887 million per stored game with a code).
const joinCodeAttempts = 8

// JoinCode returns the join code of a game running, giving it one if it has
// none. Only the host may ask; a code expires with its game (it ends, or is
// deleted as idle).
func (s *Games) JoinCode(ctx context.Context, id string, a domain.Actor) (string, error) {
	if !a.Host {
		return "", domain.Fail(domain.Forbidden, "table.join.host-only", "game", id)
	}
	g, err := s.Game(ctx, id, domain.Public)
	if err != nil {
		return "", err
	}
	if g.Ended {
		return "", domain.Fail(domain.Conflict, "table.join.ended", "game", id)
	}
	for i := 0; ; i++ {
		code, err := s.store.SetJoinCode(ctx, id, domain.NewJoinCode())
		if domain.ErrorCode(err) == domain.Conflict && i < joinCodeAttempts {
			continue
		}
		return code, err
	}
}

// joinGame returns the game a typed join code opens, NotFound for a code no
// running game holds.
func (s *Games) joinGame(ctx context.Context, typed string) (domain.GameRecord, domain.Game, error) {
	code, ok := domain.NormalizeJoinCode(typed)
	notFound := domain.Fail(domain.NotFound, "table.join.unknown", "code", typed, "length", domain.JoinCodeLength)
	if !ok {
		return domain.GameRecord{}, nil, notFound
	}
	id, err := s.store.GameOfJoinCode(ctx, code)
	if err != nil {
		if domain.ErrorCode(err) == domain.NotFound {
			return domain.GameRecord{}, nil, notFound
		}
		return domain.GameRecord{}, nil, err
	}
	var (
		rec domain.GameRecord
		g   domain.Game
	)
	err = s.committed(ctx, id, func(r domain.GameRecord, gm domain.Game) error {
		rec, g = r, gm
		return nil
	})
	if domain.ErrorCode(err) == domain.NotFound {
		return domain.GameRecord{}, nil, notFound
	}
	if err != nil {
		return domain.GameRecord{}, nil, err
	}
	if rec.Ended {
		return domain.GameRecord{}, nil, domain.Fail(domain.NotFound, "table.join.code-ended", "code", code)
	}
	return rec, g, nil
}

// Join returns the game and seats a join code opens.
func (s *Games) Join(ctx context.Context, code string) (JoinTable, error) {
	rec, g, err := s.joinGame(ctx, code)
	if err != nil {
		return JoinTable{}, err
	}
	t := s.acquire(rec.ID)
	creds, err := s.credentials(ctx, t)
	s.release(t)
	if err != nil {
		return JoinTable{}, err
	}
	out := JoinTable{GameID: rec.ID, Ruleset: rec.Ruleset, Mode: rec.Mode}
	for i, name := range g.Setup().Players {
		out.Seats = append(out.Seats, JoinSeat{Seat: i, Name: name, Taken: creds.IsTaken(i)})
	}
	return out, nil
}

// TakeSeat gives the seat picked on the join page a fresh credential, if
// the seat is free: of two players picking the same seat at once, one gets
// it and the other Conflict. With a key (the request's Idempotency-Key, at
// least 22 characters: the client's random bits) the credential is derived
// from it, so a retry with the same key gets the same credential again.
func (s *Games) TakeSeat(ctx context.Context, code string, seat int, key string) (SeatCredential, error) {
	rec, g, err := s.joinGame(ctx, code)
	if err != nil {
		return SeatCredential{}, err
	}
	players := g.Setup().Players
	if seat < 0 || seat >= len(players) {
		return SeatCredential{}, domain.Fail(domain.Invalid, "table.join.no-seat", "game", rec.ID, "last", len(players)-1, "seat", seat)
	}
	secret := domain.NewSecret()
	if key != "" {
		secret = seatSecret(key, rec.ID, seat)
	}
	err = s.store.SetSeat(ctx, rec.ID, seat, domain.HashSecret(secret), true)
	s.seatsChanged(rec.ID)
	if domain.ErrorCode(err) == domain.Conflict {
		return SeatCredential{}, domain.Fail(domain.Conflict, "table.join.taken", "player", players[seat])
	}
	if err != nil {
		return SeatCredential{}, err
	}
	return SeatCredential{GameID: rec.ID, Seat: seat, Credential: secret}, nil
}

// ReissueSeat gives a seat a fresh credential: the old one is refused from
// now on, and the seat's open event streams end. Only the host may.
func (s *Games) ReissueSeat(ctx context.Context, id string, a domain.Actor, seat int) (SeatCredential, error) {
	if !a.Host {
		return SeatCredential{}, domain.Fail(domain.Forbidden, "table.join.reissue-host-only")
	}
	t := s.acquire(id)
	creds, err := s.credentials(ctx, t)
	s.release(t)
	if err != nil {
		return SeatCredential{}, err
	}
	if seat < 0 || seat >= len(creds.SeatHashes) {
		return SeatCredential{}, domain.Fail(domain.Invalid, "table.join.no-seat", "game", id, "last", len(creds.SeatHashes)-1, "seat", seat)
	}
	secret := domain.NewSecret()
	err = s.store.SetSeat(ctx, id, seat, domain.HashSecret(secret), false)
	s.seatsChanged(id)
	if err != nil {
		return SeatCredential{}, err
	}
	return SeatCredential{GameID: id, Seat: seat, Credential: secret}, nil
}

// seatsChanged forgets the cached credentials of a game (they are read
// again from the store) and wakes the game's event streams, which check
// their credential again.
func (s *Games) seatsChanged(id string) {
	s.cacheMu.Lock()
	t := s.entries[id]
	s.cacheMu.Unlock()
	if t != nil {
		t.forgetCreds()
	}
	s.subMu.Lock()
	if a := s.subs[id]; a != nil {
		if a.changed != nil {
			close(a.changed)
			a.changed = nil
		}
		for l := range a.subs {
			l.SeatsChanged()
		}
	}
	s.subMu.Unlock()
}

// Changed returns a channel closed when a seat of game id is taken or
// issued again, or the game gets a next game. Call it after Subscribe: it
// holds for as long as the subscription (nil without one).
func (s *Games) Changed(id string) <-chan struct{} {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	a := s.subs[id]
	if a == nil {
		return nil
	}
	if a.changed == nil {
		a.changed = make(chan struct{})
	}
	return a.changed
}

// taken marks seat taken on the first use of its credential (hash): from
// then on the join page no longer offers it.
func (s *Games) taken(ctx context.Context, id string, seat int, hash string) error {
	err := s.store.SetSeat(ctx, id, seat, hash, true)
	s.seatsChanged(id)
	if domain.ErrorCode(err) == domain.Conflict {
		// Picked on the join page a moment before: this credential is
		// no longer the seat's.
		return domain.Fail(domain.Unauthorized, "table.join.revoked", "seat", seat, "game", id)
	}
	return err
}

// NextGame is the game after an ended one, as one of its credentials gets
// it: the host the new game's host credential, a seat its own seat's.
type NextGame struct {
	Game       domain.GameView
	Created    bool // this request created it
	Host       bool
	Seat       int // the caller's seat in the next game (a seat's caller)
	Credential string
}

// PlayAgain is the host's "play again" on an ended game: the next game has
// the same ruleset, mode, catalog, players and options, and the next start
// player - the seat after the one that started, through the ruleset's seat
// option (start_player, captain_heart) or, for a ruleset without one, by
// moving every player one seat on (the old seat 1 sits at seat 0). A seat
// asks with its own credential and gets its seat of the next game and a
// credential for it; the host asks again and gets the same game. Every
// credential of the next game is derived from the one it is asked with
// (domain.NextSecret), so a retry gets the same answer and no seat learns
// another's.
func (s *Games) PlayAgain(ctx context.Context, id string, a domain.Actor, secret string) (NextGame, error) {
	var (
		rec domain.GameRecord
		g   domain.Game
	)
	if err := s.committed(ctx, id, func(r domain.GameRecord, gm domain.Game) error {
		rec, g = r, gm
		return nil
	}); err != nil {
		return NextGame{}, err
	}
	if !rec.Ended {
		return NextGame{}, domain.Fail(domain.Conflict, "table.next.not-ended", "game", id)
	}
	next, err := s.store.NextGame(ctx, id)
	if err != nil {
		return NextGame{}, err
	}
	setup := g.Setup()
	rotate := !s.hasSeatOption(rec.Ruleset)
	created := false
	if next == "" {
		if !a.Host {
			return NextGame{}, domain.Fail(domain.NotFound, "table.next.not-started", "game", id)
		}
		req, err := s.nextRequest(rec, setup, rotate)
		if err != nil {
			return NextGame{}, err
		}
		nrec, ng, cat, err := s.prepare(rec.Ruleset, req)
		if err != nil {
			return NextGame{}, err
		}
		// The seats' credentials are made when each seat asks for its own
		// (from its credential of this game); until then nobody holds one.
		creds := domain.Credentials{HostHash: domain.HashSecret(domain.NextSecret(secret, nrec.ID))}
		for i := 0; i < ng.Players(); i++ {
			creds.SeatHashes = append(creds.SeatHashes, domain.HashSecret(domain.NewSecret()))
		}
		if next, err = s.store.CreateNextGame(ctx, id, nrec, creds, cat); err != nil {
			return NextGame{}, err
		}
		if next == nrec.ID {
			created = true
			s.cache(nrec, ng, creds)
			s.seatsChanged(id)
		}
	}
	out := NextGame{Created: created, Host: a.Host, Seat: -1}
	if a.Host {
		out.Credential = domain.NextSecret(secret, next)
		if out.Game, err = s.Game(ctx, next, domain.HostViewer); err != nil {
			return NextGame{}, err
		}
		// Asked again with the host credential it was made with: the same
		// host credential (a host credential is never issued again).
		if _, err := s.Authenticate(ctx, next, out.Credential); err != nil {
			return NextGame{}, err
		}
		return out, nil
	}
	out.Seat = a.Seat
	if rotate {
		n := len(setup.Players)
		out.Seat = (a.Seat - 1 + n) % n
	}
	out.Credential = domain.NextSecret(secret, next)
	err = s.store.SetSeat(ctx, next, out.Seat, domain.HashSecret(out.Credential), true)
	s.seatsChanged(next)
	if domain.ErrorCode(err) == domain.Conflict {
		return NextGame{}, domain.Fail(domain.Conflict, "table.next.taken")
	}
	if err != nil {
		return NextGame{}, err
	}
	if out.Game, err = s.Game(ctx, next, domain.Viewer{Seat: out.Seat}); err != nil {
		return NextGame{}, err
	}
	return out, nil
}

// NextGameOf returns the id of the game after game id, "" when none.
func (s *Games) NextGameOf(ctx context.Context, id string) (string, error) {
	return s.store.NextGame(ctx, id)
}

// hasSeatOption reports whether a ruleset names its start player with a
// seat option.
func (s *Games) hasSeatOption(ruleset string) bool {
	r, ok := s.rulesets[ruleset]
	if !ok {
		return false
	}
	return slices.ContainsFunc(r.Info().Options, func(o domain.Option) bool { return o.Seat })
}

// nextRequest is what the next game of rec is created from.
func (s *Games) nextRequest(rec domain.GameRecord, setup domain.CreateRequest, rotate bool) (domain.CreateRequest, error) {
	n := len(setup.Players)
	req := domain.CreateRequest{Mode: rec.Mode, Catalog: rec.CatalogName, Players: slices.Clone(setup.Players)}
	if rotate {
		req.Players = append(req.Players[1:], req.Players[0])
	}
	opts := map[string]any{}
	if len(setup.Options) > 0 {
		if err := json.Unmarshal(setup.Options, &opts); err != nil {
			return req, fmt.Errorf("service: options of game %s: %w", rec.ID, err)
		}
	}
	r := s.rulesets[rec.Ruleset]
	for _, o := range r.Info().Options {
		if !o.Seat {
			continue
		}
		if v, ok := opts[o.Name].(float64); ok {
			opts[o.Name] = (int(v) + 1) % n
		}
	}
	b, err := json.Marshal(opts)
	if err != nil {
		return req, err
	}
	req.Options = b
	return req, nil
}
