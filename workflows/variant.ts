// Defined only in a bundle built with REFEREE_WORKFLOW_VARIANT (scripts/bundleWorkflows.ts).
declare const REFEREE_WORKFLOW_VARIANT: string | undefined;

/**
 * The test variant compiled into this bundle, '' for the code as written. `extra-upsert` is the rollout drill's
 * changed build (docs/workflow-evolution.md): its task workflows upsert their search attributes once more per
 * transition, a command the recorded histories lack, shipped with no patch.
 */
export const WORKFLOW_VARIANT: string =
  typeof REFEREE_WORKFLOW_VARIANT === 'string' ? REFEREE_WORKFLOW_VARIANT : '';
