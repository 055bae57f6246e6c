// Silver & Gold's part of the score-sheet check (web/src/sheet.ts): the
// completed cards tapped as pictures, coins, cups and palms.
import type {Schemas, SheetForm, SheetKit, Typed} from '../../../web/src/screen';
import {h, call, replace} from '../../../web/src/lib';
import {cardPicture} from './screen';

const COLOUR = 'app.colour.';

// Data is what the fields are drawn from: the catalog's cards.
type Data = Pick<Schemas['SilverGoldCatalog'], 'cards'>;

export const sheet: SheetForm<Data, Schemas['SilverGoldPlayerScore'], Schemas['SilverGoldPlace']> = {
  least: 1, // a sheet may hold some of the table
  intro: (k) => k.t('app.sheet.sg.intro'),
  fold: true,
  async prepare(rs) {
    const cat = await call<Schemas['SilverGoldCatalog']>('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`);
    return {cards: cat.cards};
  },
  fields(i, p, data, _tb, k) {
    return [
      h('fieldset', {}, h('legend', {}, k.t('app.sheet.sg.completed')), h('span', {class: 'hint'}, k.t('app.sheet.sg.completed-hint')), sgCards(k, i, p, data)),
      k.input(p, `p${i}-coins`, 'coins', k.t('app.sheet.sg.coins'), null, {inputmode: 'numeric'}),
      k.input(p, `p${i}-cups`, 'cups', k.t('app.sheet.sg.cups'), k.t('app.sheet.sg.cups-hint'), {inputmode: 'numeric'}),
      k.input(p, `p${i}-palms`, 'palms', k.t('app.sheet.sg.palms'), k.t('app.sheet.sg.palms-hint'), {inputmode: 'numeric'}),
    ];
  },
  summary: (p, k) => k.t('app.sheet.sg.summary', {count: k.ticked(p, 'cards').length}),
  player: (p, _tb, who, k) => ({cards: k.ticked(p, 'cards').map((id) => ({id})), coins: k.number(p.coins, k.t('app.sheet.sg.who-coins', {who})) ?? 0,
    cups: k.nums(p.cups, k.t('app.sheet.sg.who-cups', {who})), palms: k.nums(p.palms, k.t('app.sheet.sg.who-palms', {who}))}),
  columns: [['app.sg.col.coins', (p) => p.lines.coins], ['app.sg.col.cups', (p) => p.lines.cups], ['app.sg.col.palms', (p) => p.lines.palms], ['app.sg.col.cards', (p) => p.lines.cards], ['app.sg.col.seals', (p) => p.lines.seals]],
  decided: (r, above, k) => (r.decided_by === 'total' ? k.t('app.score.fewer-points', {above}) : k.t('app.sg.fewer-colour', {colour: k.term(COLOUR, r.decided_by || ''), above})),
};

// sgCards picks a player's completed Silver & Gold cards by tapping their
// pictures, a colour at a time; it draws itself again when tapped.
const COLOURS = ['grey', 'green', 'orange', 'purple'];
function sgCards(k: SheetKit, i: number, p: Typed, data: Data) {
  const box = h('div', {class: 'sheet-cards'});
  const chosen = k.ticked(p, 'cards');
  p.cards = chosen;
  const draw = () => {
    const colour = typeof p.colour === 'string' ? p.colour : 'grey';
    const of = (col: string) => (data.cards || []).filter((c) => c.colour === col);
    const picked = (data.cards || []).filter((c) => chosen.includes(c.id));
    replace(box,
      h('div', {class: 'filters', role: 'group', 'aria-label': k.t('app.sg.colour')}, COLOURS.map((col) => {
        const n = of(col).filter((c) => chosen.includes(c.id)).length;
        return h('button', {type: 'button', 'aria-pressed': col === colour ? 'true' : 'false', 'data-k': `p${i}-col-${col}`, 'data-colour': col,
          onclick: () => { p.colour = col; draw(); }}, k.term(COLOUR, col), n ? k.t('app.sheet.sg.n-chosen', {n}) : '');
      })),
      h('div', {class: 'tiles'}, of(colour).map((c) => cardPicture(k, c, {'aria-pressed': chosen.includes(c.id) ? 'true' : 'false', 'data-k': `p${i}-card-${c.id}`, 'data-sheet-card': `p${i}:${c.id}`,
        onclick: () => {
          const at = chosen.indexOf(c.id);
          if (at >= 0) chosen.splice(at, 1);
          else chosen.push(c.id);
          draw();
        }}, {small: true}))),
      h('p', {class: 'muted', 'aria-live': 'polite'}, picked.length ? k.t('app.sheet.sg.chosen', {n: picked.length, cards: picked.map((c) => k.t('app.sg.card-name', {colour: k.term(COLOUR, c.colour), value: c.value})).join(', ')}) : k.t('app.sheet.sg.none-chosen')));
  };
  draw();
  return box;
}

