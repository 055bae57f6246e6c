// A generic client of Treasury in TypeScript: it plays any ruleset the
// server offers, in both modes, to the end, from the legal-move listings and
// the event stream alone. It has no line of code for any game: it reads who
// is awaited and what is listed, takes a listed move (completing it from the
// listing's pools by the rule of the LegalMove schema), and posts it. Its
// types come from the spec the server serves (openapi-typescript writes
// treasury.d.ts; see api/typescript_test.go).
//
//   node tableclient.js http://127.0.0.1:8080 [ruleset mode players]
//
// Without a ruleset it plays every ruleset of GET /v1/rulesets in every mode.
import type { components } from "./treasury";

type Schemas = components["schemas"];
type Listing = { version: number; seat: number; awaiting: Schemas["Await"][]; moves: Schemas["LegalMove"][]; pools: Schemas["LegalMovePools"] };

declare const process: { argv: string[]; exit(code: number): never };
declare function setTimeout(f: () => void, ms: number): unknown;
declare class TextDecoder { decode(b?: Uint8Array, o?: { stream: boolean }): string }

const base = process.argv[2];
let requests = 0;

async function call<T>(method: string, path: string, body?: unknown, credential?: string, extra: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...extra };
  if (credential) headers["Authorization"] = "Bearer " + credential;
  requests++;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
}

// owed says whether the listed seat (the host, for seat -1) is awaited.
function owed(l: Listing): boolean {
  return l.awaiting.some((a) => (l.seat < 0 ? a.actor === "host" : a.actor === "seat" && a.seat === l.seat));
}

// complete builds the body to post from a listed entry, by the rule of the
// LegalMove schema, choosing parts at random.
function complete(l: Listing, e: Schemas["LegalMove"]): Record<string, unknown> {
  const move: Record<string, unknown> = { ...e.move };
  if (!e.choose) return move;
  const pool = l.pools[e.choose.pool] ?? [];
  const held = new Set(e.holds ?? []);
  const taken = new Set<number>();
  let n = 0;
  let owes = 0;
  while (n < e.choose.max + owes) {
    const open = pool.map((p, i) => i).filter((i) => !taken.has(i) && !(pool[i].excludes ?? []).some((x) => held.has(x)));
    if (open.length === 0 || (n >= e.choose.min + owes && Math.random() < 0.5)) break;
    const i = open[Math.floor(Math.random() * open.length)];
    taken.add(i);
    const part = pool[i];
    for (const x of part.excludes ?? []) held.add(x);
    for (const [k, v] of Object.entries(part.add)) move[k] = [...((move[k] as unknown[]) ?? []), v];
    n++;
    owes += part.owes ?? 0;
  }
  return move;
}

// events yields the server-sent events of a game as the credential may read them.
async function* events(id: string, credential: string): AsyncGenerator<{ event: string; data: string }> {
  const r = await fetch(`${base}/v1/games/${id}/events?legal_moves=true`, { headers: { Accept: "text/event-stream", Authorization: "Bearer " + credential } });
  if (!r.ok || !r.body) throw new Error(`event stream: ${r.status}`);
  const reader = (r.body as unknown as { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } }).getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let end: number;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const chunk = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let event = "message";
      let data = "";
      for (const line of chunk.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data += line.slice(5).trim();
      }
      if (data) yield { event, data };
    }
  }
}

// forward is the listing's entries that play on: a correction (a take-back,
// a mis-draw report) puts a slip right, and this client makes none.
function forward(l: Listing): Listing["moves"] {
  return l.moves.filter((e) => !e.correction);
}

// act plays one credential until its stream ends with the game.
async function act(id: string, credential: string, tally: { moves: number; refused: number }): Promise<void> {
  for await (const ev of events(id, credential)) {
    if (ev.event !== "legal_moves") continue;
    let l = JSON.parse(ev.data) as Listing;
    for (let tries = 0; tries < 20 && owed(l) && forward(l).length > 0; tries++) {
      const moves = forward(l);
      const e = moves[Math.floor(Math.random() * moves.length)];
      const move = complete(l, e);
      let r = await call<Schemas["Problem"]>("POST", `/v1/games/${id}/moves`, move, credential, { Prefer: "return=minimal" });
      while (r.status === 429) {
        // Nothing was applied: wait as long as the server says, then send it again.
        await new Promise<void>((done) => setTimeout(() => done(), Math.max(1, r.body.retry_after_ms ?? 1000)));
        r = await call<Schemas["Problem"]>("POST", `/v1/games/${id}/moves`, move, credential, { Prefer: "return=minimal" });
      }
      if (r.status === 200) {
        tally.moves++;
        break;
      }
      if (r.status !== 409 && r.status !== 412 && r.status !== 422) throw new Error(`${e.label}: ${r.status} ${JSON.stringify(r.body)}`);
      tally.refused++; // the game moved on under it: read the listing again
      l = (await call<Listing>("GET", `/v1/games/${id}/legal-moves`, undefined, credential)).body;
    }
  }
}

async function play(ruleset: string, mode: Schemas["Mode"], players: number): Promise<void> {
  const start = requests;
  const req: Schemas["CreateGameRequest"] = { ruleset, mode, players: Array.from({ length: players }, (_, i) => ({ name: `Player ${i + 1}` })) };
  const created = await call<Schemas["Created"]>("POST", "/v1/games", req);
  if (created.status !== 201) throw new Error(`create ${ruleset} ${mode}: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.game.id;
  const creds = [...created.body.credentials.seats];
  if (mode === "physical") creds.push(created.body.credentials.host);
  const tally = { moves: 0, refused: 0 };
  await Promise.all(creds.map((c) => act(id, c, tally)));
  const game = (await call<Schemas["Game"]>("GET", `/v1/games/${id}`)).body;
  if (!game.ended || game.awaiting.length !== 0) throw new Error(`${ruleset} ${mode}: every stream ended, and the game has not: ${JSON.stringify(game.awaiting)}`);
  const per = (requests - start - 2) / tally.moves; // moves posted and listings read again; not the creation and the final read
  console.log(`ok: ${ruleset} ${mode} ${players} players: game ${id} ended after ${tally.moves} moves (turn ${game.turn_number}), ${per.toFixed(2)} requests per move, ${tally.refused} refused`);
}

async function main(): Promise<void> {
  if (process.argv[3]) {
    await play(process.argv[3], (process.argv[4] ?? "digital") as Schemas["Mode"], Number(process.argv[5] ?? 2));
    return;
  }
  const list = (await call<Schemas["RulesetList"]>("GET", "/v1/rulesets")).body;
  for (const r of list.rulesets) {
    for (const mode of r.modes) await play(r.name, mode, Math.max(r.min_players, Math.min(3, r.max_players)));
  }
}

main().catch((e) => {
  console.error(String(e));
  process.exit(1);
});
