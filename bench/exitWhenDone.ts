/**
 * Runs a bench program's `main` and exits with its code (0 when it returns none), or prints why it failed
 * (`<label> failed: <stack>`) and exits 1: child processes and open handles never keep a finished run alive.
 */
export function exitWhenDone(main: () => Promise<number | void>, label?: string): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(label ? `${label} failed: ${why}` : why);
      process.exit(1);
    },
  );
}
