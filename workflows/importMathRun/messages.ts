import type { UpsertMathRunResult } from '../../activities/mathImport';
import type { ImportProgress } from '../importCommon';

export { type ImportProgress, importProgressQuery } from '../importCommon';

export interface ImportMathRunInput {
  /** Folder of the bundle as the worker sees it. */
  bundleDir: string;
}

export interface ImportMathRunResult extends ImportProgress {
  runId: string;
  unchanged: boolean;
  tasks: number;
  /** Rows inserted and updated per kind; rows equal to the bundle's are not touched. */
  changes: UpsertMathRunResult['changes'] | null;
}

/** One import workflow per run: a second import of the same run is the same workflow id. */
export const importMathRunWorkflowId = (runId: string): string => `import/math/${runId}`;
