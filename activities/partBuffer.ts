/**
 * One part's bytes, written in place. An export keeps one per part in flight and reuses it once its part was sent,
 * so its lines are encoded straight into memory allocated once per export, not into a Buffer per line that a copy
 * per part then joins (the garbage that made the worker's young generation grow during an export).
 */
export class PartBuffer {
  private buffer: Buffer;
  private used = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  get size(): number {
    return this.used;
  }

  /** Empties the buffer for the next part: the view {@link bytes} returned before is overwritten from here on. */
  reset(): void {
    this.used = 0;
  }

  /** Appends `text` as UTF-8, growing the buffer when a line does not fit (a part ends after a whole line). */
  append(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.used + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + bytes));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    this.used += this.buffer.write(text, this.used);
  }

  /** The bytes appended since the last reset: a view, valid until the next reset. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.used);
  }
}
