// The routing helpers of lib.ts: the generic screen asked for in the
// address, a seat's link, the device's list of tables, and which page may
// still draw after waiting for the network.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {forget, gameLink, genericAsked, keyPerBody, nextRoute, onThisRoute, remember, tables} from './lib';

// Node has no location or localStorage: a page's, as far as lib.ts reads them.
const kept = new Map<string, string>();
Object.assign(globalThis, {
  location: {origin: 'http://192.168.1.20:8080'},
  localStorage: {getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v)},
});

test('?screen=generic asks for the generic screen, and nothing else does', () => {
  assert.equal(genericAsked('?screen=generic'), true);
  assert.equal(genericAsked('?lang=de&screen=generic'), true);
  assert.equal(genericAsked(''), false);
  assert.equal(genericAsked('?screen=own'), false);
  assert.equal(genericAsked('?generic'), false);
});

test('a seat link carries its credential in the fragment, encoded', () => {
  assert.equal(gameLink('g1', 'seat', 'a/b c'), 'http://192.168.1.20:8080/#/game/g1/seat/a%2Fb%20c');
});

test('the device lists its tables newest first, each credential once, and forgets a table', () => {
  kept.clear();
  assert.deepEqual(tables(), []);
  remember({id: 'g1', role: 'host', cred: 'h1', title: 'Silver & Gold'});
  remember({id: 'g2', role: 'seat', cred: 's2', name: 'Ann'});
  remember({id: 'g1', role: 'host', cred: 'h1', title: 'Silver & Gold'});
  assert.deepEqual(tables().map((x) => `${x.id}/${x.role}`), ['g1/host', 'g2/seat']);
  for (let i = 0; i < 25; i++) remember({id: 'n' + i, role: 'seat', cred: 'c' + i});
  assert.equal(tables().length, 20, 'the list keeps the 20 newest');
  assert.equal(tables()[0].id, 'n24');
  forget('n24');
  assert.equal(tables()[0].id, 'n23');
  kept.set('treasury.tables', 'not json');
  assert.deepEqual(tables(), [], 'a spoilt list reads as empty');
});

test('a page that waited for the network draws only if it is still the screen shown', () => {
  nextRoute();
  const start = onThisRoute();
  assert.equal(start(), true);
  nextRoute(); // a seat link opened meanwhile
  const seat = onThisRoute();
  assert.equal(start(), false);
  assert.equal(seat(), true);
});

test('a form keeps its Idempotency-Key while it sends the same body, and takes a new one for another', () => {
  const keyOf = keyPerBody();
  const first = keyOf({ruleset: 'silver-and-gold', players: [{name: 'Ann'}]});
  assert.ok(first.length >= 22, `key ${first}: the server asks for 22 characters at least`);
  assert.equal(keyOf({ruleset: 'silver-and-gold', players: [{name: 'Ann'}]}), first, 'sent again: the same key');
  const other = keyOf({ruleset: 'silver-and-gold', players: [{name: 'Ben'}]});
  assert.notEqual(other, first, 'another body: another key');
  assert.equal(keyOf({ruleset: 'silver-and-gold', players: [{name: 'Ann'}]}), first, 'back to the first body: its key (the game it may have made)');
  assert.notEqual(keyPerBody()({ruleset: 'silver-and-gold', players: [{name: 'Ben'}]}), other, "another form's key is its own");
});
