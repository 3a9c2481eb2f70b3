import type { MemberProjection } from '../../access/members';
import {
  changeBehindService,
  http,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

let stack: TestStack;
let admin: string;
let owner: string;
let reviewer: string;

const temp = (overrides: Partial<MemberProjection> = {}): MemberProjection => ({
  identity_id: 'idp|temp',
  username: 'temp',
  display_name: 'Temp Tester',
  email: 'temp@example.org',
  role: 'OWNER',
  enabled: true,
  ...overrides,
});

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack, { math: [temp()], genomics: [temp()] });
  admin = (await mintKey(stack, 'math', 'idp|ada')).token;
  owner = (await mintKey(stack, 'math', 'idp|olga')).token;
  reviewer = (await mintKey(stack, 'math', 'idp|rui')).token;
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /api/reviewers', () => {
  it('gives a Reviewer only their own member record', async () => {
    const res = await http(stack, 'GET', '/api/reviewers', { token: reviewer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reviewers: [
        {
          id: await memberId(stack, 'math', 'idp|rui'),
          identity_id: 'idp|rui',
          username: 'rui',
          display_name: 'Rui Reviewer',
          role: 'REVIEWER',
          enabled: true,
        },
      ],
    });
  });

  it('gives operators every member but the primary admin, by display name, with `enabled`', async () => {
    const res = await http(stack, 'GET', '/api/reviewers', { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.reviewers.map((r: { identity_id: string }) => r.identity_id)).toEqual([
      'idp|olga',
      'idp|rui',
      'idp|sofia',
      'idp|temp',
    ]);
    expect(res.body.reviewers.every((r: { enabled: boolean }) => r.enabled)).toBe(true);
    expect(res.body.reviewers[0].email).toBeUndefined();
  });

  it('needs the read scope (403) and a credential (401)', async () => {
    const noRead = (await mintKey(stack, 'math', 'idp|olga', { scopes: ['write'] })).token;
    expect((await http(stack, 'GET', '/api/reviewers', { token: noRead })).status).toBe(403);
    expect((await http(stack, 'GET', '/api/reviewers')).status).toBe(401);
  });
});

describe('GET /api/users', () => {
  it('lists every local member projection to an Admin', async () => {
    const res = await http(stack, 'GET', '/api/users', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { identity_id: string }) => u.identity_id).sort()).toEqual([
      'idp|ada',
      'idp|olga',
      'idp|rui',
      'idp|sofia',
      'idp|temp',
    ]);
    expect(res.body.users.find((u: { identity_id: string }) => u.identity_id === 'idp|ada')).toMatchObject({
      email: 'ada@example.org',
      role: 'ADMIN',
      primary_admin: true,
      enabled: true,
    });
  });

  it('is Admin only (403 for an Owner)', async () => {
    expect((await http(stack, 'GET', '/api/users', { token: owner })).status).toBe(403);
  });
});

describe('GET /api/auth/viewable-users', () => {
  it('is an empty list with API-key authentication, and Admin only', async () => {
    const res = await http(stack, 'GET', '/api/auth/viewable-users', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users: [] });
    expect((await http(stack, 'GET', '/api/auth/viewable-users', { token: owner })).status).toBe(403);
  });
});

describe('members sync', () => {
  it('disables an absent member: their keys stop working in both services, and work again when back', async () => {
    const mathKey = await mintKey(stack, 'math', 'idp|temp');
    const genomicsKey = await mintKey(stack, 'genomics', 'idp|temp');
    expect((await http(stack, 'GET', '/api/auth/session', { token: mathKey.token })).status).toBe(200);
    expect((await http(stack, 'GET', '/api/v1/session', { token: genomicsKey.token })).status).toBe(200);

    await changeBehindService(stack, () => seedMembers(stack));
    const math = await http(stack, 'GET', '/api/auth/session', { token: mathKey.token });
    expect(math.status).toBe(401);
    expect(math.body.detail).toMatch(/disabled/);
    expect((await http(stack, 'GET', '/api/v1/session', { token: genomicsKey.token })).status).toBe(401);

    const reviewers = await http(stack, 'GET', '/api/reviewers', { token: owner });
    expect(
      reviewers.body.reviewers.find((r: { identity_id: string }) => r.identity_id === 'idp|temp'),
    ).toEqual(expect.objectContaining({ enabled: false }));

    await seedMembers(stack, { math: [temp()], genomics: [temp()] });
    expect((await http(stack, 'GET', '/api/auth/session', { token: mathKey.token })).status).toBe(200);
  });

  it('demotes a member’s keys with the member: the effective role follows the projection', async () => {
    const key = await mintKey(stack, 'math', 'idp|temp', { role: 'OWNER' });
    await seedMembers(stack, { math: [temp({ role: 'REVIEWER' })], genomics: [temp()] });
    const session = await http(stack, 'GET', '/api/auth/session', { token: key.token });
    expect(session.body).toMatchObject({ role: 'REVIEWER', member: { role: 'REVIEWER' } });
    expect((await http(stack, 'GET', '/api/users', { token: key.token })).status).toBe(403);
    await seedMembers(stack, { math: [temp()], genomics: [temp()] });
  });
});

