// An independent check of Treasury's digital games, written from
// docs/fairness.md alone: it shares no code with the server. Given a game
// record (GET /v1/games/{id}/record) of a finished digital game, it checks
// that the seed and salt revealed at the end are the ones committed to at
// creation, re-deals the game from the seed, and checks every random outcome
// the record shows (cards dealt, drawn and taken, dice rolled) against it.
//
//   node scripts/fairness/fairness.mjs record.json [events.txt]
//   node scripts/fairness/fairness.mjs --vector
//
// record.json is GET /v1/games/{id}/record of an ended digital game;
// events.txt, optional, is its whole event stream (GET /v1/games/{id}/events
// with Accept: text/event-stream and Last-Event-ID: 0), which shows what the
// record does not: Silver & Gold's display cards and expedition cards, and
// every card Colorful Treasure turned over. --vector prints the test vector
// of docs/fairness-vector.json.
//
// It prints one line per check and exits 1 when any check fails.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const MASK32 = 0xffffffffn;
const MASK64 = (1n << 64n) - 1n;

const sha256 = (s) => createHash("sha256").update(s).digest();

// --- ChaCha8Rand (C2SP chacha8rand) ------------------------------------

const rotl = (x, n) => ((x << n) | (x >>> (32 - n))) >>> 0;

// chacha8Block returns the 16 words of one ChaCha8 block of key (8 words)
// with a zero nonce, without the final addition of the constants and the
// counter (chacha8rand subtracts them again).
function chacha8Block(key, counter) {
  const init = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, ...key, counter, 0, 0, 0];
  const x = init.slice();
  const qr = (a, b, c, d) => {
    x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 7);
  };
  for (let round = 0; round < 4; round++) { // 4 double rounds: 8 rounds
    qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
    qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
  }
  for (let i = 4; i < 12; i++) x[i] = (x[i] + init[i]) >>> 0; // the key words only
  return x;
}

// ChaCha8Rand yields the generator's Uint64 values for a 32-byte seed.
class ChaCha8Rand {
  constructor(seed) {
    this.key = [];
    for (let i = 0; i < 8; i++) this.key.push(seed.readUInt32LE(4 * i));
    this.buf = [];
    this.pos = 0;
  }
  refill() {
    const words = []; // 16 blocks, four at a time, word by word
    for (let group = 0; group < 4; group++) {
      const blocks = [0, 1, 2, 3].map((b) => chacha8Block(this.key, 4 * group + b));
      for (let w = 0; w < 16; w++) for (let b = 0; b < 4; b++) words.push(blocks[b][w]);
    }
    this.key = words.slice(248); // the last 32 bytes key the next iteration
    this.buf = [];
    for (let i = 0; i < 248; i += 2) this.buf.push(BigInt(words[i]) | (BigInt(words[i + 1]) << 32n));
    this.pos = 0;
  }
  uint64() {
    if (this.pos >= this.buf.length) this.refill();
    return this.buf[this.pos++];
  }
}

// --- the seeded streams of docs/fairness.md ----------------------------

// stream returns the stream of seed for label in a ruleset's domain.
export function stream(domain, seed, label) {
  return new ChaCha8Rand(sha256(Buffer.from(`${domain}\0${label}\0${seed}`, "utf8")));
}

// uniform returns an unbiased integer in [0, n) (Lemire's method).
export function uniform(s, n) {
  const un = BigInt(n);
  const thresh = ((1n << 64n) - un) % un;
  for (;;) {
    const p = s.uint64() * un;
    if ((p & MASK64) >= thresh) return Number(p >> 64n);
  }
}

