// Completing a listed move from parts, by the one rule of the LegalMove
// schema (openapi.yaml): start from the entry's move; pick parts of
// pools[choose.pool] one at a time, each at most once, never one whose
// excludes meet the entry's holds or the excludes of a part already picked;
// append each picked part's add to the move's arrays; pick at least min and
// at most max parts, both raised by the owes of the parts picked so far, and
// stop short of the minimum only when no part may be picked any more. The
// generic screen and the shell's corrections build moves with it; a client
// never builds a move otherwise.
import type {components} from './api.gen';

export type LegalMove = components['schemas']['LegalMove'];
export type Part = components['schemas']['LegalMovePart'];
export type Pools = components['schemas']['LegalMovePools'];

// partsOf is the pool an entry's parts come from (none for a complete move).
export function partsOf(pools: Pools | undefined, entry: LegalMove): Part[] {
  return entry.choose ? (pools && pools[entry.choose.pool]) || [] : [];
}

// owed is how many parts more than choose.min/max the picked parts ask for.
function owed(parts: Part[], picked: readonly number[]): number {
  return picked.reduce((n, i) => n + (parts[i].owes || 0), 0);
}

// pickable lists the indexes of the parts that may be picked next.
export function pickable(pools: Pools | undefined, entry: LegalMove, picked: readonly number[]): number[] {
  if (!entry.choose) return [];
  const parts = partsOf(pools, entry);
  if (picked.length >= entry.choose.max + owed(parts, picked)) return [];
  const held = new Set(entry.holds || []);
  for (const i of picked) for (const x of parts[i].excludes || []) held.add(x);
  const out: number[] = [];
  parts.forEach((p, i) => {
    if (!picked.includes(i) && !(p.excludes || []).some((x) => held.has(x))) out.push(i);
  });
  return out;
}

// ready says whether the move may be sent with the parts picked: enough of
// them, or no part may be picked any more.
export function ready(pools: Pools | undefined, entry: LegalMove, picked: readonly number[]): boolean {
  if (!entry.choose) return true;
  const parts = partsOf(pools, entry);
  return picked.length >= entry.choose.min + owed(parts, picked) || pickable(pools, entry, picked).length === 0;
}

// complete is the move to send: the entry's move with the picked parts
// added, in the order picked.
export function complete(pools: Pools | undefined, entry: LegalMove, picked: readonly number[]): Record<string, unknown> {
  const move: Record<string, unknown> = {...entry.move};
  const parts = partsOf(pools, entry);
  for (const i of picked) {
    for (const [k, v] of Object.entries(parts[i].add)) {
      const had = move[k];
      move[k] = [...(Array.isArray(had) ? had : []), v];
    }
  }
  return move;
}
