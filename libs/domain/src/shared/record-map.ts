/**
 * An immutable map from string ids to records, in insertion order, with structural sharing:
 * `set` copies O(log32 n) small nodes instead of the whole collection, and `changedSince`
 * walks only the nodes two versions do not share. Records are never deleted from an agent,
 * so there is no delete. JSON is a plain object (`toJSON`); `RecordMap.from` reads it back.
 *
 * Two structures: a persistent 32-ary vector of `[id, value]` entries in insertion order, and a
 * hash array mapped trie (HAMT, hash-index.ts) from id to its position in the vector. Changing
 * the value of a known id copies one vector path and leaves the trie shared; a new id appends
 * to both.
 */
import { EMPTY_INDEX, type HashIndex, hashOf, positionOf, withPosition } from './hash-index';

export type Entry<T> = readonly [string, T];

type VectorNode<T> = ReadonlyArray<VectorNode<T> | Entry<T>>;

const BITS = 5;
const MASK = (1 << BITS) - 1;

// ---- The vector: `shift` is the level of the root (0: the root holds entries).

function entryAt<T>(root: VectorNode<T>, shift: number, at: number): Entry<T> {
  let node = root;
  for (let level = shift; level > 0; level -= BITS) node = node[(at >>> level) & MASK] as VectorNode<T>;
  return node[at & MASK] as Entry<T>;
}

function pathTo<T>(shift: number, entry: Entry<T>): VectorNode<T> {
  return shift === 0 ? [entry] : [pathTo(shift - BITS, entry)];
}

/** `node` with `entry` at position `at` (at most one past its last entry), copying one path. */
function withEntry<T>(node: VectorNode<T> | undefined, shift: number, at: number, entry: Entry<T>): VectorNode<T> {
  if (node === undefined) return pathTo(shift, entry);
  const copy = node.slice();
  if (shift === 0) copy[at & MASK] = entry;
  else
    copy[(at >>> shift) & MASK] = withEntry(
      node[(at >>> shift) & MASK] as VectorNode<T> | undefined,
      shift - BITS,
      at,
      entry,
    );
  return copy;
}

/** The node of a vector at `level` whose first position is `base`, or undefined. */
function nodeAt<T>(
  root: VectorNode<T>,
  shift: number,
  size: number,
  level: number,
  base: number,
): VectorNode<T> | undefined {
  if (level > shift || base >= size) return undefined;
  let node: VectorNode<T> | undefined = root;
  for (let at = shift; at > level && node !== undefined; at -= BITS)
    node = node[(base >>> at) & MASK] as VectorNode<T> | undefined;
  return node;
}

export class RecordMap<T> implements Iterable<Entry<T>> {
  readonly #root: VectorNode<T>;
  readonly #shift: number;
  readonly #size: number;
  readonly #index: HashIndex;

  private constructor(root: VectorNode<T>, shift: number, size: number, index: HashIndex) {
    this.#root = root;
    this.#shift = shift;
    this.#size = size;
    this.#index = index;
  }

  static empty<T>(): RecordMap<T> {
    return new RecordMap<T>([], 0, 0, EMPTY_INDEX);
  }

  /** A map of a plain object's own entries (in its key order), or of `[id, value]` pairs in order. */
  static from<T>(source: Readonly<Record<string, T>> | Iterable<readonly [string, T]>): RecordMap<T> {
    const entries =
      Symbol.iterator in source
        ? (source as Iterable<readonly [string, T]>)
        : Object.entries(source as Record<string, T>);
    let map = RecordMap.empty<T>();
    for (const [id, value] of entries) map = map.set(id, value);
    return map;
  }

  get size(): number {
    return this.#size;
  }

