import type { ProblemList } from './common';
import type { RecordPlace } from './records';
import { StringOrdinals } from './stringOrdinals';

/**
 * Where each of a set of numbered things (a list's records by ordinal, say) was first seen; reports each repeat.
 * Places are a line in `linesOf`, the JSONL file most records come from (a number, so a million records cost no
 * million strings), or `<file> <path>` / `<file>:<line>` otherwise.
 */
export class FirstPlaces {
  private readonly places: Array<number | string | undefined> = [];
  private linesOf: string | undefined;

  constructor(
    private readonly problems: ProblemList,
    private readonly what: string,
  ) {}

  /** Records where `index` (shown as `shown`) was seen; false, with the repeat reported, when it was before. */
  add(index: number, shown: string, file: string, path: string, line?: number): boolean {
    const first = this.places[index];
    if (first !== undefined) {
      const where = typeof first === 'number' ? `${this.linesOf}:${first}` : first;
      this.problems.at(file, path, `duplicate ${this.what} "${shown}" (first at ${where})`, line);
      return false;
    }
    // Filled up to the index rather than assigned past the end, which would turn the array into a dictionary.
    while (this.places.length < index) this.places.push(undefined);
    this.places[index] =
      line !== undefined && (this.linesOf ??= file) === file
        ? line
        : line === undefined
          ? `${file} ${path}`
          : `${file}:${line}`;
    return true;
  }
}

/**
 * Reports each repeated key after its first occurrence, and numbers the keys in the order first seen, so what a
 * check keeps per key can be an array by ordinal rather than another map of a million strings.
 */
export class UniqueKeys {
  private readonly ordinals = new StringOrdinals();
  private readonly firstPlaces: FirstPlaces;

  constructor(problems: ProblemList, what: string) {
    this.firstPlaces = new FirstPlaces(problems, what);
  }

  /** Records `key` (as `shown` in messages); false when it was seen before. */
  add(key: string, file: string, path: string, shown = key, line?: number): boolean {
    // A repeated key gets its first number back, whose place FirstPlaces has: the repeat is reported there.
    return this.firstPlaces.add(this.ordinals.add(key), shown, file, path, line);
  }

  /** `add` for the record at `place`, whose `field` holds the key. */
  addAt(key: string, place: RecordPlace, field: string, shown = key): boolean {
    return this.add(key, place.file, `${place.path}.${field}`, shown, place.line);
  }

  has(key: string): boolean {
    return this.ordinals.has(key);
  }

  /** The key's place in the order keys were first seen (0, 1, …); undefined for a key never added. */
  ordinalOf(key: string): number | undefined {
    return this.ordinals.get(key);
  }
}
