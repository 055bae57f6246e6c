// "How a turn goes" for every game: a few lines from the rules pages
// (domain/<game>/README.md), folded under the game's screen. The lines are
// app.howto.<ruleset>.<step> and app.howto.<ruleset>.end.
import {h} from './lib';
import {t} from './i18n';

const HOWTO = 'app.howto.';

// STEPS is how many steps each game's turn has.
const STEPS: Record<string, number> = {'silver-and-gold': 4, 'lucky-treasure-hunter': 3, 'colorful-treasure': 4};

// howTo is the folded "How a turn goes" of a game (null for one it does not know).
export function howTo(ruleset: string): HTMLElement | null {
  const n = STEPS[ruleset];
  if (!n) return null;
  const steps = [];
  for (let i = 1; i <= n; i++) steps.push(h('li', {}, t(HOWTO + ruleset + '.' + i)));
  return h('details', {class: 'howto', 'data-howto': ruleset}, h('summary', {'data-k': 'howto'}, t('app.howto.summary')),
    h('ol', {}, steps), h('p', {}, t(HOWTO + ruleset + '.end')));
}
