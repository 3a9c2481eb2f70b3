import type { RunningServer } from '../../server';
import { waitFor } from '../helpers/imports';
import { httpVia, idempotencyKey, insertBulkKeys, startExtraServer } from '../helpers/keys';
import { http, memberId, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

const DAY_MS = 86_400_000;
const LONG = 400 * DAY_MS;

let stack: TestStack;
let second: RunningServer;
let admin: string;
let owner: string;
let reviewer: string;
let rui: string;
let sofia: string;
let olga: string;

const KEY_FIELDS = [
  'created_at',
  'expires_at',
  'id',
  'identity_id',
  'last_used_at',
  'member_id',
  'name',
  'revoked_at',
  'role',
  'scopes',
];

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack, {
    math: [
      {
        identity_id: 'idp|gone',
        username: 'gone',
        display_name: 'Gone Reviewer',
        email: null,
        role: 'REVIEWER',
        enabled: false,
      },
    ],
  });
  second = await startExtraServer(stack);
  admin = (await mintKey(stack, 'math', 'idp|ada', { expiresInMs: LONG })).token;
  owner = (await mintKey(stack, 'math', 'idp|olga', { expiresInMs: LONG })).token;
  reviewer = (await mintKey(stack, 'math', 'idp|rui', { expiresInMs: LONG })).token;
  rui = await memberId(stack, 'math', 'idp|rui');
  sofia = await memberId(stack, 'math', 'idp|sofia');
  olga = await memberId(stack, 'math', 'idp|olga');
});

afterAll(async () => {
  await second?.close();
  await stack?.stop();
});

const create = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  http(stack, 'POST', '/api/keys', { token, body, headers });

const keyRow = async (id: string) =>
  (
    await stack.dataSource.query(
      'SELECT revoked_at, expires_at, role, scopes, member_id::text FROM api_keys WHERE id = $1',
      [id],
    )
  )[0] as { revoked_at: Date | null; expires_at: Date; role: string; scopes: string[]; member_id: string };

