// The games' options as the start page offers them to players: a label
// written for people instead of the API's description, words for each
// choice, and the condition under which an option applies at all (an
// advanced game's action tokens mean nothing in the other variants, so
// their fields show only when the advanced variant is chosen). An option
// this file does not know keeps the API's description.

const TOKENS = [
  ['peek at 2 cards of different wonders, once', 'peek at up to 3 cards of one wonder, once'],
  ['reveal a fourth card, once', 'take gems or diamonds instead of keys and chests, always'],
  ['take 2 types, once', 'a sixth gem colour (1 point), always'],
  ['nobody steals from you or is robbed by you, always', 'nobody steals your wonder cards, always'],
  ['4 points at the end', 'stands in for a key or chest token, once'],
];

const LABELS = {
  variant: {label: 'Variant', choices: {
    standard: 'Standard',
    junior: 'Junior: no keys, chests, tokens or awards; reveal 2; play until the grid is empty',
    advanced: 'Advanced: five action tokens, diamond tokens 3 points, six gems 23 points',
  }},
  start_player: {label: 'Who plays first'},
  captain_heart: {label: 'Captain Heart (plays first; the game ends before their turn once the pile is empty)'},
  pirate_faces: {label: 'Pirates on a die (faces out of 6)'},
};
TOKENS.forEach(([a, b], i) => {
  LABELS[`token_${i + 1}`] = {label: `Action token ${i + 1}: the side set out`, choices: {a: `A: ${a}`, b: `B: ${b}`}, when: ['variant', 'advanced']};
});

// optionLabel is the label of an option's field.
export const optionLabel = (o) => (LABELS[o.name] && LABELS[o.name].label) || o.description || o.name;

// choiceLabel is the words for one value of an option's list.
export const choiceLabel = (o, v) => (LABELS[o.name] && LABELS[o.name].choices && LABELS[o.name].choices[v]) || v;

// optionWhen is [name, value]: the option applies only while the option
// named has that value (undefined: always).
export const optionWhen = (o) => LABELS[o.name] && LABELS[o.name].when;

// showApplicable hides the fields of the options that do not apply to what
// the form has chosen now (their values are still sent: the server ignores
// them there).
export function showApplicable(form) {
  for (const field of form.querySelectorAll('[data-when]')) {
    const [name, value] = field.dataset.when.split('=');
    const el = form.querySelector(`[name="opt-${CSS.escape(name)}"]`);
    field.hidden = !el || el.value !== value;
  }
}
