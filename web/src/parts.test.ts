// Completing a listed move from its parts (parts.ts), by the LegalMove
// schema's rule: what the generic screen offers and what it sends.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {pickable, ready, complete, type LegalMove, type Pools} from './parts';

// A Silver & Gold crossing through a red cross: one more box is owed for
// it, picked from the free boxes; the boxes of the crossing itself are held.
const pools: Pools = {
  extra: [
    {add: {extra: {card: 'grey-08', box: [0, 0]}}, label: 'grey-08 (1,1)', excludes: ['grey-08:0,0']},
    {add: {extra: {card: 'grey-08', box: [2, 1]}}, label: 'grey-08 (3,2)', excludes: ['grey-08:2,1']},
    {add: {extra: {card: 'green-03', box: [1, 1]}}, label: 'green-03 (2,2), a red cross', excludes: ['green-03:1,1'], owes: 1},
    {add: {extra: {card: 'green-03', box: [0, 2]}}, label: 'green-03 (1,3)', excludes: ['green-03:0,2']},
  ],
};
const cross: LegalMove = {
  move: {type: 'cross', seat: 0, card: 'grey-08', boxes: [[2, 1]]},
  label: 'Cross box (3,2) on grey-08',
  choose: {pool: 'extra', min: 1, max: 1},
  holds: ['grey-08:2,1'],
};

test('a complete move is sent as listed', () => {
  const keep: LegalMove = {move: {type: 'keep', seat: 1, cards: ['a', 'b']}, label: 'Keep a and b'};
  assert.deepEqual(pickable(pools, keep, []), []);
  assert.equal(ready(pools, keep, []), true);
  assert.deepEqual(complete(pools, keep, []), {type: 'keep', seat: 1, cards: ['a', 'b']});
});

test('a part excluded by what the entry holds is not offered', () => {
  assert.deepEqual(pickable(pools, cross, []), [0, 2, 3]);
});

test('the move is not ready before its minimum', () => {
  assert.equal(ready(pools, cross, []), false);
  assert.equal(ready(pools, cross, [0]), true);
});

test('picked parts are added to the move in the order picked, the listed move untouched', () => {
  const move = complete(pools, cross, [3, 0]);
  assert.deepEqual(move.extra, [{card: 'green-03', box: [0, 2]}, {card: 'grey-08', box: [0, 0]}]);
  assert.deepEqual(move.boxes, [[2, 1]]);
  assert.equal((cross.move as {extra?: unknown}).extra, undefined);
});

test('at the maximum nothing more is offered', () => {
  assert.deepEqual(pickable(pools, cross, [0]), []);
});

test('a part that owes raises the minimum and the maximum', () => {
  // The red cross owes one more box: after it, one more must be picked.
  assert.equal(ready(pools, cross, [2]), false);
  assert.deepEqual(pickable(pools, cross, [2]), [0, 3]);
  assert.equal(ready(pools, cross, [2, 3]), true);
  assert.deepEqual(pickable(pools, cross, [2, 3]), []);
});

test("a picked part's excludes shut out the parts they name", () => {
  const p: Pools = {x: [
    {add: {cards: 'a'}, label: 'a', excludes: ['slot-1']},
    {add: {cards: 'b'}, label: 'b', excludes: ['slot-1']},
    {add: {cards: 'c'}, label: 'c', excludes: ['slot-2']},
  ]};
  const e: LegalMove = {move: {type: 'take'}, label: 'Take', choose: {pool: 'x', min: 1, max: 3}};
  assert.deepEqual(pickable(p, e, []), [0, 1, 2]);
  assert.deepEqual(pickable(p, e, [0]), [2]);
  assert.deepEqual(complete(p, e, [0, 2]), {type: 'take', cards: ['a', 'c']});
});

test('short of the minimum, the move is ready when nothing more may be picked', () => {
  const p: Pools = {x: [{add: {cards: 'a'}, label: 'a'}]};
  const e: LegalMove = {move: {type: 'take'}, label: 'Take', choose: {pool: 'x', min: 2, max: 2}};
  assert.equal(ready(p, e, []), false);
  assert.equal(ready(p, e, [0]), true);
});

test('an entry whose pool is missing offers no part and may be sent', () => {
  const e: LegalMove = {move: {type: 'take'}, label: 'Take', choose: {pool: 'gone', min: 1, max: 1}};
  assert.deepEqual(pickable(pools, e, []), []);
  assert.equal(ready(pools, e, []), true);
});
