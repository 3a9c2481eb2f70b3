import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineUpdate,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { TRANSITIONS_PER_RUN } from '../../workflows/taskEntity';

/** The mutation baseline's update: returns what it was sent, with no activity and no validator. */
export const echoUpdate = defineUpdate<unknown, [unknown]>('echo');

/** The task workflows' run length, so both sides of the mutation pair continue as new equally often. */
const UPDATES_PER_RUN = TRANSITIONS_PER_RUN;

/** A running workflow that answers `echo` updates: the least a Workflow Update can cost. */
export async function benchEchoWorkflow(): Promise<void> {
  let updates = 0;
  setHandler(echoUpdate, (payload: unknown) => {
    updates += 1;
    return payload;
  });
  await condition(() => updates >= UPDATES_PER_RUN || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  await continueAsNew<typeof benchEchoWorkflow>();
}
