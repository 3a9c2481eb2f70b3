import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

export type History = temporal.api.history.v1.IHistory;
export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
export const HistoryMessage = temporal.api.history.v1.History;

/**
 * A history as a protobufjs plain object (enums as names, 64-bit integers and bytes as strings), for JSON files.
 * The SDK's `historyToJSON`/`historyFromJSON` fail in this install ("type must be a Type": @temporalio/common
 * and @temporalio/proto each carry their own protobufjs 8 copy), and the proto module's own conversion
 * round-trips exactly.
 */
export const historyToObject = (history: History) =>
  HistoryMessage.toObject(HistoryMessage.fromObject(history), {
    longs: String,
    enums: String,
    bytes: String,
  });

/** Every run of a workflow from `firstRunId` on, oldest first, following continue-as-new. */
export async function fetchRuns(client: Client, workflowId: string, firstRunId: string): Promise<History[]> {
  const runs: History[] = [];
  for (let runId: string | null | undefined = firstRunId; runId;) {
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs.push(history);
    const events: HistoryEvent[] = history.events ?? [];
    runId = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return runs;
}

/** The first update a history accepted, as its client sent it: name, arguments and update id. */
export function firstAcceptedUpdate(history: History): { name: string; args: unknown[]; updateId: string } {
  const accepted = (history.events ?? []).find((e) => e.workflowExecutionUpdateAcceptedEventAttributes)
    ?.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
  if (!accepted?.input?.name || !accepted.meta?.updateId) throw new Error('the history accepted no update');
  const payloads = accepted.input.args?.payloads ?? [];
  return {
    name: accepted.input.name,
    args: payloads.map((payload) => defaultPayloadConverter.fromPayload(payload)),
    updateId: accepted.meta.updateId,
  };
}

/** Whether a history holds an update completed with a failure (refused by its handler, not its validator). */
export const hasRefusedUpdate = (history: History): boolean =>
  (history.events ?? []).some(
    (e) => e.workflowExecutionUpdateCompletedEventAttributes?.outcome?.failure != null,
  );
