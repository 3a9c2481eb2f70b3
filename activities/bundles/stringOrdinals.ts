import { randomBytes } from 'node:crypto';

/** Per process, so a bundle cannot be written to make every key land in one run of slots. */
const HASH_SEED = randomBytes(4).readUInt32LE(0);

const INITIAL_KEYS = 1024;
const INITIAL_TEXT_BYTES = 64 * 1024;
/** Typed arrays and the text buffer grow by half again when full: less slack at a million keys than doubling. */
const GROWTH = 1.5;

/**
 * Strings numbered in the order they were first added (0, 1, …): a bundle check's set of a million ids. An ASCII
 * key's bytes are appended to one buffer and its number kept in an open-addressing table of 32-bit slots, far less
 * per key than a `Map<string, number>` holds (every key a heap string of its own, plus an entry in the map's table;
 * docs/benchmark.md, "What keeps the worker's memory flat"). Lookups compare the bytes, so the numbering is exact.
 * Any other key (ids are ASCII; a reference may not be) goes in a Map, numbered from the same sequence.
 */
export class StringOrdinals {
  private text = Buffer.allocUnsafe(INITIAL_TEXT_BYTES);
  private textLength = 0;
  /** Key i's bytes are text[starts[i], starts[i + 1]); `starts[size]` is where the next key goes. */
  private starts = new Uint32Array(INITIAL_KEYS + 1);
  private hashes = new Uint32Array(INITIAL_KEYS);
  /** A key's number plus one per slot, 0 when empty; never more than half full, so probes stay short. */
  private slots = new Uint32Array(INITIAL_KEYS * 2);
  private readonly others = new Map<string, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The number `key` was given when added; undefined if it never was. */
  get(key: string): number | undefined {
    const ordinal = this.find(key, asciiHashOf(key));
    return ordinal < 0 ? undefined : ordinal;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Adds `key` if it is new; returns its number either way. */
  add(key: string): number {
    const hash = asciiHashOf(key);
    const known = this.find(key, hash);
    if (known >= 0) return known;
    const ordinal = this.count;
    if (ordinal + 1 >= this.hashes.length) this.growKeys();
    if (hash === NOT_ASCII) this.others.set(key, ordinal);
    else {
      if ((ordinal + 1) * 2 > this.slots.length) this.growSlots();
      if (this.textLength + key.length > this.text.length) this.growText(key.length);
      this.text.write(key, this.textLength, 'latin1');
      this.textLength += key.length;
      this.hashes[ordinal] = hash;
      this.place(ordinal, hash);
    }
    this.starts[ordinal + 1] = this.textLength;
    this.count += 1;
    return ordinal;
  }

  /** The number of `key` (whose `asciiHashOf` is `hash`), or -1. */
  private find(key: string, hash: number): number {
    if (hash === NOT_ASCII) return this.others.get(key) ?? -1;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === 0) return -1;
      if (this.hashes[entry - 1] === hash && this.holds(entry - 1, key)) return entry - 1;
    }
  }

  /** Whether key number `ordinal` is the ASCII string `key`. */
  private holds(ordinal: number, key: string): boolean {
    const start = this.starts[ordinal];
    if (this.starts[ordinal + 1] - start !== key.length) return false;
    for (let i = 0; i < key.length; i += 1) if (this.text[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private place(ordinal: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = ordinal + 1;
  }

  private growKeys(): void {
    const capacity = Math.ceil(this.hashes.length * GROWTH);
    const starts = new Uint32Array(capacity + 1);
    starts.set(this.starts.subarray(0, this.count + 1));
    this.starts = starts;
    const hashes = new Uint32Array(capacity);
    hashes.set(this.hashes.subarray(0, this.count));
    this.hashes = hashes;
  }

  /** Doubles the table (a power of two, for the mask) and places its keys again from their stored hashes. */
  private growSlots(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (const entry of old) if (entry !== 0) this.place(entry - 1, this.hashes[entry - 1]);
  }

  private growText(needed: number): void {
    const text = Buffer.allocUnsafe(Math.max(Math.ceil(this.text.length * GROWTH), this.textLength + needed));
    this.text.copy(text, 0, 0, this.textLength);
    this.text = text;
  }
}

const NOT_ASCII = -1;

/** FNV-1a over the characters from a per-process seed, as an unsigned 32-bit number; NOT_ASCII for other keys. */
function asciiHashOf(key: string): number {
  let hash = (0x811c9dc5 ^ HASH_SEED) >>> 0;
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    if (code >= 0x80) return NOT_ASCII;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash >>> 0;
}
