// The generic screen's choices (generic.ts, offer): what a player of a game
// without a screen of its own is offered, from the listing alone.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {offer, shown} from './generic';
import type {Listing} from './screen';

// A turn of Lucky Treasure Hunter as the server lists it: two places, a
// steal completed from parts (the dice to reroll: at least one, a die
// that owes one more), and the seat's take-back.
const listing: Listing = {
  version: 7,
  ruleset: 'lucky-treasure-hunter',
  seat: 0,
  awaiting: [],
  moves: [
    {move: {type: 'place', seat: 0, treasure: 'gold', count: 2}, label: 'Place 2 gold'},
    {move: {type: 'take_back', seat: 0}, label: 'Take back your last move', correction: true},
    {move: {type: 'reroll', seat: 0, dice: []}, label: 'Reroll dice', choose: {pool: 'dice', min: 1, max: 2}},
    {move: {type: 'stop', seat: 0}, label: 'Stop'},
  ],
  pools: {
    dice: [
      {add: {dice: 0}, label: 'die 1'},
      {add: {dice: 1}, label: 'die 2, cursed', owes: 1},
      {add: {dice: 2}, label: 'die 3'},
    ],
  },
};

test('the listed moves are offered with the server\'s labels; a correction is left to Undo', () => {
  const o = offer(listing, null);
  assert.equal(o.kind, 'moves');
  if (o.kind !== 'moves') return;
  assert.deepEqual(o.moves.map((m) => m.label), ['Place 2 gold', 'Reroll dice', 'Stop']);
  assert.deepEqual(o.moves.map((m) => m.entry), [0, 2, 3]);
  // A complete move is sent as listed; one made of parts is chosen first.
  assert.deepEqual(o.moves[0].send, {type: 'place', seat: 0, treasure: 'gold', count: 2});
  assert.equal(o.moves[1].send, null);
});

test('a move made of parts offers its parts, and is sent once enough are chosen', () => {
  let o = offer(listing, {entry: 2, picked: []});
  assert.equal(o.kind, 'parts');
  if (o.kind !== 'parts') return;
  assert.equal(o.label, 'Reroll dice');
  assert.deepEqual(o.chosen, []);
  assert.deepEqual(o.parts.map((p) => p.label), ['die 1', 'die 2, cursed', 'die 3']);
  assert.equal(o.send, null, 'Send waits for a first die');

  // The cursed die owes one more: Send waits again, and it is not offered twice.
  o = offer(listing, {entry: 2, picked: [1]});
  if (o.kind !== 'parts') return assert.fail(o.kind);
  assert.deepEqual(o.chosen, ['die 2, cursed']);
  assert.deepEqual(o.parts.map((p) => p.label), ['die 1', 'die 3']);
  assert.equal(o.send, null);

  o = offer(listing, {entry: 2, picked: [1, 2]});
  if (o.kind !== 'parts') return assert.fail(o.kind);
  assert.deepEqual(o.chosen, ['die 2, cursed', 'die 3']);
  assert.deepEqual(o.send, {type: 'reroll', seat: 0, dice: [1, 2]});
});

test('a plain move is chosen and sent by itself: the parts chosen before do not stick', () => {
  const o = offer(listing, {entry: 2, picked: [0]});
  if (o.kind !== 'parts') return assert.fail(o.kind);
  assert.deepEqual(o.send, {type: 'reroll', seat: 0, dice: [0]});
  // The listing read again after another's move no longer has the entry.
  assert.equal(offer({...listing, moves: listing.moves.slice(0, 2)}, {entry: 2, picked: [0]}).kind, 'moves');
});

test('a seat with only a take-back listed is told to wait', () => {
  assert.deepEqual(offer({...listing, moves: [listing.moves[1]]}, null), {kind: 'nothing'});
  assert.deepEqual(offer({...listing, moves: []}, null), {kind: 'nothing'});
});

test('the view is shown as the API documents it', () => {
  assert.equal(shown(null), '–');
  assert.equal(shown(3), '3');
  assert.equal(shown('gold'), 'gold');
  assert.equal(shown({silver: 2, gold: 0}), '{"silver":2,"gold":0}');
  assert.equal(shown([1, 2]), '[1,2]');
});
