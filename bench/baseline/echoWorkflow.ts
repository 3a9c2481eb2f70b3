import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineUpdate,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';

/** The mutation baseline's update: returns what it was sent, with no activity and no validator. */
export const echoUpdate = defineUpdate<unknown, [unknown]>('echo');

/** Same history bound as the task workflows, so a long run never hits the server's update limits. */
const UPDATES_PER_RUN = 500;

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
