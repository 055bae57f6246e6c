// Colorful Treasure's part of the score-sheet check (web/src/sheet.ts): the
// variant, each player's cards by wonder, tokens and awards.
import type {Schemas, SheetForm} from '../../../web/src/screen';
import {h, call} from '../../../web/src/lib';
import {gem} from './art';

const WONDER = 'app.ct.wonder.';
const KIND = 'app.ct.kind.';
const VARIANT = 'app.option.variant.';

// The action tokens' effects (app.ct.effect.<id>) and the awards
// (app.ct.award.<id>).
const EFFECTS = ['peek_two', 'peek_three', 'fourth_card', 'instead', 'two_types', 'sixth_colour', 'no_stealing', 'protected', 'four_points', 'wild_pair'];
const AWARDS = ['colorful_gems', 'explorer', 'chest'];
const EFFECT = 'app.ct.effect.';
const AWARD = 'app.ct.award.';

// Data is what the fields are drawn from: the catalog's wonders.
type Data = Pick<Schemas['ColorfulTreasureCatalog'], 'wonders'>;

export const sheet: SheetForm<Data, Schemas['ColorfulTreasurePlayerScore'], Schemas['ColorfulTreasurePlace']> = {
  fold: true,
  summary: (p, k) => k.t('app.sheet.ct.summary', {count: k.ticked(p, 'cards').length}),
  least: 2, // the whole table: who holds which card is checked across it
  intro: (k) => k.t('app.sheet.ct.intro'),
  async prepare(rs) {
    const cat = await call<Schemas['ColorfulTreasureCatalog']>('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`);
    return {wonders: cat.wonders};
  },
  table: (tb, redraw, k) => [h('div', {class: 'field'}, h('label', {for: 'variant'}, k.t('app.option.variant.label')),
    h('select', {id: 'variant', 'data-k': 'variant', onchange: (e: Event) => { tb.variant = (e.target as HTMLSelectElement).value; redraw(); }},
      ['standard', 'junior', 'advanced'].map((v) => h('option', {value: v, selected: (tb.variant || 'standard') === v}, k.t(VARIANT + v + '.short')))))],
  fields(i, p, data, tb, k) {
    const junior = tb.variant === 'junior';
    return [
      h('fieldset', {}, h('legend', {}, k.t('app.sheet.ct.cards')),
        h('div', {class: 'sheet-wonders'}, data.wonders.map((w) => h('fieldset', {class: 'sheet-wonder'}, h('legend', {}, k.term(WONDER, w.id)),
          ['diamond', ...(junior ? [] : [w.lock]), ...w.colours].map((x: string) => k.check(p, `p${i}-${w.id}-${x}`, 'cards', `${w.id}/${x}`, [gem(x), ' ', k.term(KIND, x)], 'gem-chip')),
          junior ? null : k.check(p, `p${i}-${w.id}-token`, 'tokens', w.id, k.t('app.sheet.ct.diamond-token')))))),
      tb.variant === 'advanced' ? h('fieldset', {}, h('legend', {}, k.t('app.sheet.ct.action-tokens')),
        EFFECTS.map((e) => k.check(p, `p${i}-action-${e}`, 'actions', e, k.t(EFFECT + e)))) : null,
      junior ? null : h('fieldset', {}, h('legend', {}, k.t('app.sheet.ct.awards')),
        AWARDS.map((a) => k.check(p, `p${i}-award-${a}`, 'awards', a, k.t(AWARD + a)))),
    ];
  },
  sheet: (tb) => ({variant: tb.variant || 'standard'}),
  player(p, tb, _who, k) {
    const out: Record<string, unknown> = {cards: k.ticked(p, 'cards').map((c) => ({wonder: c.split('/')[0], kind: c.split('/')[1]})), diamond_tokens: tb.variant === 'junior' ? [] : k.ticked(p, 'tokens')};
    if (tb.variant === 'advanced') out.action_tokens = k.ticked(p, 'actions');
    if (tb.variant !== 'junior') out.awards = k.ticked(p, 'awards');
    return out;
  },
  columns: [['app.sheet.ct.col.diamonds', (p) => p.lines.diamond_cards], ['app.sheet.ct.col.diamond-tokens', (p) => p.lines.diamond_tokens], ['app.sheet.ct.col.gems', (p) => p.lines.gems],
    ['app.sheet.ct.col.action-tokens', (p) => p.lines.action_tokens], ['app.sheet.ct.col.awards', (p) => p.lines.awards]],
  decided: (_r, above, k) => k.t('app.score.fewer-points', {above}),
};