describe('POST /api/keys', () => {
  it('defaults to a key for yourself with your role and scopes for 90 days, token shown once', async () => {
    const before = Date.now();
    const res = await create(owner, {});
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...KEY_FIELDS, 'token'].sort());
    expect(res.body).toMatchObject({
      member_id: olga,
      identity_id: 'idp|olga',
      name: 'API key',
      role: 'OWNER',
      revoked_at: null,
      last_used_at: null,
    });
    expect(res.body.scopes.sort()).toEqual(
      ['files:read', 'files:write', 'keys:manage', 'paths:read', 'read', 'write'].sort(),
    );
    expect(res.body.token).toMatch(/^rfm_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(res.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 90 * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS + 1000);

    const session = await http(stack, 'GET', '/api/auth/session', { token: res.body.token });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ role: 'OWNER', key: { id: res.body.id } });

    const listed = await http(stack, 'GET', `/api/keys/${res.body.id}`, { token: owner });
    expect(listed.body.token).toBeUndefined();
  });

  it('takes a name, a narrower role and scopes, and an expiry of 1 to 365 days', async () => {
    const res = await create(owner, {
      name: 'ci reader',
      role: 'REVIEWER',
      scopes: ['read'],
      expires_in_days: 365,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'ci reader', role: 'REVIEWER', scopes: ['read'] });
    expect(Date.parse(res.body.expires_at)).toBeGreaterThan(Date.now() + 364 * DAY_MS);
    expect((await create(owner, { expires_in_days: 1 })).status).toBe(201);
    for (const expires_in_days of [0, 366, 1.5, '30']) {
      const bad = await create(owner, { expires_in_days });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe('body.expires_in_days');
    }
  });

  it('validates the body: bounds of name and scopes, unknown fields, a bad role', async () => {
    expect((await create(owner, { name: 'n'.repeat(100) })).status).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'n'.repeat(101) }, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ scopes: ['read', 'read'] }, 'body.scopes.1'],
      [{ scopes: ['root'] }, 'body.scopes.0'],
      [{ role: 'ROOT' }, 'body.role'],
      [{ member_id: 'abc' }, 'body.member_id'],
      [{ identity_id: 'idp|ada' }, 'body.identity_id'],
    ];
    for (const [body, path] of cases) {
      const res = await create(owner, body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it('never grants a role or scopes above the issuer (403)', async () => {
    const above = await create(owner, { role: 'ADMIN' });
    expect(above.status).toBe(403);
    const narrow = (await mintKey(stack, 'math', 'idp|olga', { scopes: ['keys:manage', 'read'] })).token;
    const wider = await create(narrow, { scopes: ['read', 'write'] });
    expect(wider.status).toBe(403);
    expect(wider.body.detail).toMatch(/write/);
    const inherited = await create(narrow, {});
    expect(inherited.status).toBe(201);
    expect(inherited.body.scopes.sort()).toEqual(['keys:manage', 'read']);
  });

  it('caps an ADMIN-role key of a demoted member at the member’s role', async () => {
    const adminKeyOfOwner = (await mintKey(stack, 'math', 'idp|olga', { role: 'ADMIN' })).token;
    expect((await create(adminKeyOfOwner, { role: 'ADMIN' })).status).toBe(403);
    expect((await create(adminKeyOfOwner, {})).body.role).toBe('OWNER');
  });

  it('never outlives the issuer’s key: explicit longer expiry is 403, the default is shortened', async () => {
    const shortLived = (await mintKey(stack, 'math', 'idp|olga', { expiresInMs: 10 * DAY_MS + 3_600_000 }))
      .token;
    const refused = await create(shortLived, { expires_in_days: 11 });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('key_outlives_issuer');
    expect((await create(shortLived, { expires_in_days: 10 })).status).toBe(201);
    const byDefault = await create(shortLived, {});
    expect(byDefault.status).toBe(201);
    expect(Date.parse(byDefault.body.expires_at)).toBeLessThan(Date.now() + 11 * DAY_MS);
  });

  it('lets only an Admin name another member (403 for Owner and Reviewer)', async () => {
    for (const token of [owner, reviewer]) {
      const res = await create(token, { member_id: sofia });
      expect(res.status).toBe(403);
    }
    const ownOne = await create(reviewer, { member_id: rui });
    expect(ownOne.status).toBe(201);
    expect(ownOne.body.role).toBe('REVIEWER');
  });

  it('lets an Admin create a key for an enabled member, capped at that member’s role', async () => {
    const res = await create(admin, { member_id: sofia, name: 'for sofia' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ member_id: sofia, identity_id: 'idp|sofia', role: 'REVIEWER' });
    const session = await http(stack, 'GET', '/api/auth/session', { token: res.body.token });
    expect(session.body.member.identity_id).toBe('idp|sofia');

    const above = await create(admin, { member_id: sofia, role: 'OWNER' });
    expect(above.status).toBe(403);
    expect(above.body.code).toBe('key_exceeds_member');
  });

  it('refuses an Admin’s key for a non-member (404), a member of the other service (404) or a disabled one (400)', async () => {
    expect((await create(admin, { member_id: '999999' })).status).toBe(404);
    const genomicsRui = await memberId(stack, 'genomics', 'idp|rui');
    expect((await create(admin, { member_id: genomicsRui })).status).toBe(404);
    const gone = await create(admin, { member_id: await memberId(stack, 'math', 'idp|gone') });
    expect(gone.status).toBe(400);
    expect(gone.body.code).toBe('member_disabled');
  });

  it('answers a repeated creation with the same Idempotency-Key with 409 and no token', async () => {
    const headers = { 'idempotency-key': idempotencyKey('math-create') };
    const first = await create(owner, { name: 'once' }, headers);
    expect(first.status).toBe(201);
    const again = await create(owner, { name: 'once' }, headers);
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).not.toContain(first.body.token);
    const different = await create(owner, { name: 'other' }, headers);
    expect(different.status).toBe(409);
    const [{ count }] = await stack.dataSource.query(
      "SELECT count(*)::int FROM api_keys WHERE name = 'once'",
    );
    expect(count).toBe(1);
  });

  it('needs keys:manage (403) and a credential (401)', async () => {
    const noManage = (await mintKey(stack, 'math', 'idp|olga', { scopes: ['read', 'write'] })).token;
    expect((await create(noManage, {})).status).toBe(403);
    expect((await http(stack, 'POST', '/api/keys', { body: {} })).status).toBe(401);
  });

  it('holds at most 50 active keys per member; revoked and expired ones do not count (409)', async () => {
    await insertBulkKeys(stack, 'math', sofia, 5, 'revoked');
    await insertBulkKeys(stack, 'math', sofia, 5, 'expired');
    const [{ active }] = await stack.dataSource.query(
      'SELECT count(*)::int AS active FROM api_keys WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > now()',
      [sofia],
    );
    await insertBulkKeys(stack, 'math', sofia, 49 - active, 'active');
    const fiftieth = await create(admin, { member_id: sofia });
    expect(fiftieth.status).toBe(201);
    const fiftyFirst = await create(admin, { member_id: sofia });
    expect(fiftyFirst.status).toBe(409);
    expect(fiftyFirst.body).toMatchObject({ code: 'active_key_limit', limit: 50 });
    await http(stack, 'DELETE', `/api/keys/${fiftieth.body.id}`, { token: admin });
    expect((await create(admin, { member_id: sofia })).status).toBe(201);
  });
});