// shuffle is Fisher–Yates from the end, in place.
export function shuffle(s, items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = uniform(s, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export const commitment = (seed, salt) => sha256(Buffer.from(salt + seed, "utf8")).toString("hex");

// --- the games ----------------------------------------------------------

const SG = "silver-and-gold/v1";
const LTH = "lucky-treasure-hunter/v1";
const CT = "colorful-treasure/v1";

// Silver & Gold: the catalog's card ids in file order.
export function silverGoldCards(content) {
  return content.split("\n").filter((l) => l.startsWith("card ")).map((l) => l.split(/\s+/)[1]);
}

// silverGoldDeal returns the cards dealt to each seat (4 each) and the rest.
export function silverGoldDeal(seed, ids, players) {
  const deck = shuffle(stream(SG, seed, "deal"), ids.map((_, i) => i)).map((i) => ids[i]);
  const hands = [];
  for (let p = 0; p < players; p++) hands.push(deck.splice(0, 4));
  return { hands, rest: deck };
}

// silverGoldExpeditions returns the order the 8 expedition cards come up in
// round (1-4), by their codes.
export function silverGoldExpeditions(seed, round) {
  const cards = ["D2", "I3", "I3", "L3", "L3", "T4", "L4", "O4"];
  return shuffle(stream(SG, seed, `expeditions/${round}`), cards);
}

// Lucky Treasure Hunter: the pile, top first.
const TREASURES = ["silver", "gold", "pearl", "ruby", "jade"];
export function luckyPile(seed, players) {
  const counts = [18, 17, 16, 14, 12];
  const extra = [5, 4, 4, 4, 3];
  const pile = [];
  TREASURES.forEach((t, i) => {
    for (let k = 0; k < counts[i] + (players > 4 ? extra[i] : 0); k++) pile.push(t);
  });
  return shuffle(stream(LTH, seed, "pile"), pile);
}

export function luckyRoll(seed, n, dice, pirateFaces) {
  const s = stream(LTH, seed, `roll/${n}`);
  return Array.from({ length: dice }, () => (uniform(s, 6) < pirateFaces ? "pirate" : "blank"));
}

// Colorful Treasure: each wonder's column, top row first.
export function colorfulGrid(seed, content, junior) {
  return content.split("\n").filter((l) => l.startsWith("wonder ")).map((l, c) => {
    const [, wonder, lock, ...colours] = l.trim().split(/\s+/);
    const kinds = ["diamond", ...(junior ? [] : [lock]), ...colours];
    return { wonder, cards: shuffle(stream(CT, seed, `column/${c}`), kinds) };
  });
}

// --- checking a record --------------------------------------------------

// parseEvents reads a game's event stream as text/event-stream.
export function parseEvents(text) {
  const out = [];
  for (const chunk of text.split(/\r?\n\r?\n/)) {
    let event = "message", data = "";
    for (const line of chunk.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    if (data) out.push({ event, data: JSON.parse(data) });
  }
  return out;
}

// check checks a record, and with events (the ended game's whole event
// stream) every outcome the events show too.
export function check(record, events) {
  const out = [];
  const ok = (good, what) => out.push({ ok: !!good, what });
  if (record.mode !== "digital") return [{ ok: false, what: `a ${record.mode} game has no seed to check` }];
  if (!record.seed) return [{ ok: false, what: "the record reveals no seed: the game has not ended" }];
  const salt = record.seed_salt ?? "";
  ok(commitment(record.seed, salt) === record.seed_commitment,
    `the commitment ${record.seed_commitment} is SHA-256(salt || seed)`);
  const moves = record.moves.map((m) => m.move);
  const players = record.players.length;
  switch (record.ruleset) {
    case "silver-and-gold": {
      const { hands, rest } = silverGoldDeal(record.seed, silverGoldCards(record.catalog.content), players);
      const kept = new Map();
      for (const m of moves.filter((m) => m.type === "keep")) {
        ok(m.cards.every((c) => hands[m.seat].includes(c)), `seat ${m.seat} kept ${m.cards} from the 4 dealt: ${hands[m.seat]}`);
        kept.set(m.seat, m.cards); // a seat may change its choice until all have kept
      }
      if (!events || kept.size < players) break;
      // The cards given back join the rest, seat by seat, and the deck is
      // shuffled; the display and every draw from the deck come off its top.
      const deck = rest.concat(...hands.map((h, seat) => h.filter((c) => !kept.get(seat).includes(c))));
      shuffle(stream(SG, record.seed, "deck"), deck);
      for (const e of events) {
        if (e.event === "display_card") {
          const want = deck.shift();
          ok(e.data.card === want, `the display was dealt ${e.data.card} (the deck's top: ${want})`);
        } else if (e.event === "move" && e.data.move.type === "take" && e.data.move.from === "deck") {
          const m = moves[e.data.seq - 1] ?? e.data.move; // the record's move, placed by the stream
          const want = deck.shift();
          ok(m.card === want, `seat ${m.seat} drew ${m.card} from the deck (the deck's top: ${want})`);
        } else if (e.event === "expedition_revealed") {
          const want = silverGoldExpeditions(record.seed, e.data.round)[e.data.turn - 1];
          ok(e.data.expedition.code === want, `round ${e.data.round} turn ${e.data.turn} revealed ${e.data.expedition.code} (the seed: ${want})`);
        }
      }
      break;
    }
    case "lucky-treasure-hunter": {
      const pile = luckyPile(record.seed, players);
      const opts = typeof record.options === "object" && record.options ? record.options : {};
      const pirates = opts.pirate_faces ?? 3;
      let top = 5 * players + 3; // dealt: 5 to each seat, then 3 to the middle
      let roll = 0;
      for (const m of moves) {
        if (Array.isArray(m.drawn) && m.drawn.length > 0) {
          const want = pile.slice(top, top + m.drawn.length);
          ok(want.join() === m.drawn.join(), `seat ${m.seat} drew ${m.drawn} (the pile's next: ${want})`);
          top += m.drawn.length;
        }
        if (Array.isArray(m.faces)) {
          roll++;
          const want = luckyRoll(record.seed, roll, m.faces.length, pirates);
          ok(want.join() === m.faces.join(), `roll ${roll} showed ${m.faces} (the seed rolls ${want})`);
        }
      }
      break;
    }
    case "colorful-treasure": {
      const opts = typeof record.options === "object" && record.options ? record.options : {};
      const grid = colorfulGrid(record.seed, record.catalog.content, opts.variant === "junior");
      for (const m of moves.filter((m) => m.type === "rob" && m.card)) {
        const col = grid.find((c) => c.wonder === m.card.wonder);
        ok(col && col.cards.includes(m.card.kind), `${m.card.wonder} holds the ${m.card.kind} seat ${m.seat} robbed`);
      }
      for (const e of (events ?? []).filter((e) => e.event === "cards_revealed")) {
        for (const c of e.data.cards) {
          const want = grid[c.column]?.cards[c.row];
          ok(c.kind === want, `${c.wonder} row ${c.row + 1} showed ${c.kind} (the seed put ${want} there)`);
        }
      }
      break;
    }
    default:
      ok(false, `unknown ruleset ${record.ruleset}`);
  }
  return out;
}

// vector is the test vector of docs/fairness.md.
export function vector() {
  const seed = "fairness-test-vector", salt = "00112233445566778899aabbccddeeff";
  const s = stream(LTH, seed, "pile");
  return {
    seed, salt,
    commitment: commitment(seed, salt),
    first_uint64s_of_lucky_pile_stream: [0, 1, 2].map(() => s.uint64().toString(16).padStart(16, "0")),
    lucky_pile_top_8_for_3_players: luckyPile(seed, 3).slice(0, 8),
    lucky_rolls_1_to_3_of_3_dice: [1, 2, 3].map((n) => luckyRoll(seed, n, 3, 3)),
    silver_gold_dealt_of_2_players: silverGoldDeal(seed, silverGoldCards(readFileSync(new URL("../../domain/silvergold/catalogs/standard.cards", import.meta.url), "utf8")), 2).hands,
    silver_gold_expeditions_round_1: silverGoldExpeditions(seed, 1),
    colorful_column_0_of_standard: colorfulGrid(seed, "wonder great-wall key green blue purple\n", false)[0].cards,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = process.argv[2];
  if (arg === "--vector") {
    console.log(JSON.stringify(vector(), null, 2));
  } else if (!arg) {
    console.error("usage: node fairness.mjs record.json [events.txt] | --vector");
    process.exit(2);
  } else {
    let record;
    try {
      record = JSON.parse(readFileSync(arg === "-" ? 0 : arg, "utf8"));
    } catch (e) {
      console.error(`cannot read the record ${arg}: ${e.message}`);
      process.exit(2);
    }
    let events;
    if (process.argv[3]) {
      try {
        events = parseEvents(readFileSync(process.argv[3], "utf8"));
      } catch (e) {
        console.error(`cannot read the events ${process.argv[3]}: ${e.message}`);
        process.exit(2);
      }
    }
    const results = check(record, events);
    for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.what}`);
    const failed = results.filter((r) => !r.ok).length;
    console.log(`${results.length - failed} passed, ${failed} failed`);
    process.exit(failed > 0 ? 1 : 0);
  }
}
