import type { KeyObject } from 'node:crypto';
import type { Scope } from '../../entities/types';
import type { RunningServer } from '../../server';
import {
  assertionKeyPair,
  type AssertionOptions,
  httpVia,
  idempotencyKey,
  insertBulkKeys,
  signAssertion,
  startExtraServer,
} from '../helpers/keys';
import { http, memberId, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

const DAY_MS = 86_400_000;
const LONG = 400 * DAY_MS;
const ALL_SCOPES: Scope[] = ['read', 'write', 'files:read', 'files:write', 'paths:read', 'keys:manage'];

let stack: TestStack;
let second: RunningServer;
let admin: { id: string; token: string };
let owner: { id: string; token: string };
let reviewer: { id: string; token: string };
let olga: string;
let rui: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack, {
    genomics: [
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
  admin = await mintKey(stack, 'genomics', 'idp|ada', { expiresInMs: LONG });
  owner = await mintKey(stack, 'genomics', 'idp|olga', { expiresInMs: LONG });
  reviewer = await mintKey(stack, 'genomics', 'idp|rui', { expiresInMs: LONG });
  olga = await memberId(stack, 'genomics', 'idp|olga');
  rui = await memberId(stack, 'genomics', 'idp|rui');
});

afterAll(async () => {
  await second?.close();
  await stack?.stop();
});

/** A valid creation body; overrides may be invalid on purpose. */
const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  identityId: 'idp|olga',
  name: 'pipeline',
  role: 'OWNER',
  scopes: ['read'],
  expiresInDays: 30,
  ...overrides,
});

const create = (token: string, payload: Record<string, unknown>, key = idempotencyKey('genomics-create')) =>
  http(stack, 'POST', '/api/v1/keys', { token, body: payload, headers: { 'idempotency-key': key } });

const METADATA_FIELDS = [
  'actor_id',
  'created_at',
  'expires_at',
  'id',
  'identity_id',
  'last_used_at',
  'name',
  'revoked_at',
  'role',
  'scopes',
];

