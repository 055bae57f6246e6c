// Reading what was typed into the score-sheet check's fields (sheet.ts and
// each game's part of it, through its SheetKit): numbers a person wrote on
// paper, and the lists a group of checkboxes fills. No DOM: the unit tests
// read fields as the page does.
import {t} from './i18n';
import type {Typed} from './screen';

// whole reads one number written on the sheet; what is not a whole number
// is refused here, with the field it was written in, before anything is sent.
function whole(text: string, label: string) {
  if (!/^\d{1,6}$/.test(text)) throw new Error(t('app.sheet.not-whole', {label, text}));
  return Number(text);
}
// number is a field holding one number, or nothing (undefined).
export const number = (s: unknown, label: string) => (String(s ?? '').trim() === '' ? undefined : whole(String(s).trim(), label));
// nums is a field holding numbers separated by commas or spaces.
export const nums = (s: unknown, label: string) => String(s ?? '').split(/[\s,;]+/).filter(Boolean).map((x) => whole(x, label));

// ticked is the list a check group fills in o[key]; text a text field's text.
export function ticked(o: Typed, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v : [];
}
export const text = (v: Typed[string]): string => (typeof v === 'string' ? v : '');

