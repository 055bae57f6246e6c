// The one interface between the table app's shell (game.ts: reading the
// game, its event stream, sending moves, the host's and the seat's panels
// every game shares) and a game's screen (domain/<game>/app/screen.ts). A
// screen gets a Table, and draws from it alone: it never sees the shell's
// own state. web/src/games.gen.ts lists the screens by ruleset; a game
// without one is played with the generic screen (generic.ts).
import type {components} from './api.gen';
import type {Params} from './i18n';

// Schemas are the spec's schemas: a screen types its view, listing, score
// and events from them (SilverGoldView, SilverGoldLegal, …).
export type Schemas = components['schemas'];

// Game is GET /v1/games/{id} as this viewer is allowed to see it; its state
// is the game's own view (each screen narrows it to its schema).
export type Game<State = SharedState> = Omit<Schemas['Game'], 'state'> & {state: State};
// SharedState is what the shell reads of every game's view (the players'
// names, where the game stands); a screen reads its own schema.
export type SharedState = {players?: readonly {name?: string}[]; round?: number; turn?: number; phase?: string};
// Bag is what a screen keeps between draws when it says no more (ui, memo).
export type Bag = Record<string, unknown>;
// Listing is what every game's answer to GET /v1/games/{id}/legal-moves
// has: the moves as the generic rule of LegalMove completes them.
export type Listing = {
  version: number;
  ruleset: string;
  seat?: number | null;
  awaiting: Schemas['Await'][];
  moves: Schemas['LegalMove'][];
  pools: Schemas['LegalMovePools'];
};
// Legal is that answer with the game's own fields (action, placements, …).
export type Legal<Own = object> = Listing & Own;
// Score is GET /v1/games/{id}/score once the game has ended (a screen
// names its own schema as the Table's Sc).
export type Score<Own = Bag> = Own;
export type Role = 'host' | 'seat' | 'public';
// Move is a move as the API takes it: {type, …}.
export type Move = {type: string; [field: string]: unknown};

// Table is what a screen gets from the shell.
export interface Table<State = SharedState, Own = object, UI extends object = Bag, Memo extends object = Bag, Sc extends object = Bag> {
  // The game, as this viewer sees it.
  readonly view: Game<State>;
  // This viewer's legal moves (null for the public view).
  readonly legal: Legal<Own> | null;
  // The host's screen: the legal moves of the seats the screen's hostSeats
  // named, by seat (the host may act for them).
  readonly seatLegal: Readonly<Record<number, Legal<Own>>>;
  // The final score, once the game has ended.
  readonly score: Score<Sc> | null;
  readonly role: Role;
  // The seat this screen plays (null for the host and the public).
  readonly seat: number | null;
  // What the player is choosing now (cards tapped, a step of a move): kept
  // across redraws, emptied after each move this screen makes.
  readonly ui: UI;
  // What the screen keeps while it is open (a catalog, a peek shown until
  // the next move). The shell gives describe a copy when it says the log
  // again in another language.
  readonly memo: Memo;
  // Whether the screen has been closed (a listener should stop).
  readonly closed: boolean;
  // send sends a move; it resolves true once the game it led to is drawn,
  // false if it was refused (the shell shows why).
  send(move: Move): Promise<boolean>;
  // fail shows a problem to the player ('' clears it).
  fail(message: string): void;
  // redraw draws the screen again from the same game (after a tap).
  redraw(): void;
  // announce reads a line out to screen readers.
  announce(message: string): void;
  // heading is the screen's heading: the game's title and whom the screen
  // is for (the host, a player, a spectator); the page's title says it too.
  heading(title: string): HTMLElement;
  // playerName is the name of the player at a seat, or the seat's number.
  playerName(seat: number | null): string;
  // t is a key of the catalogs in the player's language; tlist joins words
  // as a sentence does; term is a game's word for an id.
  t(key: string, params?: Params | null): string;
  tlist(items: readonly string[]): string;
  term(prefix: string, id: string | number): string;
}

// Words are the Table's words alone, for a helper that draws no game.
export type Words = Pick<Table, 't' | 'tlist' | 'term'>;

