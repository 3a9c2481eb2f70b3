import { defineQuery } from '@temporalio/workflow';

export interface ImportGenomicsBundleInput {
  /** Folder of the bundle as the worker sees it. */
  bundleDir: string;
}

export interface GenomicsImportProgress {
  phase: 'planning' | 'uploading' | 'upserting' | 'done';
  bundleId: string | null;
  filesTotal: number;
  filesStored: number;
  bytesUploaded: number;
  topics: number;
}

export interface ImportGenomicsBundleResult extends GenomicsImportProgress {
  unchanged: boolean;
  topicsCreated: number;
  measurements: number;
  reports: number;
  revisions: number;
  publications: number;
}

export const genomicsImportProgressQuery = defineQuery<GenomicsImportProgress>('genomicsImportProgress');

/** One import workflow per bundle of a batch: importing the same bundle again while it runs joins it. */
export const importGenomicsBundleWorkflowId = (batch: string, bundleId: string): string =>
  `import/genomics/${batch}/${bundleId}`;