describe('GET /api/keys', () => {
  it('shows a Reviewer only their own keys, newest first, revoked and expired included', async () => {
    const expired = await mintKey(stack, 'math', 'idp|rui', { expiresInMs: -1000 });
    const revoked = await mintKey(stack, 'math', 'idp|rui');
    await stack.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [revoked.id]);
    const res = await http(stack, 'GET', '/api/keys', { token: reviewer });
    expect(res.status).toBe(200);
    expect(res.body.keys.every((k: { member_id: string }) => k.member_id === rui)).toBe(true);
    const ids = res.body.keys.map((k: { id: string }) => k.id);
    expect(ids).toEqual(expect.arrayContaining([expired.id, revoked.id]));
    const created = res.body.keys.map((k: { created_at: string }) => Date.parse(k.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Object.keys(res.body.keys[0]).sort()).toEqual(KEY_FIELDS);
  });

  it('shows an Admin the workspace’s keys, at most 500, and never the other service’s', async () => {
    await insertBulkKeys(stack, 'math', rui, 450, 'revoked');
    const res = await http(stack, 'GET', '/api/keys', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(500);
    const members = new Set(res.body.keys.map((k: { member_id: string }) => k.member_id));
    expect(members.has(olga)).toBe(true);
    const genomicsIds = await stack.dataSource.query("SELECT id FROM api_keys WHERE service = 'genomics'");
    const listed = new Set(res.body.keys.map((k: { id: string }) => k.id));
    expect(genomicsIds.some((r: { id: string }) => listed.has(r.id))).toBe(false);
  });

  it('refuses a query override of identity or role (400) and a key without keys:manage (403)', async () => {
    expect((await http(stack, 'GET', '/api/keys?member_id=1', { token: reviewer })).status).toBe(400);
    expect((await http(stack, 'GET', '/api/auth/session?role=ADMIN', { token: reviewer })).status).toBe(400);
    const noManage = (await mintKey(stack, 'math', 'idp|rui', { scopes: ['read'] })).token;
    expect((await http(stack, 'GET', '/api/keys', { token: noManage })).status).toBe(403);
  });
});

describe('GET /api/keys/{key_id}', () => {
  it('returns your own key, hides another member’s (404) unless you are Admin', async () => {
    const own = await mintKey(stack, 'math', 'idp|rui');
    const olgas = await mintKey(stack, 'math', 'idp|olga');
    expect((await http(stack, 'GET', `/api/keys/${own.id}`, { token: reviewer })).body.id).toBe(own.id);
    expect((await http(stack, 'GET', `/api/keys/${olgas.id}`, { token: reviewer })).status).toBe(404);
    const asAdmin = await http(stack, 'GET', `/api/keys/${olgas.id}`, { token: admin });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.identity_id).toBe('idp|olga');
  });

  it('is 400 for a key id that is not a uuid and 404 for an unknown one', async () => {
    expect((await http(stack, 'GET', '/api/keys/not-a-uuid', { token: admin })).status).toBe(400);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await http(stack, 'GET', `/api/keys/${unknown}`, { token: admin })).status).toBe(404);
  });
});

