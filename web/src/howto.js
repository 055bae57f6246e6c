// "How a turn goes" for every game: a few lines from the rules pages
// (docs/rules/<game>.md), folded under the game's screen.
import {h} from './lib.js';

const TURNS = {
  'silver-and-gold': {
    steps: [
      'An expedition card is turned up: its pattern is the same for everyone.',
      'Everyone at once crosses off boxes on one of their own cards: the whole pattern (turned or mirrored as you like) on boxes not yet crossed, or just one box anywhere.',
      'A red cross asks for one more box anywhere; a coin crosses your next coin box (a row of 4 wins the best cup left); a palm tree scores 1 plus 1 per palm tree in the display, up to 4 palms.',
      'A card with every box crossed goes to your scoring pile; take a replacement from the display or the top of the deck.',
    ],
    end: '7 turns a round, 4 rounds. Score: coins, cups, palms, the values of your completed cards, and each seal’s points for every completed card of its colour.',
  },
  'lucky-treasure-hunter': {
    steps: [
      'Place 1 to 5 cards of one treasure from your hand into the middle (cards of a type join a set of fewer than 5 first).',
      'Steal a set from the middle or another player: roll one die per card. All pirates: the set is yours. Otherwise re-roll blank dice by discarding cards of the set’s treasure (one per die), turn your captain over once a game to re-roll every blank die, or stop.',
      'Draw back up to 5. When the pile runs out, the round is played out and the game ends before Captain Heart’s turn.',
    ],
    end: 'Each collected card scores 1, an unused captain 1 more; ties go to larger sets.',
  },
  'colorful-treasure': {
    steps: [
      'Turn over 2 face-down cards of the grid; then you may turn over a 3rd.',
      'No key or chest among them: take every card of one gem colour, or the diamonds (with their wonders’ diamond tokens), or nothing.',
      'A key or chest among them: take every key and chest card shown, with the tokens below their wonders. A key token and a chest token together are paid in at once to steal a card or a diamond token from another player.',
      'The other cards are turned face down again, where they were: remember them.',
    ],
    end: 'When 10 or fewer cards are left, the round is finished and the game ends. Diamonds 1, diamond tokens 2, each gem colour 1, 3, 6, 10, 15 points for 1 to 5 cards, and the awards.',
  },
};

// howTo is the folded "How a turn goes" of a game (null for one it does not know).
export function howTo(ruleset) {
  const t = TURNS[ruleset];
  if (!t) return null;
  return h('details', {class: 'howto', 'data-howto': ruleset}, h('summary', {'data-k': 'howto'}, 'How a turn goes'),
    h('ol', {}, t.steps.map((s) => h('li', {}, s))), h('p', {}, t.end));
}
