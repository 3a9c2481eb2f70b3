/**
 * Runs async sections one at a time inside a workflow. Update handlers that await an activity
 * interleave otherwise, and two of them could both decide from the same state.
 */
export class SerialLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section, section);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