describe('DELETE /api/keys/{key_id}', () => {
  it('refuses the key at once in the answering process, and in another once its notification arrives', async () => {
    const key = await mintKey(stack, 'math', 'idp|olga');
    expect((await httpVia(second, stack, 'GET', '/api/auth/session', { token: key.token })).status).toBe(200);
    expect((await http(stack, 'GET', '/api/auth/session', { token: key.token })).status).toBe(200);
    const revoked = await http(stack, 'DELETE', `/api/keys/${key.id}`, { token: owner });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    // The answering process drops its entry before it responds (docs/keys.md).
    const next = await http(stack, 'GET', '/api/auth/session', { token: key.token });
    expect(next.status).toBe(401);
    expect(next.body.detail).toMatch(/revoked/);
    // Another process drops it when the commit's notification reaches its listener: under a millisecond on an
    // idle host, later on a loaded one (docs/keys.md); then it stays refused.
    const elsewhere = await waitFor(
      'the revoked key refused by the other API process',
      async () => {
        const answer = await httpVia(second, stack, 'GET', '/api/auth/session', { token: key.token });
        return answer.status === 401 && answer;
      },
      3_000,
      10,
    );
    expect(elsewhere.body.detail).toMatch(/revoked/);
    expect((await httpVia(second, stack, 'GET', '/api/auth/session', { token: key.token })).status).toBe(401);

    const other = await mintKey(stack, 'math', 'idp|olga');
    expect((await httpVia(second, stack, 'GET', '/api/auth/session', { token: other.token })).status).toBe(
      200,
    );
    expect((await httpVia(second, stack, 'DELETE', `/api/keys/${other.id}`, { token: owner })).status).toBe(
      200,
    );
    expect((await httpVia(second, stack, 'GET', '/api/auth/session', { token: other.token })).status).toBe(
      401,
    );
  });

  it('keeps the original revoked_at on a repeated revocation', async () => {
    const key = await mintKey(stack, 'math', 'idp|rui');
    const first = await http(stack, 'DELETE', `/api/keys/${key.id}`, { token: reviewer });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await httpVia(second, stack, 'DELETE', `/api/keys/${key.id}`, { token: reviewer });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(first.body.revoked_at);
    expect((await keyRow(key.id)).revoked_at!.toISOString()).toBe(first.body.revoked_at);
    const [{ count }] = await stack.dataSource.query(
      "SELECT count(*)::int FROM key_events WHERE key_id = $1 AND kind = 'revoked'",
      [key.id],
    );
    expect(count).toBe(1);
  });

  it('revokes the key in use: its later requests are refused', async () => {
    const key = await mintKey(stack, 'math', 'idp|olga');
    expect((await http(stack, 'DELETE', `/api/keys/${key.id}`, { token: key.token })).status).toBe(200);
    expect((await httpVia(second, stack, 'GET', '/api/keys', { token: key.token })).status).toBe(401);
  });

  it('hides another member’s key from a non-Admin (404, unchanged); an Admin revokes any', async () => {
    const olgas = await mintKey(stack, 'math', 'idp|olga');
    expect((await http(stack, 'DELETE', `/api/keys/${olgas.id}`, { token: reviewer })).status).toBe(404);
    expect((await keyRow(olgas.id)).revoked_at).toBeNull();
    expect((await http(stack, 'DELETE', `/api/keys/${olgas.id}`, { token: admin })).status).toBe(200);
    const [audit] = await stack.dataSource.query(
      "SELECT member_id::text, detail FROM identity_audit WHERE kind = 'key_revoked' AND key_id = $1",
      [olgas.id],
    );
    expect(audit).toMatchObject({ member_id: olga, detail: { revoked_by: 'idp|ada', own_key: false } });
  });
});

