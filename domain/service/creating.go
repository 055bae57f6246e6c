package service

import (
	"context"
	"errors"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// CreateOnce is Create for a request that may be a retry: with a key (the
// request's Idempotency-Key, at least 22 characters: the client's random
// bits) the game's id and its credentials are derived from the key, so that
// a retry of the same request (body, the request as the client sent it)
// creates nothing and returns the same game, as it stands now, with the
// same credentials; replayed is then true. The store decides which of two
// requests with one key creates the game (its id is taken once), on one
// server or several, and nothing about the key is kept: a retry after a
// restart is recognised by the game's id, and told from another request
// with the key by the host credential, derived from the key and the body's
// hash, which the stored host hash matches only for the same body
// (IdempotencyReused otherwise). Without a key it is Create.
func (s *Games) CreateOnce(ctx context.Context, ruleset string, req domain.CreateRequest, key string, body []byte) (c domain.Created, replayed bool, err error) {
	return s.createOnce(ctx, ruleset, req, key, body, false)
}

// ReplayCreation is CreateOnce for a request that may create nothing (its
// sender's quota of creations is spent): if it is a retry of a creation
// made with key and body it gets that creation's answer (replayed true),
// and a key sent before with another body IdempotencyReused. Otherwise,
// and without a key, nothing is created and it returns replayed false.
func (s *Games) ReplayCreation(ctx context.Context, ruleset string, req domain.CreateRequest, key string, body []byte) (c domain.Created, replayed bool, err error) {
	if key == "" {
		return domain.Created{}, false, nil
	}
	return s.createOnce(ctx, ruleset, req, key, body, true)
}

func (s *Games) createOnce(ctx context.Context, ruleset string, req domain.CreateRequest, key string, body []byte, replayOnly bool) (c domain.Created, replayed bool, err error) {
	rec, g, cat, err := s.prepare(ruleset, req)
	if err != nil {
		return domain.Created{}, false, err
	}
	out := domain.Created{Host: domain.NewSecret()}
	if key != "" {
		rec.ID = domain.NextSecret(key, "created game")[:len(rec.ID)]
		out.Host = domain.NextSecret(key, "host of "+rec.ID+" created from "+requestHash(body, key))
	}
	creds := domain.Credentials{HostHash: domain.HashSecret(out.Host)}
	for i := 0; i < g.Players(); i++ {
		sec := domain.NewSecret()
		if key != "" {
			sec = seatSecret(key, rec.ID, i)
		}
		out.Seat = append(out.Seat, sec)
		creds.SeatHashes = append(creds.SeatHashes, domain.HashSecret(sec))
	}
	if replayOnly {
		c, replayed, err = s.createdBefore(ctx, rec.ID, key, out)
		if domain.ErrorCode(err) == domain.NotFound {
			return domain.Created{}, false, nil
		}
		return c, replayed, err
	}
	err = s.store.CreateGame(ctx, rec, creds, cat)
	if key != "" && gameExists(err) {
		return s.createdBefore(ctx, rec.ID, key, out)
	}
	if err != nil {
		return domain.Created{}, false, err
	}
	if out.Game, err = s.view(rec, g, domain.Viewer{Host: true}); err != nil {
		return domain.Created{}, false, err
	}
	s.cache(rec, g, creds)
	if due := domain.DueMove(g); due != nil {
		s.playDue(ctx, rec.ID, due, rec.Version)
	}
	return out, false, nil
}

// createdBefore answers a creation whose game (id, derived from key) was
// stored before: out, the credentials derived for this request, with the
// game as the host sees it now, if its host credential is out's (the same
// request); IdempotencyReused if not (the key was sent with another body).
func (s *Games) createdBefore(ctx context.Context, id, key string, out domain.Created) (domain.Created, bool, error) {
	a, err := s.Authenticate(ctx, id, out.Host)
	if domain.ErrorCode(err) == domain.Unauthorized || (err == nil && !a.Host) {
		return domain.Created{}, false, domain.Fail(domain.IdempotencyReused, "table.game.create-idempotency-reused", "key", key)
	}
	if err != nil {
		return domain.Created{}, false, err
	}
	if out.Game, err = s.Game(ctx, id, domain.HostViewer); err != nil {
		return domain.Created{}, false, err
	}
	return out, true, nil
}

// seatSecret is the credential of a seat of game id derived from an
// Idempotency-Key, so that a retry with the key gets it again.
func seatSecret(key, id string, seat int) string {
	return domain.NextSecret(key, "seat "+strconv.Itoa(seat)+" of "+id)
}

// gameExists reports whether err is a store's Conflict for a game id taken.
func gameExists(err error) bool {
	var e *domain.Error
	return errors.As(err, &e) && e.Code == domain.Conflict && e.Msg.Key == "table.store.game-exists"
}
