/** A failure the CLI reports as such: exit code 1 (2 for usage), `code` and `detail` in the `--json` error. */
export class OpsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
  get exitCode(): number {
    return 1;
  }
}

/** The command line itself is wrong (a missing argument, an unknown option or value): exit code 2. */
export class UsageError extends OpsError {
  constructor(message: string, detail: Record<string, unknown> = {}) {
    super('usage', message, detail);
  }
  override get exitCode(): number {
    return 2;
  }
}

/** Where a command's result goes: human text on stdout, or with `--json` exactly one JSON document. */
export interface Output {
  json: boolean;
  result(human: string, data: Record<string, unknown>): void;
  /** Human-only remarks (progress, notes); stderr, so stdout stays the result alone. */
  note(line: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(human, data) {
      process.stdout.write(json ? `${JSON.stringify({ ok: true, ...data })}\n` : `${human}\n`);
    },
    note(line) {
      process.stderr.write(`${line}\n`);
    },
  };
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