describe('GET /api/keys/{key_id}/events', () => {
  it('lists creation, write requests and revocation newest first; reads show only in last_used_at', async () => {
    const created = await create(owner, { name: 'evented' });
    const token = created.body.token as string;
    expect((await http(stack, 'GET', '/api/auth/session', { token })).status).toBe(200);
    expect((await http(stack, 'POST', '/api/keys', { token, body: { expires_in_days: 1 } })).status).toBe(
      201,
    );
    expect((await http(stack, 'POST', '/api/keys', { token, body: { role: 'ADMIN' } })).status).toBe(403);
    await http(stack, 'DELETE', `/api/keys/${created.body.id}`, { token: owner });
    await stack.server.deps.lastUsed.flush();

    const res = await http(stack, 'GET', `/api/keys/${created.body.id}/events`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { kind: string; status: number | null }) => [e.kind, e.status])).toEqual([
      ['revoked', null],
      ['write_request', 403],
      ['write_request', 201],
      ['created', null],
    ]);
    expect(res.body.events[1]).toMatchObject({ method: 'POST', path: '/api/keys' });
    expect(res.body.events[3].detail).toMatchObject({ name: 'evented', role: 'OWNER', issuer: 'idp|olga' });
    const key = await http(stack, 'GET', `/api/keys/${created.body.id}`, { token: owner });
    expect(key.body.last_used_at).not.toBeNull();
  });

  it('keeps the latest 100 events', async () => {
    const key = await mintKey(stack, 'math', 'idp|olga');
    await stack.dataSource.query(
      `INSERT INTO key_events (key_id, kind, method, path, status)
       SELECT $1, 'write_request', 'POST', '/api/keys', 201 FROM generate_series(1, 120)`,
      [key.id],
    );
    const res = await http(stack, 'GET', `/api/keys/${key.id}/events`, { token: owner });
    expect(res.body.events).toHaveLength(100);
    expect(res.body.events.some((e: { kind: string }) => e.kind === 'created')).toBe(false);
  });

  it('is an empty list for an unknown key and for another member’s key, not an error', async () => {
    const olgas = await mintKey(stack, 'math', 'idp|olga');
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const id of [unknown, olgas.id]) {
      const res = await http(stack, 'GET', `/api/keys/${id}/events`, { token: reviewer });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ events: [] });
    }
    const asAdmin = await http(stack, 'GET', `/api/keys/${olgas.id}/events`, { token: admin });
    expect(asAdmin.body.events.map((e: { kind: string }) => e.kind)).toEqual(['created']);
  });
});

describe('authentication of math keys', () => {
  it('refuses an expired key, a genomics key, and a math key on the genomics service (401)', async () => {
    const expired = await mintKey(stack, 'math', 'idp|olga', { expiresInMs: -1 });
    expect((await http(stack, 'GET', '/api/keys', { token: expired.token })).status).toBe(401);
    const genomics = await mintKey(stack, 'genomics', 'idp|olga');
    expect((await http(stack, 'GET', '/api/keys', { token: genomics.token })).status).toBe(401);
    expect((await http(stack, 'GET', '/api/v1/keys', { token: owner })).status).toBe(401);
    const res = await http(stack, 'GET', '/api/keys', { headers: { authorization: 'Assertion a.b.c' } });
    expect(res.status).toBe(401);
  });

  it('records every refused credential with its reason as an identity audit record', async () => {
    const expired = await mintKey(stack, 'math', 'idp|rui', { expiresInMs: -1 });
    await http(stack, 'GET', '/api/keys', { token: expired.token });
    await stack.server.deps.authFailures.flush();
    const [record] = await stack.dataSource.query(
      "SELECT member_id::text, detail FROM identity_audit WHERE kind = 'authentication_failed' AND key_id = $1",
      [expired.id],
    );
    expect(record).toEqual({
      member_id: rui,
      detail: {
        reason: 'expired',
        method: 'GET',
        path: '/api/keys',
        source: '127.0.0.1',
        count: 1,
        first_at: expect.any(String),
        last_at: expect.any(String),
      },
    });
  });
});
