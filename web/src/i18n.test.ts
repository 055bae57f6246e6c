// The renderer of the app's catalogs (node --test after esbuild, run by
// web's Go test TestAppUnits and by npm test in web/).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {format, choose} from './i18n';

const cats = {
  en: {
    'list.and': 'and',
    'x.hello': 'Hello, {name}!',
    'x.cards': {one: '{count} card', other: '{count} cards'},
    'x.took': '{who} took {what}.',
    'x.kind.key': 'key',
    'x.kind.chest': 'chest',
    'x.only-en': 'only in English',
    'x.kinds': 'Kinds: {kinds}.',
    'x.brace': 'a {missing} brace',
  },
  de: {
    'list.and': 'und',
    'x.hello': 'Hallo, {name}!',
    'x.cards': {one: '{count} Karte', other: '{count} Karten'},
    'x.took': '{who} nahm {what}.',
    'x.kind.key': 'Schlüssel',
    'x.kind.chest': 'Truhe',
    'x.kinds': 'Sorten: {kinds}.',
  },
};

test('placeholders are filled by name', () => {
  assert.equal(format(cats, 'de', 'x.hello', {name: 'Ann'}), 'Hallo, Ann!');
  assert.equal(format(cats, 'en', 'x.hello', {name: 'Ann'}), 'Hello, Ann!');
});

test('plural forms follow count in the language', () => {
  assert.equal(format(cats, 'de', 'x.cards', {count: 1}), '1 Karte');
  assert.equal(format(cats, 'de', 'x.cards', {count: 0}), '0 Karten');
  assert.equal(format(cats, 'en', 'x.cards', {count: 3}), '3 cards');
});

test('a message parameter is rendered in the same language', () => {
  assert.equal(format(cats, 'de', 'x.took', {who: 'Bob', what: {key: 'x.kind.chest'}}), 'Bob nahm Truhe.');
  assert.equal(format(cats, 'en', 'x.took', {who: 'Bob', what: {key: 'x.cards', params: {count: 2}}}), 'Bob took 2 cards.');
});

test('lists of messages or strings are joined with the language\'s and', () => {
  assert.equal(format(cats, 'de', 'x.kinds', {kinds: [{key: 'x.kind.key'}, {key: 'x.kind.chest'}, 'P07']}), 'Sorten: Schlüssel, Truhe und P07.');
  assert.equal(format(cats, 'en', 'x.kinds', {kinds: ['a', 'b']}), 'Kinds: a and b.');
  assert.equal(format(cats, 'en', 'x.kinds', {kinds: ['a']}), 'Kinds: a.');
});

test('a missing key falls back to English, then to the key', () => {
  assert.equal(format(cats, 'de', 'x.only-en'), 'only in English');
  assert.equal(format(cats, 'de', 'x.nowhere'), 'x.nowhere');
  assert.equal(format(cats, 'fr', 'x.hello', {name: 'Ann'}), 'Hello, Ann!');
});

test('a placeholder without a parameter stays as written', () => {
  assert.equal(format(cats, 'en', 'x.brace', {}), 'a {missing} brace');
});

test('a first visit is German for a German browser, English otherwise', () => {
  assert.equal(choose(['de-DE', 'en']), 'de');
  assert.equal(choose(['de']), 'de');
  assert.equal(choose(['en-US', 'de']), 'en');
  assert.equal(choose(['fr-FR', 'de-AT']), 'de');
  assert.equal(choose(['fr-FR', 'de'], ['en', 'de', 'fr']), 'fr');
  assert.equal(choose(['pt-BR'], ['en', 'pt-BR', 'pt']), 'pt-BR');
  assert.equal(choose(['fr']), 'en');
  assert.equal(choose([]), 'en');
  assert.equal(choose(['dee']), 'en');
});
