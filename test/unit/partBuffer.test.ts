import { PartBuffer } from '../../activities/partBuffer';

describe('PartBuffer', () => {
  it('holds the UTF-8 bytes of the lines appended since the last reset', () => {
    const part = new PartBuffer(16);
    part.append('{"a":1}\n');
    part.append('{"b":"é"}\n');
    expect(part.bytes().toString('utf8')).toBe('{"a":1}\n{"b":"é"}\n');
    expect(part.size).toBe(Buffer.byteLength('{"a":1}\n{"b":"é"}\n'));
    part.reset();
    part.append('x\n');
    expect(part.bytes().toString('utf8')).toBe('x\n');
  });

  it('grows when a line does not fit, keeping what it held', () => {
    const part = new PartBuffer(4);
    const long = `${'ü'.repeat(300)}\n`;
    part.append('ab');
    part.append(long);
    expect(part.bytes().toString('utf8')).toBe(`ab${long}`);
    expect(part.size).toBe(2 + Buffer.byteLength(long));
  });
});
