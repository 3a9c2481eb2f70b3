import { join } from 'node:path';
import { projectRoot } from '../../infra/paths';
import type { Scope } from '../../entities/types';
import { http, importBundle, memberId, mintKey, seedMembers, type TestStack } from './stack';

export const LISTS_FIXTURE_DIR = join(projectRoot, 'test', 'fixtures', 'math-lists');

/** Keys and ids of the list fixture: an admin, an owner and three reviewers with assigned tasks. */
export interface ListsFixture {
  admin: string;
  owner: string;
  rui: string;
  sofia: string;
  tomas: string;
  /** An owner key without the `read` scope. */
  ownerNoRead: string;
  /** An owner key without the `write` scope. */
  ownerNoWrite: string;
  ids: { rui: string; sofia: string; tomas: string };
  clients: { acme: string; beta: string };
}

/** The version of a task as the caller sees it (via the API). */
export async function taskVersion(stack: TestStack, token: string, taskId: string): Promise<number> {
  const res = await http(stack, 'GET', `/api/math/tasks/${taskId}`, { token });
  if (res.status !== 200) throw new Error(`GET task ${taskId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.version as number;
}

/** Applies a workflow action at the task's current version; fails the test on anything but 200. */
export async function act(
  stack: TestStack,
  token: string,
  taskId: string,
  body: Record<string, unknown>,
): Promise<any> {
  const version = await taskVersion(stack, token, taskId);
  const res = await http(stack, 'POST', `/api/math/tasks/${taskId}`, { token, body: { version, ...body } });
  if (res.status !== 200)
    throw new Error(`${String(body.action)} ${taskId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createClient(stack: TestStack, token: string, name: string): Promise<string> {
  const res = await http(stack, 'POST', '/api/math/clients', { token, body: { name } });
  if (res.status !== 201) throw new Error(`create client ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/**
 * Imports runs A and B of the list fixture (10 tasks) and, through the API, gives three reviewers tasks
 * in different states. docs/math-api-shapes.md is not needed to read it; the table is in the test file.
 */
export async function setupListsFixture(stack: TestStack): Promise<ListsFixture> {
  await seedMembers(stack, {
    math: [
      {
        identity_id: 'idp|tomas',
        username: 'tomas',
        display_name: 'Tomas Reviewer',
        email: null,
        role: 'REVIEWER',
        enabled: true,
      },
    ],
  });
  await importBundle(stack, join(LISTS_FIXTURE_DIR, 'run-a'));
  await importBundle(stack, join(LISTS_FIXTURE_DIR, 'run-b'));
  const key = async (identity: string, scopes?: Scope[]) =>
    (await mintKey(stack, 'math', identity, { scopes })).token;
  const f: ListsFixture = {
    admin: await key('idp|ada'),
    owner: await key('idp|olga'),
    rui: await key('idp|rui'),
    sofia: await key('idp|sofia'),
    tomas: await key('idp|tomas'),
    ownerNoRead: await key('idp|olga', ['write']),
    ownerNoWrite: await key('idp|olga', ['read']),
    ids: {
      rui: await memberId(stack, 'math', 'idp|rui'),
      sofia: await memberId(stack, 'math', 'idp|sofia'),
      tomas: await memberId(stack, 'math', 'idp|tomas'),
    },
    clients: { acme: '', beta: '' },
  };
  f.clients.acme = await createClient(stack, f.owner, 'Acme');
  f.clients.beta = await createClient(stack, f.owner, 'Beta');

  const assignments: Array<[string, string]> = [
    ['la-01', f.ids.rui],
    ['la-03', f.ids.rui],
    ['lb-01', f.ids.rui],
    ['la-02', f.ids.sofia],
    ['la-04', f.ids.sofia],
    ['la-05', f.ids.tomas],
  ];
  for (const [taskId, assignee] of assignments)
    await act(stack, f.owner, taskId, { action: 'assign', assignee_id: assignee });
  await act(stack, f.owner, 'la-01', { action: 'client', client_id: f.clients.acme });
  await act(stack, f.owner, 'la-02', { action: 'client', client_id: f.clients.acme });
  await act(stack, f.owner, 'la-04', { action: 'client', client_id: f.clients.beta });
  await act(stack, f.rui, 'la-01', { action: 'verdict', decision: 'ACCEPTED', comment: 'Correct.' });
  await act(stack, f.rui, 'la-03', { action: 'feedback', comment: 'Check the base.' });
  await act(stack, f.sofia, 'la-02', { action: 'verdict', decision: 'REJECTED', comment: 'Off by one.' });
  await act(stack, f.tomas, 'la-05', {
    action: 'verdict',
    decision: 'ACCEPTED',
    comment: 'Fine, but unmapped.',
  });
  await act(stack, f.owner, 'la-04', { action: 'archive' });
  await act(stack, f.owner, 'la-06', { action: 'archive', comment: 'Nothing to review.' });
  return f;
}
