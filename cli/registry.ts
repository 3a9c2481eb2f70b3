import type { AnyCommand } from './kernel/command';
import { exportTasks } from './commands/export';
import { importBundle } from './commands/import';
import { keysCreate, keysList, keysRevoke } from './commands/keys';
import { membersEndSessions, membersList, membersSync, membersUpsert } from './commands/members';
import { migrate } from './commands/migrate';
import { reconcile, status, verifyStorage } from './commands/operator';
import { scimTokensCreate, scimTokensList, scimTokensRevoke } from './commands/scimTokens';
import { workersRollback, workersRollout } from './commands/workers';
import {
  webhooksCreate,
  webhooksDelete,
  webhooksDeliveries,
  webhooksList,
  webhooksPause,
  webhooksRead,
  webhooksRedeliver,
  webhooksResume,
  webhooksRotate,
  webhooksUpdate,
} from './commands/webhooks';

/** Every `referee` command, in the order the usage text and docs/cli.md list them. */
export const COMMANDS: readonly AnyCommand[] = [
  migrate,
  membersList,
  membersUpsert,
  membersSync,
  membersEndSessions,
  keysCreate,
  keysList,
  keysRevoke,
  scimTokensCreate,
  scimTokensList,
  scimTokensRevoke,
  webhooksList,
  webhooksCreate,
  webhooksRead,
  webhooksUpdate,
  webhooksPause,
  webhooksResume,
  webhooksDelete,
  webhooksRotate,
  webhooksDeliveries,
  webhooksRedeliver,
  importBundle,
  exportTasks,
  reconcile,
  verifyStorage,
  status,
  workersRollout,
  workersRollback,
];

/** The options every command takes. */
export const GLOBAL_OPTIONS = {
  json: {
    type: 'boolean',
    summary:
      'stdout is exactly one JSON document: {"ok":true,...} or {"ok":false,"error":{...}} (import: progress as JSON Lines on stderr).',
  },
  help: {
    type: 'boolean',
    short: 'h',
    summary: "The command's help (without a command, the list of commands).",
  },
} as const;
