package rulesettest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/treasury-games/treasury/domain"
)

// Take-backs (issue 23): at positions picked at random, the suite asks the
// take-back policy (domain.TakeBackChoices with the ruleset's
// TakeBackPolicy) what each actor may take back, and checks for each choice
// that
//
//   - the log with the take-back replays (domain.ReplayLog, as the record
//     verifier does) to the state the log without the moves taken back
//     replays to;
//   - nothing secret is disclosed: no viewer reads a secret of its own in
//     the game after it, and when the latest moves were taken back, every
//     viewer sees exactly what it saw before them;
//
// and that a take-back the policy does not offer is refused with a take-back
// rule and a reason that shows its reader nothing secret.

// logEntry is logged move seq as the policy reads it: g is the game after it.
func logEntry(seq int, actor domain.Actor, move []byte, g domain.Game, events []domain.Event) domain.LogEntry {
	e := domain.LogEntry{Seq: int64(seq), Actor: actor, Move: move, Phase: g.Phase()}
	var m struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(move, &m)
	e.Type = m.Type
	e.TurnNumber = domain.StatusOf(g).TurnNumber
	for _, ev := range events {
		e.Events = append(e.Events, ev.Type)
		e.Disclosed = e.Disclosed || domain.Discloses(ev)
	}
	if len(e.Events) == 0 || e.Events[len(e.Events)-1] != "status" {
		e.Events = append(e.Events, "status") // as the service adds it
	}
	return e
}

func (x *game) takeBackLog() *domain.TakeBackLog {
	l := &domain.TakeBackLog{Mode: x.req.Mode, Ended: x.g.Ended(), Entries: x.entries, Complete: true}
	l.TurnNumber = domain.StatusOf(x.g).TurnNumber
	return l
}

func (x *game) checkTakeBacks() {
	policy := domain.TakeBackPolicyOf(x.h.Ruleset)
	l := x.takeBackLog()
	actors := []domain.Actor{{Host: true}}
	for s := range x.g.Players() {
		actors = append(actors, domain.Actor{Seat: s})
	}
	for _, a := range actors {
		choices := domain.TakeBackChoices(policy, l, a)
		if len(choices) > 2 {
			x.r.Shuffle(len(choices), func(i, j int) { choices[i], choices[j] = choices[j], choices[i] })
			choices = choices[:2]
		}
		for _, c := range choices {
			x.checkTakeBack(a, c)
		}
		// A take-back the policy does not offer this actor is refused.
		var offered []int64
		for _, c := range domain.TakeBackChoices(policy, l, a) {
			offered = append(offered, c.Move.Version)
		}
		for _, v := range []int64{1, int64(len(x.log)), int64(len(x.log)) + 1} {
			if v < 1 || slices.Contains(offered, v) {
				continue
			}
			_, err := domain.ChooseTakeBack(policy, l, a, domain.TakeBack{Type: domain.MoveTakeBack, Version: v}, int64(len(x.log)))
			if domain.ErrorCode(err) != domain.IllegalMove || !strings.HasPrefix(domain.ErrorRule(err), "take-back-") || domain.ErrorReason(err) == "" {
				x.t.Fatalf("%s, after %d moves: a take-back of move %d by %s, which the policy does not offer, gave %v", x.name, len(x.log), v, viewerName(viewerOf(a)), err)
			}
			v := viewerOf(a)
			x.leak(v, x.secrets(v), "the reason for refusing a take-back", []byte(domain.ErrorReason(err)))
		}
	}
}

// checkTakeBack checks choice c of actor a at the current position.
func (x *game) checkTakeBack(a domain.Actor, c domain.TakeBackChoice) {
	what := fmt.Sprintf("%s, after %d moves: %q by %s", x.name, len(x.log), c.Label(a, x.req.Players), viewerName(viewerOf(a)))
	tb := c.Move
	tb.Versions = c.Versions
	logged := domain.MustJSON(tb)
	withTB := append(slices.Clone(x.log), domain.ReplayMove{Actor: a, Move: logged})
	setup := x.g.Setup()
	g, bad, err := domain.ReplayLog(x.h.Ruleset, setup, x.cat, withTB)
	if err != nil {
		x.t.Fatalf("%s: the log with the take-back does not replay (move %d): %v", what, bad, err)
	}
	var standing []domain.ReplayMove
	for i, m := range x.log {
		if !slices.Contains(c.Versions, int64(i+1)) {
			standing = append(standing, m)
		}
	}
	want, bad, err := x.h.Ruleset.Replay(setup, x.cat, standing)
	if err != nil {
		x.t.Fatalf("%s: the log without the moves taken back does not replay (move %d): %v", what, bad, err)
	}
	if got, w := x.mustSnapshot(g), x.mustSnapshot(want); !bytes.Equal(got, w) {
		x.t.Fatalf("%s: the game after it is\n%s\nand the log without the moves taken back replays to\n%s", what, got, w)
	}
	var before domain.Game
	if c.Versions[len(c.Versions)-1] == int64(len(x.log)) {
		if before, bad, err = x.h.Ruleset.Replay(setup, x.cat, x.log[:c.Versions[0]-1]); err != nil {
			x.t.Fatalf("%s: the log before the moves taken back does not replay (move %d): %v", what, bad, err)
		}
	}
	for _, v := range x.viewers() {
		view, err := g.AppendView(nil, v)
		if err != nil {
			x.t.Fatalf("%s: view for %s: %v", what, viewerName(v), err)
		}
		secrets := x.h.Secrets(g, v)
		if x.req.Seed != "" && !g.Ended() {
			secrets = append(secrets, []byte(x.req.Seed))
		}
		x.leak(v, secrets, "the game after "+what, view)
		if before != nil {
			was, _ := before.AppendView(nil, v)
			if !bytes.Equal(view, was) {
				x.t.Fatalf("%s: %s sees\n%s\nand saw before the moves taken back\n%s", what, viewerName(v), view, was)
			}
		}
	}
}