describe('POST /api/v1/keys', () => {
  it('lets an OWNER create a key for themselves: 201 {id, token, role, scopes}', async () => {
    const res = await create(owner.token, body({ scopes: ['read', 'keys:manage'] }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'role', 'scopes', 'token']);
    expect(res.body).toMatchObject({ role: 'OWNER', scopes: ['read', 'keys:manage'] });
    expect(res.body.token).toMatch(/^rfg_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const session = await http(stack, 'GET', '/api/v1/session', { token: res.body.token });
    expect(session.body).toMatchObject({ user: { identityId: 'idp|olga' }, apiKeyId: res.body.id });
  });

  it('refuses an OWNER’s key for anyone else (403) and a REVIEWER’s request (403)', async () => {
    const res = await create(owner.token, body({ identityId: 'idp|rui', role: 'REVIEWER' }));
    expect(res.status).toBe(403);
    const asReviewer = await create(reviewer.token, body({ identityId: 'idp|rui', role: 'REVIEWER' }));
    expect(asReviewer.status).toBe(403);
    expect(asReviewer.body.code).toBe('insufficient_role');
  });

  it('lets an ADMIN create a key for an existing member, within that member’s role (else 403, the genomics table’s permission status)', async () => {
    const ok = await create(admin.token, body({ identityId: 'idp|rui', role: 'REVIEWER' }));
    expect(ok.status).toBe(201);
    const [row] = await stack.dataSource.query('SELECT member_id::text FROM api_keys WHERE id = $1', [
      ok.body.id,
    ]);
    expect(row.member_id).toBe(rui);
    const above = await create(admin.token, body({ identityId: 'idp|rui', role: 'OWNER' }));
    expect(above.status).toBe(403);
    expect(above.body.code).toBe('key_exceeds_member');
  });

  it('refuses an ADMIN’s key for a non-member (404) and for a disabled member (400, an invalid request)', async () => {
    expect((await create(admin.token, body({ identityId: 'idp|nobody', role: 'REVIEWER' }))).status).toBe(
      404,
    );
    const sofiaOfMath = await create(admin.token, body({ identityId: 'idp|sofia', role: 'REVIEWER' }));
    expect(sofiaOfMath.status).toBe(404);
    const gone = await create(admin.token, body({ identityId: 'idp|gone', role: 'REVIEWER' }));
    expect(gone.status).toBe(400);
    expect(gone.body.code).toBe('member_disabled');
  });

  it('never exceeds the creator’s role or scopes (403) nor its key’s expiry (403 key_outlives_issuer)', async () => {
    const ownerRoleKey = await mintKey(stack, 'genomics', 'idp|ada', { role: 'OWNER', expiresInMs: LONG });
    const role = await create(ownerRoleKey.token, body({ identityId: 'idp|ada', role: 'ADMIN' }));
    expect(role.status).toBe(403);
    const narrow = await mintKey(stack, 'genomics', 'idp|olga', { scopes: ['keys:manage', 'read'] });
    const scopes = await create(narrow.token, body({ scopes: ['read', 'write'] }));
    expect(scopes.status).toBe(403);
    expect(scopes.body.detail).toMatch(/write/);

    const tenDays = await mintKey(stack, 'genomics', 'idp|olga', { expiresInMs: 10 * DAY_MS + 3_600_000 });
    const longer = await create(tenDays.token, body({ expiresInDays: 11 }));
    expect(longer.status).toBe(403);
    expect(longer.body.code).toBe('key_outlives_issuer');
    expect((await create(tenDays.token, body({ expiresInDays: 10 }))).status).toBe(201);
  });

  it('requires every field, rejects extra ones and enforces the bounds', async () => {
    expect((await create(owner.token, body({ name: 'n'.repeat(100), expiresInDays: 365 }))).status).toBe(201);
    expect((await create(owner.token, body({ expiresInDays: 1, scopes: [] }))).status).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [body({ name: 'n'.repeat(101) }), 'body.name'],
      [body({ identityId: 'i'.repeat(129) }), 'body.identityId'],
      [body({ expiresInDays: 0 }), 'body.expiresInDays'],
      [body({ expiresInDays: 366 }), 'body.expiresInDays'],
      [body({ expiresInDays: '30' }), 'body.expiresInDays'],
      [body({ scopes: [...ALL_SCOPES, 'read'] }), 'body.scopes'],
      [body({ scopes: ['everything'] }), 'body.scopes.0'],
      [body({ role: 'ROOT' }), 'body.role'],
      [body({ actorId: '1' }), 'body.actorId'],
      [{ identityId: 'idp|olga', name: 'x', role: 'OWNER', scopes: [] }, 'body.expiresInDays'],
    ];
    for (const [payload, path] of cases) {
      const res = await create(owner.token, payload);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it('requires an Idempotency-Key and answers a repeated creation with 409, never the token again', async () => {
    const missing = await http(stack, 'POST', '/api/v1/keys', { token: owner.token, body: body() });
    expect(missing.status).toBe(400);
    const key = idempotencyKey('repeat');
    const first = await create(owner.token, body({ name: 'repeat' }), key);
    expect(first.status).toBe(201);
    const again = await create(owner.token, body({ name: 'repeat' }), key);
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).not.toContain(first.body.token);
    expect((await create(owner.token, body({ name: 'other' }), key)).status).toBe(409);
    const [{ count }] = await stack.dataSource.query(
      "SELECT count(*)::int FROM api_keys WHERE name = 'repeat'",
    );
    expect(count).toBe(1);
    const [receipt] = await stack.dataSource.query(
      'SELECT response_body FROM idempotency_records WHERE idempotency_key = $1',
      [key],
    );
    expect(receipt.response_body).toBeNull();
  });

  it('holds at most 50 active keys per member, as in the math service (409)', async () => {
    const [{ active }] = await stack.dataSource.query(
      'SELECT count(*)::int AS active FROM api_keys WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > now()',
      [rui],
    );
    await insertBulkKeys(stack, 'genomics', rui, 3, 'revoked');
    await insertBulkKeys(stack, 'genomics', rui, 49 - active, 'active');
    expect((await create(admin.token, body({ identityId: 'idp|rui', role: 'REVIEWER' }))).status).toBe(201);
    const over = await create(admin.token, body({ identityId: 'idp|rui', role: 'REVIEWER' }));
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('active_key_limit');
    await stack.dataSource.query(
      "UPDATE api_keys SET revoked_at = now() WHERE member_id = $1 AND name LIKE 'bulk %'",
      [rui],
    );
  });

  it('needs keys:manage (403)', async () => {
    const noManage = await mintKey(stack, 'genomics', 'idp|olga', { scopes: ['read', 'write'] });
    expect((await create(noManage.token, body())).status).toBe(403);
  });
});

describe('GET /api/v1/keys', () => {
  it('shows a REVIEWER or OWNER their own keys with exactly the metadata fields', async () => {
    const res = await http(stack, 'GET', '/api/v1/keys', { token: reviewer.token });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((k: { identity_id: string }) => k.identity_id === 'idp|rui')).toBe(true);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(METADATA_FIELDS);
    const mine = await http(stack, 'GET', '/api/v1/keys', { token: owner.token });
    expect(mine.body.items.every((k: { actor_id: string }) => k.actor_id === olga)).toBe(true);
    const created = mine.body.items.map((k: { created_at: string }) => Date.parse(k.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('shows an ADMIN every workspace key, and never a math key', async () => {
    await mintKey(stack, 'math', 'idp|olga');
    const res = await http(stack, 'GET', '/api/v1/keys', { token: admin.token });
    const identities = new Set(res.body.items.map((k: { identity_id: string }) => k.identity_id));
    expect([...identities].sort()).toEqual(['idp|ada', 'idp|olga', 'idp|rui']);
    const mathIds = await stack.dataSource.query("SELECT id FROM api_keys WHERE service = 'math'");
    const listed = new Set(res.body.items.map((k: { id: string }) => k.id));
    expect(mathIds.some((r: { id: string }) => listed.has(r.id))).toBe(false);
  });

  it('needs keys:manage (403) and a genomics credential (401)', async () => {
    const noManage = await mintKey(stack, 'genomics', 'idp|rui', { scopes: ['read'] });
    expect((await http(stack, 'GET', '/api/v1/keys', { token: noManage.token })).status).toBe(403);
    const mathKey = await mintKey(stack, 'math', 'idp|rui');
    expect((await http(stack, 'GET', '/api/v1/keys', { token: mathKey.token })).status).toBe(401);
    expect((await http(stack, 'GET', '/api/keys', { token: reviewer.token })).status).toBe(401);
  });
});

describe('DELETE /api/v1/keys/{keyId}', () => {
  it('revokes an OWNER’s own key, refused on the next request by another API process', async () => {
    const key = await mintKey(stack, 'genomics', 'idp|olga');
    expect((await httpVia(second, stack, 'GET', '/api/v1/session', { token: key.token })).status).toBe(200);
    const res = await http(stack, 'DELETE', `/api/v1/keys/${key.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: key.id, revoked: true });
    const next = await httpVia(second, stack, 'GET', '/api/v1/session', { token: key.token });
    expect(next.status).toBe(401);
  });

  it('repeats harmlessly, keeping the first revoked_at', async () => {
    const key = await mintKey(stack, 'genomics', 'idp|olga');
    await http(stack, 'DELETE', `/api/v1/keys/${key.id}`, { token: owner.token });
    const [{ revoked_at: first }] = await stack.dataSource.query(
      'SELECT revoked_at FROM api_keys WHERE id = $1',
      [key.id],
    );
    const again = await httpVia(second, stack, 'DELETE', `/api/v1/keys/${key.id}`, { token: owner.token });
    expect(again.body).toEqual({ id: key.id, revoked: true });
    const [{ revoked_at: after }] = await stack.dataSource.query(
      'SELECT revoked_at FROM api_keys WHERE id = $1',
      [key.id],
    );
    expect(after).toEqual(first);
  });

  it('hides another member’s key from an OWNER (404); an ADMIN revokes any workspace key', async () => {
    const ruis = await mintKey(stack, 'genomics', 'idp|rui');
    expect((await http(stack, 'DELETE', `/api/v1/keys/${ruis.id}`, { token: owner.token })).status).toBe(404);
    expect((await http(stack, 'GET', '/api/v1/session', { token: ruis.token })).status).toBe(200);
    expect((await http(stack, 'DELETE', `/api/v1/keys/${ruis.id}`, { token: admin.token })).status).toBe(200);
    expect((await http(stack, 'GET', '/api/v1/session', { token: ruis.token })).status).toBe(401);
  });

  it('is 403 for a REVIEWER, 400 for a non-uuid and 404 for an unknown key or a math key', async () => {
    const own = await mintKey(stack, 'genomics', 'idp|rui');
    expect((await http(stack, 'DELETE', `/api/v1/keys/${own.id}`, { token: reviewer.token })).status).toBe(
      403,
    );
    expect((await http(stack, 'DELETE', '/api/v1/keys/123', { token: admin.token })).status).toBe(400);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await http(stack, 'DELETE', `/api/v1/keys/${unknown}`, { token: admin.token })).status).toBe(404);
    const mathKey = await mintKey(stack, 'math', 'idp|olga');
    expect((await http(stack, 'DELETE', `/api/v1/keys/${mathKey.id}`, { token: admin.token })).status).toBe(
      404,
    );
  });

  it('refuses an expired key (401)', async () => {
    const expired = await mintKey(stack, 'genomics', 'idp|olga', { expiresInMs: -1 });
    const res = await http(stack, 'GET', '/api/v1/keys', { token: expired.token });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/expired/);
  });
});

describe('request-bound dashboard assertions', () => {
  let privateKey: KeyObject;
  let dashboardA: RunningServer;
  let dashboardB: RunningServer;

  beforeAll(async () => {
    const pair = assertionKeyPair();
    privateKey = pair.privateKey;
    dashboardA = await startExtraServer(stack, { genomicsDashboardAssertionKey: pair.publicKeyPem });
    dashboardB = await startExtraServer(stack, { genomicsDashboardAssertionKey: pair.publicKeyPem });
  });

  afterAll(async () => {
    await dashboardA?.close();
    await dashboardB?.close();
  });

  const olgaClaims: AssertionOptions = { sub: 'idp|olga', role: 'OWNER', scopes: ['read', 'keys:manage'] };

  const send = (
    server: RunningServer,
    method: string,
    path: string,
    assertion: string,
    payload?: string,
    headers: Record<string, string> = {},
  ) =>
    httpVia(server, stack, method, path, {
      body: payload,
      headers: {
        authorization: `Assertion ${assertion}`,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
    });

  const auditReasons = async (): Promise<string[]> => {
    // Each API process counts its refusals and writes them per interval: these processes' counts, now.
    for (const server of [stack.server, second, dashboardA, dashboardB])
      await server.deps.authFailures.flush();
    return (
      await stack.dataSource.query(
        "SELECT detail->>'reason' AS reason FROM identity_audit WHERE kind = 'authentication_failed' ORDER BY id",
      )
    ).map((r: { reason: string }) => r.reason);
  };

  it('authenticates one request as the named member: session with apiKeyId null', async () => {
    const assertion = await signAssertion(privateKey, { method: 'GET', path: '/api/v1/session' }, olgaClaims);
    const res = await send(dashboardA, 'GET', '/api/v1/session', assertion);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { identityId: 'idp|olga', role: 'OWNER' }, apiKeyId: null });
  });

  it('is single use: a replay is 401, in the same process and in another', async () => {
    const assertion = await signAssertion(privateKey, { method: 'GET', path: '/api/v1/keys' }, olgaClaims);
    expect((await send(dashboardA, 'GET', '/api/v1/keys', assertion)).status).toBe(200);
    const replay = await send(dashboardA, 'GET', '/api/v1/keys', assertion);
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toMatch(/already been used/);
    expect((await send(dashboardB, 'GET', '/api/v1/keys', assertion)).status).toBe(401);
  });

  it('binds the body: the signed body creates a key, another body is 401 and changes nothing', async () => {
    const payload = JSON.stringify(body({ name: 'from the dashboard', scopes: ['read'] }));
    const signed = await signAssertion(
      privateKey,
      { method: 'POST', path: '/api/v1/keys', body: payload },
      olgaClaims,
    );
    const tampered = payload.replace('"read"', '"keys:manage"');
    const refused = await send(dashboardA, 'POST', '/api/v1/keys', signed, tampered, {
      'idempotency-key': idempotencyKey('assert'),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/body/);

    const again = await signAssertion(
      privateKey,
      { method: 'POST', path: '/api/v1/keys', body: payload },
      olgaClaims,
    );
    const created = await send(dashboardA, 'POST', '/api/v1/keys', again, payload, {
      'idempotency-key': idempotencyKey('assert'),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ role: 'OWNER', scopes: ['read'] });
    const [row] = await stack.dataSource.query('SELECT name, created_by_key_id FROM api_keys WHERE id = $1', [
      created.body.id,
    ]);
    expect(row).toEqual({ name: 'from the dashboard', created_by_key_id: null });
    const [{ count }] = await stack.dataSource.query(
      "SELECT count(*)::int FROM api_keys WHERE name = 'from the dashboard'",
    );
    expect(count).toBe(1);
  });

  it('binds the path with its query and the method (401 otherwise)', async () => {
    const forKeys = () => signAssertion(privateKey, { method: 'GET', path: '/api/v1/keys' }, olgaClaims);
    expect((await send(dashboardA, 'GET', '/api/v1/session', await forKeys())).status).toBe(401);
    expect((await send(dashboardA, 'GET', '/api/v1/keys?x=1', await forKeys())).status).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await send(dashboardA, 'DELETE', `/api/v1/keys/${unknown}`, await forKeys())).status).toBe(401);
  });

  it('refuses a tampered signature, an expired assertion and one living over 60 s (401)', async () => {
    const request = { method: 'GET', path: '/api/v1/session' };
    const valid = await signAssertion(privateKey, request, olgaClaims);
    const [header, payload, signature] = valid.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'idp|ada' }),
    ).toString('base64url');
    expect(
      (await send(dashboardA, 'GET', '/api/v1/session', `${header}.${forged}.${signature}`)).status,
    ).toBe(401);
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await send(dashboardA, 'GET', '/api/v1/session', `${header}.${payload}.${flipped}`)).status).toBe(
      401,
    );
    const iat = Math.floor(Date.now() / 1000) - 90;
    const expired = await signAssertion(privateKey, request, { ...olgaClaims, iat });
    expect((await send(dashboardA, 'GET', '/api/v1/session', expired)).status).toBe(401);
    const long = await signAssertion(privateKey, request, { ...olgaClaims, lifetimeSeconds: 120 });
    expect((await send(dashboardA, 'GET', '/api/v1/session', long)).status).toBe(401);
    const otherSigner = await signAssertion(assertionKeyPair().privateKey, request, olgaClaims);
    expect((await send(dashboardA, 'GET', '/api/v1/session', otherSigner)).status).toBe(401);
  });

  it('refuses an unknown member and a disabled one (401)', async () => {
    const request = { method: 'GET', path: '/api/v1/session' };
    const unknown = await signAssertion(privateKey, request, { ...olgaClaims, sub: 'idp|nobody' });
    const res = await send(dashboardA, 'GET', '/api/v1/session', unknown);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/no member/);
    const gone = await signAssertion(privateKey, request, { ...olgaClaims, sub: 'idp|gone' });
    expect((await send(dashboardA, 'GET', '/api/v1/session', gone)).status).toBe(401);
  });

  it('is bounded by the member: a REVIEWER claiming ADMIN acts as REVIEWER; scopes are the claimed ones', async () => {
    const claims: AssertionOptions = { sub: 'idp|rui', role: 'ADMIN', scopes: ['read'] };
    const session = await signAssertion(privateKey, { method: 'GET', path: '/api/v1/session' }, claims);
    const res = await send(dashboardA, 'GET', '/api/v1/session', session);
    expect(res.body.user.role).toBe('REVIEWER');
    const keys = await signAssertion(privateKey, { method: 'GET', path: '/api/v1/keys' }, claims);
    const refused = await send(dashboardA, 'GET', '/api/v1/keys', keys);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
  });

  it('is refused where assertions are not configured and by the math service (401)', async () => {
    const onMain = await signAssertion(privateKey, { method: 'GET', path: '/api/v1/session' }, olgaClaims);
    const res = await http(stack, 'GET', '/api/v1/session', {
      headers: { authorization: `Assertion ${onMain}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/not accepted/);
    const onMath = await signAssertion(privateKey, { method: 'GET', path: '/api/auth/session' }, olgaClaims);
    expect((await send(dashboardA, 'GET', '/api/auth/session', onMath)).status).toBe(401);
  });

  it('records each refusal as an identity audit record with its reason', async () => {
    expect(await auditReasons()).toEqual(
      expect.arrayContaining([
        'assertion_replayed',
        'assertion_body_mismatch',
        'assertion_invalid',
        'assertion_unknown_member',
        'assertion_member_disabled',
        'assertion_disabled',
      ]),
    );
    const [record] = await stack.dataSource.query(
      "SELECT member_id::text, detail FROM identity_audit WHERE detail->>'reason' = 'assertion_replayed' LIMIT 1",
    );
    expect(record.member_id).toBe(olga);
    expect(record.detail).toMatchObject({ method: 'GET', path: '/api/v1/keys' });
    expect(record.detail.assertion_jti).toMatch(/^jti-/);
  });
});
