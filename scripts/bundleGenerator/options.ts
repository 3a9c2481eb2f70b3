/** What to generate; see scripts/generateBundle.ts for the command line. */
export interface GenerateOptions {
  service: 'math' | 'genomics';
  /** Math: tasks; genomics: topics. */
  tasks: number;
  out: string;
  seed?: number;
  /** Approximate size of each report (and the uncompressed size of each checkpoint / 4). */
  artifactBytes?: number;
  /** Every large list in a JSONL file beside the manifest (default) or inline in it (math and genomics). */
  layout?: 'inline' | 'jsonl';
  /** Math run id; default `synthetic-s<seed>-n<tasks>`. */
  runId?: string;
  /** Genomics batch; default `batch-<100 + seed>`. */
  batch?: string;
}

export interface GeneratedBundle {
  dir: string;
  id: string;
  counts: Record<string, number>;
}
