import { createHash, randomBytes } from 'node:crypto';
import { ResumableSha256 } from '../../storage/resumableSha256';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('ResumableSha256', () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 100_000])(
    'gives the SHA-256 of %i bytes',
    (size) => {
      const data = randomBytes(size);
      expect(new ResumableSha256().update(data).hex()).toBe(sha256(data));
    },
  );

  it('gives the same digest when the bytes are split, saved and restored at any points', () => {
    const data = randomBytes(20_000);
    for (let trial = 0; trial < 50; trial++) {
      const cuts = [0, ...Array.from({ length: 5 }, () => Math.floor(Math.random() * data.length))]
        .sort((a, b) => a - b)
        .concat(data.length);
      let state = new ResumableSha256().save();
      for (let i = 1; i < cuts.length; i++) {
        state = ResumableSha256.restore(state)
          .update(data.subarray(cuts[i - 1], cuts[i]))
          .save();
      }
      const resumed = ResumableSha256.restore(state);
      expect(resumed.length).toBe(data.length);
      expect(resumed.hex()).toBe(sha256(data));
    }
  });

  it('leaves the hash usable after hex()', () => {
    const hash = new ResumableSha256().update(Buffer.from('abc'));
    expect(hash.hex()).toBe(sha256(Buffer.from('abc')));
    hash.update(Buffer.from('def'));
    expect(hash.hex()).toBe(sha256(Buffer.from('abcdef')));
  });

  it('refuses a state that is not one', () => {
    expect(() => ResumableSha256.restore(Buffer.alloc(10))).toThrow('not a saved SHA-256 state');
    expect(() => ResumableSha256.restore(Buffer.alloc(41))).toThrow('not a saved SHA-256 state');
  });
});