// SheetKit is what the score-sheet page lends a game's part of its form:
// the words, and the fields every game's form is made of.
export interface SheetKit extends Words {
  // input is a labelled text field bound to o[key].
  input(o: Typed, id: string, key: string, label: string, hint?: string | null, attrs?: Record<string, unknown>): HTMLElement;
  // check is a labelled checkbox bound to value's membership in o[key].
  check(o: Typed, id: string, key: string, value: string, label: unknown, cls?: string): HTMLElement;
  // number reads a field holding one whole number, or nothing; nums one
  // holding numbers (a mistake throws, naming the field by label).
  number(text: unknown, label: string): number | undefined;
  nums(text: unknown, label: string): number[];
  // ticked is the list a check group fills in o[key] (empty if none).
  ticked(o: Typed, key: string): string[];
}

// Typed is what was typed into one player's part of the form, or the
// table's: a text field's text, a checkbox group's ticked values, whether a
// folded part is open.
export type Typed = {[field: string]: string | string[] | boolean | undefined};

// Column is a line of a game's answer to a checked sheet, read from one
// player's row (a method's type, so that a game's form, typed from its
// schema, is a SheetForm the page can hold).
type Column<Line> = {read(p: Line, k: SheetKit): string | number}['read'];

// SheetForm is a game's part of the score-sheet check (web/src/sheet.ts):
// what its paper tally holds, the sheet the API takes, its answer's lines.
// Data is what prepare reads; Line a player's row of the answer and Rank a
// place in its ranking (the game's schemas).
export interface SheetForm<Data extends object = Bag, Line = Bag, Rank = Bag> {
  // least is how many players a sheet holds at least.
  readonly least: number;
  // fold: each player's fields are folded under a heading (summary).
  readonly fold?: boolean;
  intro(k: SheetKit): string;
  summary?(p: Typed, k: SheetKit): string;
  // prepare reads what the fields need (a catalog), once per choice.
  prepare?(ruleset: {name: string}): Promise<Data>;
  // table draws the fields of the whole table (redraw: draw the form again).
  table?(tb: Typed, redraw: () => void, k: SheetKit): HTMLElement[];
  fields(i: number, p: Typed, data: Data, tb: Typed, k: SheetKit): (HTMLElement | null)[];
  // sheet and player turn what was typed into the API's sheet.
  sheet?(tb: Typed, k: SheetKit): Record<string, unknown>;
  player(p: Typed, tb: Typed, who: string, k: SheetKit): Record<string, unknown>;
  // columns are the answer's lines: a key of the catalogs and a player's value.
  readonly columns: readonly [string, Column<Line>][];
  // decided says what put a player below the one above (not shared).
  decided(r: Rank, above: string, k: SheetKit): string;
}

// Screen is what a game's screen module default-exports.
export interface Screen<State = SharedState, Own = object, UI extends object = Bag, Memo extends object = Bag, Sc extends object = Bag> {
  // The ruleset it draws (GET /v1/rulesets' name).
  readonly ruleset: string;
  // The events of the stream it describes in the log (the shell listens
  // for these and the table's own).
  readonly events?: readonly string[];
  // Whether every move event should read the game again (a game whose
  // events carry no version to compare).
  readonly refreshOnMove?: boolean;
  // Whether the log tells the game from its first move (the stream is read
  // from the start; the catch-up is not read out).
  readonly history?: boolean;
  // load runs once, before the first draw (fetch a catalog into memo).
  load?(table: Table<State, Own, UI, Memo, Sc>): Promise<void>;
  // where names what a move was chosen in: a move refused because the game
  // moved on (412, 409) is sent again while this is unchanged. The shell's
  // default is round/turn/phase/action.
  where?(table: Table<State, Own, UI, Memo, Sc>): string;
  // hostSeats names the seats whose legal moves the host's screen reads.
  hostSeats?(view: Game<State>): number[];
  // describe turns an event of the stream into a line of the log (null:
  // none).
  describe?(event: string, data: unknown, table: Table<State, Own, UI, Memo, Sc>): string | null;
  // render draws the screen: a heading first (the shell puts its own
  // panels under it).
  render(table: Table<State, Own, UI, Memo, Sc>): HTMLElement;
  // sheet is the game's part of the score-sheet check, if it has sheets.
  readonly sheet?: SheetForm;
}
