// What the unit tests (*.test.ts, node --test) draw on: the app's words in
// English from the catalog the server serves, and a score-sheet kit that
// reads fields as the page does. Not part of the app (no module of it
// imports this).
import en from '../../domain/i18n/locales/en.json';
import {t, tlist, term, useCatalog, type Catalog} from './i18n';
import {number, nums, ticked} from './fields';
import type {SheetKit, Words} from './screen';

useCatalog('en', en as Catalog);

// english are the Table's words, as a player reading English sees them.
export const english: Words = {t, tlist, term};

// sheetKit is what a game's part of the score-sheet check is lent, less
// drawing its fields (a test reads what was typed, never a form).
export const sheetKit: SheetKit = {
  ...english, number, nums, ticked,
  input: () => { throw new Error('sheetKit draws no field'); },
  check: () => { throw new Error('sheetKit draws no field'); },
};
