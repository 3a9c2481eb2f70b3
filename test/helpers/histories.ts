import { temporal } from '@temporalio/proto';

export type History = temporal.api.history.v1.IHistory;
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
