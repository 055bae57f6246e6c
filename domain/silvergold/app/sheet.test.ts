// Silver & Gold's part of the score-sheet check: what a player's paper
// tally becomes in the sheet the API takes, and how its answer reads.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {sheet} from './sheet';
import {sheetKit as k} from '../../../web/src/testing';

test('a tally becomes the player\'s sheet: the cards tapped, coins, cups and palms as written', () => {
  const typed = {name: 'Ann', cards: ['grey-08', 'green-03'], coins: ' 12 ', cups: '3, 5', palms: '2 4;6'};
  assert.deepEqual(sheet.player(typed, {}, 'Ann', k), {cards: [{id: 'grey-08'}, {id: 'green-03'}], coins: 12, cups: [3, 5], palms: [2, 4, 6]});
  assert.equal(sheet.summary!(typed, k), '2 cards');
});

test('blank fields are nothing written: no coins, no cups', () => {
  assert.deepEqual(sheet.player({}, {}, 'Bo', k), {cards: [], coins: 0, cups: [], palms: []});
  assert.equal(sheet.summary!({}, k), '0 cards');
});

test('what is not a whole number is refused, naming the field', () => {
  assert.throws(() => sheet.player({coins: 'twelve'}, {}, 'Ann', k), {message: 'Ann, coins: “twelve” is not a whole number.'});
  assert.throws(() => sheet.player({cups: '3, -5'}, {}, 'Ann', k), {message: 'Ann, cups: “-5” is not a whole number.'});
});

test('the answer reads line by line, and a colour tie-break says the colour', () => {
  const row = {seat: 0, name: 'Ann', total: 31, lines: {coins: 6, cups: 8, palms: 5, cards: 9, seals: 3}} as Parameters<(typeof sheet.columns)[number][1]>[0];
  assert.deepEqual(sheet.columns.map(([key, read]) => [key, read(row, k)]),
    [['app.sg.col.coins', 6], ['app.sg.col.cups', 8], ['app.sg.col.palms', 5], ['app.sg.col.cards', 9], ['app.sg.col.seals', 3]]);
  const place = {rank: 2, seat: 1, name: 'Bo', total: 31};
  assert.equal(sheet.decided({...place, decided_by: 'purple'}, 'Ann', k), 'fewer completed purple cards than Ann');
  assert.equal(sheet.decided({...place, decided_by: 'total'}, 'Ann', k), 'fewer points than Ann');
});
