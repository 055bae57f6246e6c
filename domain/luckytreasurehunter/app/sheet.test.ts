// Lucky Treasure Hunter's part of the score-sheet check: the table's size,
// each player's sets by treasure and the captain, and how the answer reads.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {sheet} from './sheet';
import {sheetKit as k} from '../../../web/src/testing';

test('the number of players at the table is sent when written', () => {
  assert.deepEqual(sheet.sheet!({players_at_table: '4'}, k), {players_at_table: 4});
  assert.deepEqual(sheet.sheet!({players_at_table: ' '}, k), {});
  assert.throws(() => sheet.sheet!({players_at_table: 'four'}, k), {message: 'Players at the table: “four” is not a whole number.'});
});

test('a player\'s sets are read per treasure, in the order written; the captain when ticked', () => {
  const typed = {name: 'Ann', gold: '3, 2', jade: '4', captain: ['used']};
  assert.deepEqual(sheet.player(typed, {}, 'Ann', k), {
    sets: [{treasure: 'gold', size: 3}, {treasure: 'gold', size: 2}, {treasure: 'jade', size: 4}],
    captain_used: true,
  });
  assert.deepEqual(sheet.player({}, {}, 'Bo', k), {sets: [], captain_used: false});
  assert.throws(() => sheet.player({ruby: '2, x'}, {}, 'Bo', k), {message: 'Bo, ruby sets: “x” is not a whole number.'});
});

test('the answer reads cards, captain and set sizes; a tie on points is decided by a set', () => {
  const row = {seat: 0, name: 'Ann', cards: 9, captain: 2, total: 11, captain_used: true, set_sizes: [4, 3, 2]};
  assert.deepEqual(sheet.columns.map(([, read]) => read(row, k)), [9, 2, '4, 3, 2']);
  assert.equal(sheet.columns[2][1]({...row, set_sizes: []}, k), 'none');
  const place = {rank: 2, seat: 1, name: 'Bo', total: 11};
  assert.equal(sheet.decided({...place, decided_by: 'set_sizes', deciding_set: 2}, 'Ann', k), 'set 2 smaller than Ann');
  assert.equal(sheet.decided({...place, decided_by: 'total'}, 'Ann', k), 'fewer points than Ann');
});
