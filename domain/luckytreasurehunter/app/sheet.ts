// Lucky Treasure Hunter's part of the score-sheet check (web/src/sheet.ts):
// the players at the table, each player's sets and the captain.
import type {Bag, Schemas, SheetForm} from '../../../web/src/screen';
import {h} from '../../../web/src/lib';

const TREASURE = 'app.lth.treasure.';
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

const TREASURES = ['silver', 'gold', 'pearl', 'ruby', 'jade'];

export const sheet: SheetForm<Bag, Schemas['LuckyTreasureHunterPlayerScore'], Schemas['LuckyTreasureHunterRank']> = {
  least: 1,
  intro: (k) => k.t('app.sheet.lth.intro'),
  table: (tb, _redraw, k) => [k.input(tb, 'players-at-table', 'players_at_table', k.t('app.sheet.lth.at-table'), k.t('app.sheet.lth.at-table-hint'), {inputmode: 'numeric'})],
  fields(i, p, _data, _tb, k) {
    return [
      h('fieldset', {}, h('legend', {}, k.t('app.sheet.lth.sets')), h('span', {class: 'hint'}, k.t('app.sheet.lth.sets-hint')),
        TREASURES.map((x) => k.input(p, `p${i}-${x}`, x, cap(k.term(TREASURE, x)), null, {inputmode: 'numeric', class: 'short'}))),
      h('div', {class: 'field'}, k.check(p, `p${i}-captain`, 'captain', 'used', k.t('app.sheet.lth.captain'))),
    ];
  },
  sheet: (tb, k) => {
    const n = k.number(tb.players_at_table, k.t('app.sheet.lth.at-table-label'));
    return n === undefined ? {} : {players_at_table: n};
  },
  player: (p, _tb, who, k) => ({sets: TREASURES.flatMap((x) => k.nums(p[x], k.t('app.sheet.lth.who-sets', {who, treasure: k.term(TREASURE, x)})).map((size) => ({treasure: x, size}))),
    captain_used: k.ticked(p, 'captain').includes('used')}),
  columns: [['app.sheet.lth.col.cards', (p) => p.cards], ['app.sheet.lth.col.captain', (p) => p.captain], ['app.sheet.lth.col.sets', (p, k) => p.set_sizes.join(', ') || k.t('app.none')]],
  decided: (r, above, k) => (r.decided_by === 'total' ? k.t('app.score.fewer-points', {above}) : k.t('app.sheet.lth.smaller-set', {set: r.deciding_set, above})),
};

