// Lucky Treasure Hunter's screen: what the shell asks of it besides drawing.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import screen from './screen';

const view = (state: Record<string, unknown>, ended = false) => ({ended, state: {mode: 'physical', turn: 2, phase: 'steal', ...state}}) as unknown as Parameters<NonNullable<typeof screen.hostSeats>>[0];
const at = (state: Record<string, unknown>) => ({view: view(state)}) as unknown as Parameters<NonNullable<typeof screen.where>>[0];

test('the host reads the legal moves of the seat on turn in a physical game only', () => {
  assert.deepEqual(screen.hostSeats!(view({})), [2]);
  assert.deepEqual(screen.hostSeats!(view({mode: 'digital'})), []);
  assert.deepEqual(screen.hostSeats!(view({phase: 'roll'})), []);
  assert.deepEqual(screen.hostSeats!(view({}, true)), []);
});

test('a move is chosen in the same step while the dice and the sets stand', () => {
  const players = [{sets: [], hand_size: 3, captain_used: false}];
  const base = {phase: 'decide', middle: [], players, steal: {dice: ['blank', 'pirate']}};
  assert.equal(screen.where!(at(base)), screen.where!(at({...base})));
  assert.notEqual(screen.where!(at(base)), screen.where!(at({...base, steal: {dice: ['pirate', 'pirate']}})));
  assert.notEqual(screen.where!(at(base)), screen.where!(at({...base, players: [{...players[0], hand_size: 2}]})));
});