  /** The value under `id` (own ids only: `constructor` is an id like any other), or undefined. */
  get(id: string | null | undefined): T | undefined {
    if (typeof id !== 'string') return undefined;
    const at = positionOf(this.#index, id, hashOf(id));
    return at < 0 ? undefined : entryAt(this.#root, this.#shift, at)[1];
  }

  has(id: string | null | undefined): boolean {
    return typeof id === 'string' && positionOf(this.#index, id, hashOf(id)) >= 0;
  }

  /** The map with `value` under `id` (a new id goes last); `this` when it already holds that very value. */
  set(id: string, value: T): RecordMap<T> {
    const hash = hashOf(id);
    const at = positionOf(this.#index, id, hash);
    if (at >= 0) {
      if (entryAt(this.#root, this.#shift, at)[1] === value) return this;
      return new RecordMap(withEntry(this.#root, this.#shift, at, [id, value]), this.#shift, this.#size, this.#index);
    }
    const size = this.#size;
    const index = withPosition(this.#index, id, hash, size);
    if (size > 0 && size === 1 << (this.#shift + BITS)) {
      return new RecordMap([this.#root, pathTo(this.#shift, [id, value])], this.#shift + BITS, size + 1, index);
    }
    return new RecordMap(withEntry(this.#root, this.#shift, size, [id, value]), this.#shift, size + 1, index);
  }

  /** The map with `change` applied to the value under `id`; `this` for an unknown id. */
  update(id: string, change: (value: T) => T): RecordMap<T> {
    const at = positionOf(this.#index, id, hashOf(id));
    return at < 0 ? this : this.set(id, change(entryAt(this.#root, this.#shift, at)[1]));
  }

  entries(): Array<Entry<T>> {
    const out: Array<Entry<T>> = [];
    this.#collect(this.#root, this.#shift, out);
    return out;
  }

  keys(): string[] {
    return this.entries().map(([id]) => id);
  }

  values(): T[] {
    return this.entries().map(([, value]) => value);
  }

  [Symbol.iterator](): Iterator<Entry<T>> {
    return this.entries()[Symbol.iterator]();
  }

  /**
   * NOTE: stored format (snapshots). A plain object built in insertion order, as the object
   * this map replaced was: `JSON.stringify` of a state is unchanged.
   */
  toJSON(): Record<string, T> {
    const out: Record<string, T> = {};
    for (const [id, value] of this.entries()) {
      if (id === '__proto__')
        Object.defineProperty(out, id, { value, enumerable: true, writable: true, configurable: true });
      else out[id] = value;
    }
    return out;
  }

  /**
   * The entries of this map that `older` lacks or holds a different value for (by identity), in
   * insertion order. Only the vector nodes the two maps do not share are visited, so a version
   * derived from `older` by k changes costs O(k log n).
   */
  changedSince(older: RecordMap<T>): Array<Entry<T>> {
    const out: Array<Entry<T>> = [];
    if (older === this) return out;
    const counterpart = (level: number, base: number) => nodeAt(older.#root, older.#shift, older.#size, level, base);
    const walk = (node: VectorNode<T>, level: number, base: number, same: VectorNode<T> | undefined): void => {
      if (node === same) return;
      for (let i = 0; i < node.length; i++) {
        if (level === 0) {
          const entry = node[i] as Entry<T>;
          if (entry !== same?.[i] && older.get(entry[0]) !== entry[1]) out.push(entry);
        } else {
          const childBase = base + (i << level);
          const child =
            same === undefined ? counterpart(level - BITS, childBase) : (same[i] as VectorNode<T> | undefined);
          walk(node[i] as VectorNode<T>, level - BITS, childBase, child);
        }
      }
    };
    walk(this.#root, this.#shift, 0, counterpart(this.#shift, 0));
    return out;
  }

  #collect(node: VectorNode<T>, level: number, out: Array<Entry<T>>): void {
    if (level === 0) for (const entry of node) out.push(entry as Entry<T>);
    else for (const child of node) this.#collect(child as VectorNode<T>, level - BITS, out);
  }
}

/** A plain object's own entries as a RecordMap, or a RecordMap as it is. */
export function recordMapOf<T>(value: RecordMap<T> | Readonly<Record<string, T>> | null | undefined): RecordMap<T> {
  if (value instanceof RecordMap) return value;
  return value === null || value === undefined ? RecordMap.empty<T>() : RecordMap.from(value);
}

/** An id a plain object enumerates before every other key, in ascending numeric order (an array index). */
const isArrayIndex = (id: string): boolean => /^(?:0|[1-9][0-9]*)$/.test(id) && Number(id) < 4294967295;

/**
 * The values in the order `Object.values` gave them when the records were plain objects:
 * array-index ids ascending first, then insertion order. Only for the few readers that never
 * sorted (a `find`, an unsorted listing), so their output stays what it was; costs O(n).
 */
export function valuesInObjectOrder<T>(map: RecordMap<T>): T[] {
  const entries = map.entries();
  const indexed = entries.filter(([id]) => isArrayIndex(id)).sort(([a], [b]) => Number(a) - Number(b));
  return [...indexed, ...entries.filter(([id]) => !isArrayIndex(id))].map(([, value]) => value);
}
