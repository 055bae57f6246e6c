// The games' options as the start page offers them to players: a label
// written for people instead of the API's description, words for each
// choice, and the condition under which an option applies at all (an
// advanced game's action tokens mean nothing in the other variants, so
// their fields show only when the advanced variant is chosen). An option
// this file does not know keeps the API's description.
import {t, has} from './i18n';
import type {components} from './api.gen';

type RulesetOption = components['schemas']['RulesetOption'];

// The words of an option are app.option.<name>.label and, for each value
// of its list, app.option.<name>.<value>.
const OPTION = 'app.option.';

// WHEN: an option applies only while another has a value.
const WHEN: Record<string, [string, string]> = {};
for (let i = 1; i <= 5; i++) WHEN[`token_${i}`] = ['variant', 'advanced'];

// optionLabel is the label of an option's field.
export const optionLabel = (o: RulesetOption): string => (has(OPTION + o.name + '.label') ? t(OPTION + o.name + '.label') : o.description || o.name);

// choiceLabel is the words for one value of an option's list.
export const choiceLabel = (o: RulesetOption, v: string): string => (has(OPTION + o.name + '.' + v) ? t(OPTION + o.name + '.' + v) : v);

// optionWhen is [name, value]: the option applies only while the option
// named has that value (undefined: always).
export const optionWhen = (o: RulesetOption): [string, string] | undefined => WHEN[o.name];

// showApplicable hides the fields of the options that do not apply to what
// the form has chosen now (their values are still sent: the server ignores
// them there).
export function showApplicable(form: HTMLElement): void {
  for (const field of form.querySelectorAll<HTMLElement>('[data-when]')) {
    const [name, value] = (field.dataset.when || '').split('=');
    const el = form.querySelector<HTMLInputElement>(`[name="opt-${CSS.escape(name)}"]`);
    field.hidden = !el || el.value !== value;
  }
}
