import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MovableInput } from '../versioning';
import type { MathAction, MathActor, MathTaskState } from './state';

/** Start argument (and continue-as-new argument) of a math task workflow. */
export interface MathTaskWorkflowInput extends MovableInput {
  taskId: string;
  runId: string;
  /** The projection read from PostgreSQL when the workflow is first started; carried state afterwards. */
  state: MathTaskState;
  /** Receipts of the most recent updates, so a retried update id is answered after continue-as-new too. */
  recentReceipts?: MathActionReceipt[];
}

export interface MathActionRequest {
  expectedVersion: number;
  action: MathAction;
  actor: MathActor;
}

/** What a committed action returns; also stored per update id for deduplication. */
export interface MathActionReceipt {
  updateId: string;
  taskId: string;
  version: number;
  action: MathAction['action'];
}

export const applyMathActionUpdate = defineUpdate<MathActionReceipt, [MathActionRequest]>('applyMathAction');
export const mathTaskStateQuery = defineQuery<MathTaskState>('mathTaskState');
