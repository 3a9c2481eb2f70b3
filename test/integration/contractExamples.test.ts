import { contractDocuments } from '../helpers/contract';
import { g, genomicsActors, type GenomicsActors, nextTopicNumber, topicPath } from '../helpers/genomics';
import { type DemoWorld, setupDemoWorld } from '../helpers/reliability';
import { http, mintKey, startStack, type TestStack } from '../helpers/stack';

/**
 * Every named request example of the published contracts, sent to the running service in an order where each
 * applies, and accepted. Only values that name live records (versions, member, client, assignment and note
 * ids, the topic number) are replaced; every other field is sent as the contract shows it.
 */

type Json = Record<string, any>;
type Examples = Record<string, { summary: string; value: Json }>;

let stack: TestStack;
let world: DemoWorld;
let actors: GenomicsActors;

beforeAll(async () => {
  stack = await startStack();
  world = await setupDemoWorld(stack);
  actors = await genomicsActors(stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** The named examples of one operation's JSON body, as published. */
function examplesOf(service: 'math' | 'genomics', template: string, method: string): Examples {
  const operation = (contractDocuments()[service] as unknown as Json).paths[template][method];
  return operation.requestBody.content['application/json'].examples as Examples;
}

describe('math: one example per workflow action', () => {
  const ACTIONS = [
    'assign',
    'start',
    'feedback',
    'verdict',
    'reopen',
    'client',
    'unassign',
    'archive',
    'restore',
  ];

  it('publishes exactly these examples on every path of the action', () => {
    for (const template of ['/api/math/tasks/{task_id}', '/api/math/tasks/{task_id}/workflow']) {
      expect(Object.keys(examplesOf('math', template, 'post')).sort()).toEqual([...ACTIONS].sort());
    }
  });

  it('accepts each one, in workflow order', async () => {
    const examples = examplesOf('math', '/api/math/tasks/{task_id}', 'post');
    const task = 'demo-q3-a';
    let version = (await http(stack, 'GET', `/api/math/tasks/${task}`, { token: world.math.owner })).body
      .version;
    for (const name of ACTIONS) {
      const body: Json = { ...examples[name].value, version };
      if (body.assignee_id) body.assignee_id = world.ids.rui;
      if (body.client_id) body.client_id = world.ids.clientId;
      const res = await http(stack, 'POST', `/api/math/tasks/${task}`, { token: world.math.owner, body });
      expect([name, res.status === 200 ? 'accepted' : res.body]).toEqual([name, 'accepted']);
      expect(res.body.task.version).toBeGreaterThan(version);
      version = res.body.task.version;
    }
  });
});

describe('genomics: one example per mutation', () => {
  it('accepts each one, in an order where each applies', async () => {
    const example = (template: string, method: string) => {
      const examples = examplesOf('genomics', template, method);
      const names = Object.keys(examples);
      expect(names).toHaveLength(1);
      return examples[names[0]].value;
    };
    const send = async (method: 'POST' | 'PUT', path: string, body: Json, token = actors.owner) => {
      const res = await g(stack, method, path, { token, body });
      const accepted = res.status === 200 || res.status === 201;
      expect([path, accepted ? 'accepted' : res.body]).toEqual([path, 'accepted']);
      return res.body;
    };

    const created = await send('POST', '/api/v1/topics', {
      ...example('/api/v1/topics', 'post'),
      topic: nextTopicNumber(),
    });
    const uid = created.topicUid as string;
    await send('PUT', topicPath(uid), example('/api/v1/topics/{topicUid}', 'put'));
    await send('PUT', topicPath(uid, '/tags'), example('/api/v1/topics/{topicUid}/tags', 'put'));
    const note = await send(
      'POST',
      topicPath(uid, '/notes'),
      example('/api/v1/topics/{topicUid}/notes', 'post'),
    );
    await send(
      'PUT',
      topicPath(uid, `/notes/${note.recordId}`),
      example('/api/v1/topics/{topicUid}/notes/{noteId}', 'put'),
    );
    const assigned = await send('PUT', topicPath(uid, '/reviewer'), {
      ...example('/api/v1/topics/{topicUid}/reviewer', 'put'),
      reviewerId: actors.ruiId,
    });
    await send(
      'POST',
      topicPath(uid, '/reviews'),
      { ...example('/api/v1/topics/{topicUid}/reviews', 'post'), assignmentId: assigned.assignmentId },
      actors.reviewer,
    );
    await send('POST', topicPath(uid, '/decision'), example('/api/v1/topics/{topicUid}/decision', 'post'));
    await send('POST', topicPath(uid, '/reopen'), example('/api/v1/topics/{topicUid}/reopen', 'post'));
    await send(
      'POST',
      topicPath(uid, '/revisions'),
      example('/api/v1/topics/{topicUid}/revisions', 'post'),
      actors.reviewer,
    );
    await send(
      'PUT',
      topicPath(uid, '/disposition'),
      example('/api/v1/topics/{topicUid}/disposition', 'put'),
    );
    // The example asks for 30 days: the issuing key must outlive that (test keys expire within hours).
    const issuer = await mintKey(stack, 'genomics', 'idp|ada', { expiresInMs: 60 * 86_400_000 });
    await send('POST', '/api/v1/keys', example('/api/v1/keys', 'post'), issuer.token);
  });

  it('documents the Idempotency-Key format where a client first needs it', () => {
    const parameters = (contractDocuments().genomics as unknown as Json).components.parameters;
    expect(parameters.IdempotencyKey.description).toContain('16 to 128 characters of `A-Z a-z 0-9 . _ : -`');
  });
});
