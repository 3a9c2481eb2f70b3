import { StringOrdinals } from '../../activities/bundles/stringOrdinals';

describe('StringOrdinals', () => {
  it('numbers keys in the order first added and finds each again', () => {
    const ordinals = new StringOrdinals();
    expect(ordinals.add('task-b')).toBe(0);
    expect(ordinals.add('task-a')).toBe(1);
    expect(ordinals.add('task-b')).toBe(0);
    expect(ordinals.size).toBe(2);
    expect(ordinals.get('task-a')).toBe(1);
    expect(ordinals.get('task-c')).toBeUndefined();
    expect(ordinals.has('task-b')).toBe(true);
  });

  it('tells apart keys that are prefixes of each other, and the empty key', () => {
    const ordinals = new StringOrdinals();
    for (const key of ['', 'a', 'ab', 'abc', 'b']) ordinals.add(key);
    expect(['', 'a', 'ab', 'abc', 'b', 'abcd', 'ba'].map((key) => ordinals.get(key))).toEqual([
      0,
      1,
      2,
      3,
      4,
      undefined,
      undefined,
    ]);
  });

  it('keeps non-ASCII keys exact, lone surrogates included, in the same numbering', () => {
    const ordinals = new StringOrdinals();
    expect(ordinals.add('plain')).toBe(0);
    expect(ordinals.add('\ud800')).toBe(1);
    expect(ordinals.add('\ud801')).toBe(2);
    expect(ordinals.add('café')).toBe(3);
    expect(ordinals.add('plain2')).toBe(4);
    expect(ordinals.get('\ud800')).toBe(1);
    expect(ordinals.get('\ud801')).toBe(2);
    expect(ordinals.get('\ufffd')).toBeUndefined();
    expect(ordinals.get('cafe')).toBeUndefined();
    expect(ordinals.get('café')).toBe(3);
    expect(ordinals.size).toBe(5);
  });

  it('agrees with a Map over 200,000 keys added with repeats, through every growth of its arrays', () => {
    const ordinals = new StringOrdinals();
    const expected = new Map<string, number>();
    // A fixed sequence of ids with repeats, near-misses and varying lengths.
    let state = 12345;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 200_000; i += 1) {
      const key = `s1n1000000-q${(next() % 150_000).toString().padStart(6, '0')}-t${next() % 3}${'x'.repeat(next() % 4)}`;
      if (!expected.has(key)) expected.set(key, expected.size);
      const ordinal = ordinals.add(key);
      if (ordinal !== expected.get(key))
        throw new Error(`${key} numbered ${ordinal}, not ${expected.get(key)}`);
    }
    expect(ordinals.size).toBe(expected.size);
    for (const [key, ordinal] of expected) if (ordinals.get(key) !== ordinal) throw new Error(`lost ${key}`);
    expect(ordinals.get('s1n1000000-q999999-t9')).toBeUndefined();
  });
});