describe('GET /api/auth/audit', () => {
  it('lists key creation, revocation, member sync changes and failed authentication, newest first', async () => {
    // Refused credentials are counted and written per interval: earlier tests' first, this test's after them.
    await stack.server.deps.authFailures.flush();
    const temporary = await mintKey(stack, 'math', 'idp|olga');
    await http(stack, 'DELETE', `/api/keys/${temporary.id}`, { token: owner });
    await http(stack, 'GET', '/api/auth/session', { token: temporary.token });
    await http(stack, 'GET', '/api/auth/session', { token: 'rfm_not_a_key' });
    await stack.server.deps.authFailures.flush();

    const res = await http(stack, 'GET', '/api/auth/audit', { token: admin });
    expect(res.status).toBe(200);
    const records = res.body.records as Array<{
      id: string;
      kind: string;
      member_id: string | null;
      key_id: string | null;
      detail: Record<string, unknown>;
    }>;
    const ids = records.map((r) => BigInt(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));
    expect(new Set(records.map((r) => r.kind))).toEqual(
      new Set([
        'member_created',
        'member_updated',
        'member_disabled',
        'key_created',
        'key_revoked',
        'authentication_failed',
      ]),
    );
    const olga = await memberId(stack, 'math', 'idp|olga');
    const byKey = records.filter((r) => r.key_id === temporary.id);
    expect(byKey.map((r) => r.kind)).toEqual(['authentication_failed', 'key_revoked', 'key_created']);
    expect(byKey[0]).toMatchObject({
      member_id: olga,
      detail: { reason: 'revoked', path: '/api/auth/session' },
    });
    expect(byKey[1].detail).toMatchObject({ revoked_by: 'idp|olga', own_key: true });
    expect(byKey[2].detail).toMatchObject({ role: 'OWNER', issuer: 'test' });
    expect(records[0]).toMatchObject({
      kind: 'authentication_failed',
      key_id: null,
      detail: { reason: 'malformed' },
    });
    const demotion = records.find((r) => r.kind === 'member_updated');
    expect(demotion?.detail).toMatchObject({
      identity_id: 'idp|temp',
      changes: { role: expect.any(Object) },
    });
    expect(records.find((r) => r.kind === 'member_disabled')?.detail).toMatchObject({
      identity_id: 'idp|temp',
      reason: 'absent from sync',
    });
  });

  it('returns only the math service’s latest 100 records', async () => {
    await stack.dataSource.query(
      `INSERT INTO identity_audit (service, kind, detail)
       SELECT 'genomics', 'member_updated', '{}' FROM generate_series(1, 5)`,
    );
    await stack.dataSource.query(
      `INSERT INTO identity_audit (service, kind, detail)
       SELECT 'math', 'member_updated', jsonb_build_object('n', g) FROM generate_series(1, 120) g`,
    );
    const res = await http(stack, 'GET', '/api/auth/audit', { token: admin });
    expect(res.body.records).toHaveLength(100);
    expect(res.body.records[0].detail).toEqual({ n: 120 });
    const [{ max }] = await stack.dataSource.query(
      "SELECT max(id)::text AS max FROM identity_audit WHERE service = 'genomics'",
    );
    expect(res.body.records.some((r: { id: string }) => r.id === max)).toBe(false);
  });

  it('is Admin only (403 for an Owner) and needs the read scope', async () => {
    expect((await http(stack, 'GET', '/api/auth/audit', { token: owner })).status).toBe(403);
    const noRead = (await mintKey(stack, 'math', 'idp|ada', { scopes: ['keys:manage'] })).token;
    expect((await http(stack, 'GET', '/api/auth/audit', { token: noRead })).status).toBe(403);
  });
});
