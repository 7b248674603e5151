/**
 * The id index of a RecordMap: a hash array mapped trie (HAMT) from an id to its position in the
 * map's entry vector. 32-bit FNV-1a hash, 5 bits per level, bitmap + popcount nodes; ids whose
 * hashes are equal share a bucket. Immutable: adding an id copies one path. No delete.
 */
type Leaf = { readonly kind: 0; readonly key: string; readonly hash: number; readonly at: number };
type Branch = { readonly kind: 1; readonly bitmap: number; readonly slots: readonly Slot[] };
type Collision = { readonly kind: 2; readonly hash: number; readonly leaves: readonly Leaf[] };
type Slot = Leaf | Branch | Collision;

const BITS = 5;
const MASK = (1 << BITS) - 1;

export type HashIndex = Branch;
export const EMPTY_INDEX: HashIndex = { kind: 1, bitmap: 0, slots: [] };

/** FNV-1a over UTF-16 code units: deterministic, no dependency. */
export function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function withSlot(slots: readonly Slot[], at: number, slot: Slot, insert: boolean): Slot[] {
  const copy = slots.slice();
  if (insert) copy.splice(at, 0, slot);
  else copy[at] = slot;
  return copy;
}

/** The position stored for `key` (whose hash is `hash`), or -1. */
export function positionOf(root: HashIndex, key: string, hash: number): number {
  let slot: Slot = root;
  for (let shift = 0; ; shift += BITS) {
    if (slot.kind === 0) return slot.key === key ? slot.at : -1;
    if (slot.kind === 2) return slot.hash === hash ? (slot.leaves.find((leaf) => leaf.key === key)?.at ?? -1) : -1;
    const bit = 1 << ((hash >>> shift) & MASK);
    if ((slot.bitmap & bit) === 0) return -1;
    slot = slot.slots[bitCount(slot.bitmap & (bit - 1))];
  }
}

/** A node holding two slots with different keys whose hashes agree below `shift`. */
function merged(a: Leaf | Collision, b: Leaf, shift: number): Slot {
  if (a.hash === b.hash) return { kind: 2, hash: b.hash, leaves: a.kind === 2 ? [...a.leaves, b] : [a, b] };
  const [fa, fb] = [(a.hash >>> shift) & MASK, (b.hash >>> shift) & MASK];
  if (fa === fb) return { kind: 1, bitmap: 1 << fa, slots: [merged(a, b, shift + BITS)] };
  return { kind: 1, bitmap: (1 << fa) | (1 << fb), slots: fa < fb ? [a, b] : [b, a] };
}

/** `branch` with `leaf` (a key it does not hold) added. */
function inserted(branch: Branch, leaf: Leaf, shift: number): Branch {
  const bit = 1 << ((leaf.hash >>> shift) & MASK);
  const at = bitCount(branch.bitmap & (bit - 1));
  if ((branch.bitmap & bit) === 0)
    return { kind: 1, bitmap: branch.bitmap | bit, slots: withSlot(branch.slots, at, leaf, true) };
  const child = branch.slots[at];
  const next = child.kind === 1 ? inserted(child, leaf, shift + BITS) : merged(child, leaf, shift + BITS);
  return { kind: 1, bitmap: branch.bitmap, slots: withSlot(branch.slots, at, next, false) };
}

/** `index` with `key` (an id it does not hold yet) at position `at`. */
export function withPosition(index: HashIndex, key: string, hash: number, at: number): HashIndex {
  return inserted(index, { kind: 0, key, hash, at }, 0);
}
