import { existsSync, readFileSync, rmSync } from 'node:fs';

/**
 * Test-only fault points of the persisting activities. `REFEREE_TEST_FAULT_FILE` names a file the fault test
 * writes (`{"point": …, "updateId": …}`); the worker that reaches that point for that update deletes the file and
 * SIGKILLs itself, once. Unset (production), every point is a no-op: the variable is read only by the worker
 * process at start, and nothing the API receives can set it.
 */
export type FaultPoint = 'before-commit' | 'after-commit';

const faultFile = process.env.REFEREE_TEST_FAULT_FILE;

export const faultPoint: (point: FaultPoint, updateId: string) => void = faultFile
  ? (point, updateId) => {
      if (!existsSync(faultFile)) return;
      const armed = JSON.parse(readFileSync(faultFile, 'utf8')) as { point: FaultPoint; updateId: string };
      if (armed.point !== point || armed.updateId !== updateId) return;
      rmSync(faultFile, { force: true });
      process.kill(process.pid, 'SIGKILL');
    }
  : () => undefined;
