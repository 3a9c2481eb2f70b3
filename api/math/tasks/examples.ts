import type { ActionBody } from './schemas';

/**
 * One named request example per workflow action, shown in the contract and on /docs. `version` is the one the
 * client last read; ids name a member or client of the caller's service. A test sends each to the running
 * service (with its own task's version and ids) and expects it accepted.
 */
export const ACTION_EXAMPLES: Record<string, { summary: string; value: ActionBody }> = {
  assign: { summary: 'Assign a reviewer', value: { version: 0, action: 'assign', assignee_id: '2' } },
  start: { summary: 'Start the review (the assignee)', value: { version: 1, action: 'start' } },
  feedback: {
    summary: 'Leave feedback',
    value: { version: 2, action: 'feedback', comment: 'Step 3 needs a citation.' },
  },
  verdict: {
    summary: 'Give the verdict',
    value: { version: 3, action: 'verdict', decision: 'ACCEPTED', comment: 'Correct and complete.' },
  },
  reopen: {
    summary: 'Reopen a completed review',
    value: { version: 4, action: 'reopen', comment: 'The source was updated.' },
  },
  client: { summary: 'Link a client', value: { version: 5, action: 'client', client_id: '1' } },
  unassign: { summary: 'Remove the reviewer', value: { version: 6, action: 'assign', assignee_id: null } },
  archive: {
    summary: 'Archive the task',
    value: { version: 7, action: 'archive', comment: 'Duplicate task.' },
  },
  restore: { summary: 'Restore an archived task', value: { version: 8, action: 'restore', comment: null } },
};
