import type { ImportProgress } from '../importCommon';

export { type ImportProgress, importProgressQuery } from '../importCommon';

export interface ImportGenomicsBundleInput {
  /** Folder of the bundle as the worker sees it. */
  bundleDir: string;
}

export interface ImportGenomicsBundleResult extends ImportProgress {
  bundleId: string;
  unchanged: boolean;
  topics: number;
  topicsCreated: number;
  measurements: number;
  reports: number;
  revisions: number;
  publications: number;
}

/** One import workflow per bundle of a batch: importing the same bundle again while it runs joins it. */
export const importGenomicsBundleWorkflowId = (batch: string, bundleId: string): string =>
  `import/genomics/${batch}/${bundleId}`;
