// Colorful Treasure's part of the score-sheet check: the variant decides
// what a player's tally holds (a junior table has no tokens nor awards, an
// advanced one action tokens too).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {sheet} from './sheet';
import {sheetKit as k} from '../../../web/src/testing';

const ann = {name: 'Ann', cards: ['taj-mahal/red', 'taj-mahal/diamond', 'colosseum/key'], tokens: ['taj-mahal'], actions: ['peek_two'], awards: ['explorer']};

test('the variant is the standard game unless chosen', () => {
  assert.deepEqual(sheet.sheet!({}, k), {variant: 'standard'});
  assert.deepEqual(sheet.sheet!({variant: 'junior'}, k), {variant: 'junior'});
});

test('a standard tally sends the cards ticked by wonder, the diamond tokens and the awards', () => {
  assert.deepEqual(sheet.player(ann, {}, 'Ann', k), {
    cards: [{wonder: 'taj-mahal', kind: 'red'}, {wonder: 'taj-mahal', kind: 'diamond'}, {wonder: 'colosseum', kind: 'key'}],
    diamond_tokens: ['taj-mahal'],
    awards: ['explorer'],
  });
  assert.equal(sheet.summary!(ann, k), '3 cards ticked');
});

test('a junior tally has no tokens nor awards; an advanced one its action tokens', () => {
  const junior = sheet.player(ann, {variant: 'junior'}, 'Ann', k);
  assert.deepEqual(junior.diamond_tokens, []);
  assert.equal('awards' in junior, false);
  assert.equal('action_tokens' in junior, false);
  assert.deepEqual(sheet.player(ann, {variant: 'advanced'}, 'Ann', k).action_tokens, ['peek_two']);
  assert.deepEqual(sheet.player({}, {}, 'Bo', k), {cards: [], diamond_tokens: [], awards: []});
});
