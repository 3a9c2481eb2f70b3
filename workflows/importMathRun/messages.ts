import { defineQuery } from '@temporalio/workflow';

export interface ImportMathRunInput {
  /** Folder of the bundle as the worker sees it. */
  bundleDir: string;
}

export interface ImportProgress {
  phase: 'planning' | 'uploading' | 'upserting' | 'done';
  runId: string | null;
  artifactsTotal: number;
  artifactsStored: number;
  bytesUploaded: number;
  tasks: number;
}

export interface ImportMathRunResult extends ImportProgress {
  unchanged: boolean;
}

export const importProgressQuery = defineQuery<ImportProgress>('importProgress');

/** One import workflow per run: a second import of the same run is the same workflow id. */
export const importMathRunWorkflowId = (runId: string): string => `import/math/${runId}`;
