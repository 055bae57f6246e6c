// Silver & Gold's screen: what the shell asks of it besides drawing.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import screen from './screen';

test('the host reads the legal moves of the seats that owe a replacement, in a physical game', () => {
  const awaiting = [{actor: 'seat', seat: 0, action: 'cross'}, {actor: 'seat', seat: 2, action: 'take'}, {actor: 'host', action: 'display'}, {actor: 'seat', seat: 3, action: 'take'}];
  const view = (mode: string, ended = false) => ({ended, state: {mode, awaiting}}) as unknown as Parameters<NonNullable<typeof screen.hostSeats>>[0];
  assert.deepEqual(screen.hostSeats!(view('physical')), [2, 3]);
  assert.deepEqual(screen.hostSeats!(view('digital')), []);
  assert.deepEqual(screen.hostSeats!(view('physical', true)), []);
});
