import { randomUUID } from 'node:crypto';
import { cleanEnv, referee } from '../helpers/npmStart';
import { ENTERPRISE, GROUP, patchOp, provisioningToken, scim, USER } from '../helpers/scim';
import { mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

/*
 * The SCIM 2.0 service provider (docs/provisioning.md) against the request sequences of the providers' own
 * conformance checks: Okta's SCIM 2.0 spec test and Microsoft's SCIM validator for Entra ID, with the shapes
 * those clients send (Okta's path-less replace, Entra's "False" strings and capitalised ops). Hostile input is
 * answered in SCIM's error schema and changes nothing. Real PostgreSQL behind a real API.
 */
let stack: TestStack;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  token = await provisioningToken(stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  scim(stack, method, path, { token, body, headers });

const members = (identity: string): Promise<Array<{ service: string; role: string; enabled: boolean }>> =>
  stack.dataSource.query(
    'SELECT service, role, enabled FROM members WHERE identity_id = $1 ORDER BY service',
    [identity],
  );

const userCount = async () =>
  Number((await stack.dataSource.query('SELECT count(*) FROM scim_users'))[0].count);

const filterPath = (filter: string, extra = '') => `/Users?filter=${encodeURIComponent(filter)}${extra}`;

const roleGroup = async (name: string): Promise<string> => {
  const found = await call('GET', `/Groups?filter=${encodeURIComponent(`displayName eq "${name}"`)}`);
  if (found.body.totalResults === 1) return found.body.Resources[0].id;
  const created = await call('POST', '/Groups', { schemas: [GROUP], displayName: name, members: [] });
  expect(created.status).toBe(201);
  return created.body.id;
};

describe('the CLI provisioning token', () => {
  it('is printed once by referee scim-tokens create --json, listed without its secret, and revoked', async () => {
    const env = cleanEnv({ DATABASE_URL: stack.config.databaseUrl });
    const created = await referee(['scim-tokens', 'create', '--name', 'okta', '--json'], env);
    expect(created.code).toBe(0);
    const printed = JSON.parse(created.stdout);
    expect(printed).toMatchObject({ ok: true, name: 'okta' });
    expect(printed.token).toMatch(/^rfs_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect((await scim(stack, 'GET', '/ServiceProviderConfig', { token: printed.token })).status).toBe(200);
    const [stored] = await stack.dataSource.query('SELECT secret_hash FROM scim_tokens WHERE id = $1', [
      printed.id,
    ]);
    expect(Buffer.from(stored.secret_hash).toString('utf8')).not.toContain(printed.token.split('_')[2]);
    const listed = await referee(['scim-tokens', 'list', '--json'], env);
    expect(listed.stdout).not.toContain(printed.token.split('_')[2]);
    expect(JSON.parse(listed.stdout).tokens).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: printed.id, state: 'active' })]),
    );
    expect((await referee(['scim-tokens', 'revoke', printed.id], env)).code).toBe(0);
    const refused = await scim(stack, 'GET', '/ServiceProviderConfig', { token: printed.token });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/revoked/);
  }, 60_000);
});

describe('authentication', () => {
  it('takes only a provisioning token, which reaches nothing else', async () => {
    const key = (await mintKey(stack, 'math', 'idp|ada')).token;
    expect((await scim(stack, 'GET', '/Users')).status).toBe(401);
    const withKey = await scim(stack, 'GET', '/Users', { token: key });
    expect(withKey.status).toBe(401);
    expect(withKey.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '401',
    });
    expect(withKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const withCookie = await scim(stack, 'GET', '/Users', {
      headers: { cookie: 'referee_session=whatever' },
    });
    expect(withCookie.status).toBe(401);
    const elsewhere = await fetch(`${stack.url}/api/auth/session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(elsewhere.status).toBe(401);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await scim(stack, 'GET', '/Users', { token: forged })).status).toBe(401);
  });

  it('audits every request with its token, refused ones included', async () => {
    const before = Number((await stack.dataSource.query('SELECT count(*) FROM scim_audit'))[0].count);
    await call('GET', '/ServiceProviderConfig');
    await scim(stack, 'GET', '/Users', { token: 'rfs_nope' });
    const rows = await stack.dataSource.query(
      'SELECT token_id, method, path, status, detail FROM scim_audit ORDER BY id DESC LIMIT 2',
    );
    expect(Number((await stack.dataSource.query('SELECT count(*) FROM scim_audit'))[0].count)).toBe(
      before + 2,
    );
    expect(rows[0]).toMatchObject({ token_id: null, status: 401, detail: { refused: 'malformed' } });
    expect(rows[1]).toMatchObject({ method: 'GET', path: '/scim/v2/ServiceProviderConfig', status: 200 });
    expect(rows[1].token_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('discovery', () => {
  it('publishes ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const config = await call('GET', '/ServiceProviderConfig');
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      etag: { supported: true },
      filter: { supported: true },
    });
    const types = await call('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { name: string }) => t.name)).toEqual(['User', 'Group']);
    expect((await call('GET', '/ResourceTypes/User')).body.schemaExtensions).toEqual([
      { schema: ENTERPRISE, required: false },
    ]);
    const schemas = await call('GET', '/Schemas');
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([USER, ENTERPRISE, GROUP]);
    const user = await call('GET', `/Schemas/${USER}`);
    expect(user.body.attributes.find((a: { name: string }) => a.name === 'userName')).toMatchObject({
      required: true,
      uniqueness: 'server',
    });
    expect((await call('GET', '/Schemas/urn:nope')).status).toBe(404);
    const contract = await fetch(`${stack.url}/scim/v2/openapi.json`);
    expect(contract.status).toBe(200);
    expect(((await contract.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});

describe("Okta's SCIM 2.0 spec test sequence", () => {
  const userName = `okta-${randomUUID().slice(0, 8)}@example.org`;
  let id: string;

  it('lists with startIndex and count, finds no user by a random filter, creates, reads, refuses the duplicate', async () => {
    const page = await call('GET', '/Users?count=1&startIndex=1');
    expect(page.status).toBe(200);
    expect(page.body.Resources.length).toBeLessThanOrEqual(1);
    const none = await call('GET', filterPath(`userName eq "${userName}"`, '&startIndex=1&count=100'));
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
    const body = {
      schemas: [USER],
      userName,
      name: { givenName: 'Olivia', familyName: 'Okta' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Olivia Okta',
      locale: 'en-US',
      externalId: '00u1abcd',
      groups: [],
      password: 'never-stored-1!',
      active: true,
    };
    const created = await call('POST', '/Users', body);
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(created.body).toMatchObject({ userName, active: true, displayName: 'Olivia Okta' });
    expect(created.body.password).toBeUndefined();
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.headers.get('etag')).toBe(created.body.meta.version);
    const [row] = await stack.dataSource.query('SELECT resource::text FROM scim_users WHERE id = $1', [id]);
    expect(row.resource).not.toContain('never-stored');
    expect((await call('GET', `/Users/${id}`)).body).toMatchObject({ id, userName });
    const found = await call('GET', filterPath(`userName eq "${userName.toUpperCase()}"`));
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    const duplicate = await call('POST', '/Users', body);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ scimType: 'uniqueness', status: '409' });
    expect((await call('GET', `/Users/${randomUUID()}`)).status).toBe(404);
  });

  it('deactivates with a path-less replace and reactivates', async () => {
    const off = await call('PATCH', `/Users/${id}`, patchOp({ op: 'replace', value: { active: false } }));
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const on = await call('PATCH', `/Users/${id}`, patchOp({ op: 'replace', value: { active: true } }));
    expect(on.body.active).toBe(true);
  });

  it('replaces the user with PUT', async () => {
    const current = (await call('GET', `/Users/${id}`)).body;
    const replaced = await call('PUT', `/Users/${id}`, {
      ...current,
      name: { givenName: 'Liv', familyName: 'Okta' },
      displayName: 'Liv Okta',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ displayName: 'Liv Okta', name: { givenName: 'Liv' } });
    expect(replaced.body.locale).toBe('en-US');
  });

  it('pushes a group, adds and removes the user, and the role follows', async () => {
    const group = await roleGroup('referee-math-owner');
    expect(await members(userName)).toEqual([]);
    const added = await call(
      'PATCH',
      `/Groups/${group}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: id, display: userName }] }),
    );
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: { value: string }) => m.value)).toContain(id);
    expect(await members(userName)).toEqual([{ service: 'math', role: 'OWNER', enabled: true }]);
    expect((await call('GET', `/Users/${id}`)).body.groups).toEqual([
      expect.objectContaining({ value: group, display: 'referee-math-owner' }),
    ]);
    const audit = await stack.dataSource.query(
      `SELECT kind, detail FROM identity_audit WHERE detail->>'identity_id' = $1 ORDER BY id`,
      [userName],
    );
    expect(audit[0]).toMatchObject({ kind: 'member_created', detail: { source: { via: 'scim' } } });
    const removed = await call(
      'PATCH',
      `/Groups/${group}`,
      patchOp({ op: 'remove', path: `members[value eq "${id}"]` }),
    );
    expect(removed.status).toBe(200);
    expect(await members(userName)).toEqual([{ service: 'math', role: 'OWNER', enabled: false }]);
  });

  it('deletes: 204, then 404', async () => {
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await call('GET', `/Users/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(404);
  });
});

describe("Microsoft's SCIM validator sequence for Entra ID", () => {
  const userName = `entra-${randomUUID().slice(0, 8)}@contoso.example`;
  const externalId = randomUUID();
  let id: string;
  let group: string;

  it('creates a user with the enterprise extension and finds it by userName and externalId', async () => {
    const created = await call('POST', '/Users', {
      schemas: [USER, ENTERPRISE],
      externalId,
      userName,
      active: true,
      displayName: 'Erin Entra',
      title: 'Reviewer',
      emails: [{ primary: true, type: 'work', value: userName }],
      preferredLanguage: 'en-GB',
      name: { formatted: 'Erin Entra', familyName: 'Entra', givenName: 'Erin' },
      addresses: [{ type: 'work', primary: true, locality: 'Leeds', country: 'GB' }],
      phoneNumbers: [{ type: 'work', value: '+44 113 000 0000' }],
      [ENTERPRISE]: { employeeNumber: '42', department: 'Research', manager: { value: 'm-1' } },
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(created.body.schemas).toEqual([USER, ENTERPRISE]);
    expect(created.body[ENTERPRISE]).toMatchObject({ department: 'Research' });
    const byName = await call('GET', filterPath(`userName eq "${userName}"`));
    expect(byName.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
    const byExternal = await call('GET', filterPath(`externalId eq "${externalId}"`));
    expect(byExternal.body.totalResults).toBe(1);
    const byEmail = await call(
      'GET',
      filterPath(`emails[type eq "work" and value eq "${userName.toUpperCase()}"]`),
    );
    expect(byEmail.body.totalResults).toBe(1);
    const active = await call('GET', filterPath(`active eq true and userName sw "entra-"`));
    expect(active.body.Resources.map((u: { id: string }) => u.id)).toContain(id);
    const shaped = await call('GET', `/Users/${id}?attributes=userName,name.givenName`);
    expect(Object.keys(shaped.body).sort()).toEqual(['id', 'name', 'schemas', 'userName']);
    expect(shaped.body.name).toEqual({ givenName: 'Erin' });
    const excluded = await call('GET', `/Users/${id}?excludedAttributes=emails,${ENTERPRISE}:department`);
    expect(excluded.body.emails).toBeUndefined();
    expect(excluded.body[ENTERPRISE]).toEqual({ employeeNumber: '42', manager: { value: 'm-1' } });
  });

  it('patches attributes by path, as Entra ID sends them', async () => {
    const patched = await call(
      'PATCH',
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'displayName', value: 'Erin E.' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: `new.${userName}` },
        { op: 'Replace', path: 'name.familyName', value: 'Entra-Smith' },
        { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Review' },
        { op: 'Add', path: 'nickName', value: 'E' },
      ),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      displayName: 'Erin E.',
      nickName: 'E',
      name: { familyName: 'Entra-Smith' },
      emails: [expect.objectContaining({ value: `new.${userName}` })],
      [ENTERPRISE]: expect.objectContaining({ department: 'Review' }),
    });
  });

  it('disables with "False" strings and path-less value objects, and enables again', async () => {
    const group = await roleGroup('referee-genomics-reviewer');
    await call('PATCH', `/Groups/${group}`, patchOp({ op: 'Add', path: 'members', value: [{ value: id }] }));
    expect(await members(userName)).toEqual([{ service: 'genomics', role: 'REVIEWER', enabled: true }]);
    const off = await call(
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(off.body.active).toBe(false);
    expect(await members(userName)).toEqual([{ service: 'genomics', role: 'REVIEWER', enabled: false }]);
    const on = await call('PATCH', `/Users/${id}`, patchOp({ op: 'replace', value: { active: 'True' } }));
    expect(on.body.active).toBe(true);
    expect(await members(userName)).toEqual([{ service: 'genomics', role: 'REVIEWER', enabled: true }]);
  });

  it('creates a group, finds it without members, adds and removes members with Entra ID shapes, deletes it', async () => {
    const name = `Entra group ${randomUUID().slice(0, 6)}`;
    const created = await call('POST', '/Groups', {
      schemas: [GROUP],
      displayName: name,
      externalId: 'g-1',
      members: [],
    });
    expect(created.status).toBe(201);
    group = created.body.id;
    const dup = await call('POST', '/Groups', { schemas: [GROUP], displayName: name.toUpperCase() });
    expect(dup).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    const found = await call(
      'GET',
      `/Groups?filter=${encodeURIComponent(`displayName eq "${name}"`)}&excludedAttributes=members`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members).toBeUndefined();
    const add = await call(
      'PATCH',
      `/Groups/${group}`,
      patchOp({ op: 'Add', path: 'members', value: [{ value: id }] }),
    );
    expect(add.body.members).toEqual([expect.objectContaining({ value: id, display: userName })]);
    const remove = await call(
      'PATCH',
      `/Groups/${group}`,
      patchOp({ op: 'Remove', path: 'members', value: [{ value: id }] }),
    );
    expect(remove.status).toBe(200);
    expect(remove.body.members).toEqual([]);
    const renamed = await call(
      'PATCH',
      `/Groups/${group}`,
      patchOp({ op: 'replace', value: { id: group, displayName: `${name} 2` } }),
    );
    expect(renamed.body.displayName).toBe(`${name} 2`);
    expect((await call('DELETE', `/Groups/${group}`)).status).toBe(204);
    expect((await call('GET', `/Groups/${group}`)).status).toBe(404);
  });

  it('deletes the user: members disabled, never deleted; 404 after', async () => {
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await call('GET', `/Users/${id}`)).status).toBe(404);
    expect(await members(userName)).toEqual([{ service: 'genomics', role: 'REVIEWER', enabled: false }]);
  });
});

describe('concurrent changes', () => {
  it('carries meta.version as the ETag: a stale If-Match is 412 and changes nothing; If-None-Match is 304', async () => {
    const created = await call('POST', '/Users', { schemas: [USER], userName: `etag-${randomUUID()}` });
    const { id, meta } = created.body;
    const first = await call('PATCH', `/Users/${id}`, patchOp({ op: 'add', path: 'title', value: 'A' }), {
      'if-match': meta.version,
    });
    expect(first.status).toBe(200);
    expect(first.body.meta.version).not.toBe(meta.version);
    const stale = await call('PATCH', `/Users/${id}`, patchOp({ op: 'add', path: 'title', value: 'B' }), {
      'if-match': meta.version,
    });
    expect(stale).toMatchObject({ status: 412, body: { status: '412' } });
    expect((await call('GET', `/Users/${id}`)).body.title).toBe('A');
    expect((await call('DELETE', `/Users/${id}`, undefined, { 'if-match': meta.version })).status).toBe(412);
    const cached = await call('GET', `/Users/${id}`, undefined, { 'if-none-match': first.body.meta.version });
    expect(cached.status).toBe(304);
  });
});

describe('hostile input', () => {
  let id: string;
  let version: string;
  const userName = `hostile-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const created = await call('POST', '/Users', { schemas: [USER], userName, displayName: 'H' });
    ({ id } = created.body);
    version = created.body.meta.version;
  });

  const unchanged = async () => {
    const now = await call('GET', `/Users/${id}`);
    expect(now.body.meta.version).toBe(version);
    expect(now.body.displayName).toBe('H');
  };

  it.each([
    ['userName eq', 'invalidFilter'],
    ['userName eq "a" and', 'invalidFilter'],
    ['favouriteColour eq "blue"', 'invalidFilter'],
    ['password eq "x"', 'invalidFilter'],
    ['active gt true', 'invalidFilter'],
    ['name[givenName eq "a"', 'invalidFilter'],
  ])('refuses the filter %s with 400 %s', async (filter, scimType) => {
    const answer = await call('GET', filterPath(filter));
    expect(answer).toMatchObject({ status: 400, body: { scimType, status: '400' } });
  });

  it('refuses unknown attributes, foreign schemas, a missing userName and wrong types; nothing is created', async () => {
    const before = await userCount();
    const cases: Array<[object, string]> = [
      [{ schemas: [USER], userName: 'x1', favouriteColour: 'blue' }, 'invalidSyntax'],
      [{ schemas: [USER, 'urn:example:foreign'], userName: 'x2' }, 'invalidSyntax'],
      [{ schemas: ['urn:example:foreign'], userName: 'x3' }, 'invalidSyntax'],
      [{ userName: 'x4' }, 'invalidSyntax'],
      [{ schemas: [USER], displayName: 'no name' }, 'invalidValue'],
      [{ schemas: [USER], userName: 'x5', active: 'maybe' }, 'invalidValue'],
      [{ schemas: [USER], userName: 'x6', emails: 'a@b' }, 'invalidValue'],
      [{ schemas: [USER], userName: 'x7', name: { givenName: 'a', nickname: 'b' } }, 'invalidSyntax'],
      [{ schemas: [USER], userName: 'x'.repeat(129) }, 'invalidValue'],
    ];
    for (const [body, scimType] of cases) {
      const answer = await call('POST', '/Users', body);
      expect([JSON.stringify(body), answer.status, answer.body.scimType]).toEqual([
        JSON.stringify(body),
        400,
        scimType,
      ]);
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses PATCH paths to read-only, unknown or foreign attributes, and bad operations; nothing changes', async () => {
    const cases: Array<[object, string]> = [
      [{ op: 'replace', path: 'id', value: randomUUID() }, 'mutability'],
      [{ op: 'replace', path: 'meta.created', value: '2000-01-01T00:00:00Z' }, 'mutability'],
      [{ op: 'add', path: 'groups', value: [{ value: randomUUID() }] }, 'mutability'],
      [{ op: 'replace', value: { id: randomUUID() } }, 'mutability'],
      [{ op: 'replace', path: 'favouriteColour', value: 'blue' }, 'invalidPath'],
      [{ op: 'replace', path: 'urn:example:foreign:2.0:User:level', value: 9 }, 'invalidPath'],
      [{ op: 'replace', value: { displayName: 'x', favouriteColour: 'blue' } }, 'invalidPath'],
      [{ op: 'remove' }, 'noTarget'],
      [{ op: 'merge', path: 'displayName', value: 'x' }, 'invalidSyntax'],
      [{ op: 'replace', path: 'active', value: 'perhaps' }, 'invalidValue'],
      [{ op: 'remove', path: 'userName' }, 'invalidValue'],
    ];
    for (const [operation, scimType] of cases) {
      const answer = await call(
        'PATCH',
        `/Users/${id}`,
        patchOp({ op: 'replace', path: 'displayName', value: 'changed' }, operation),
      );
      expect([JSON.stringify(operation), answer.status, answer.body.scimType]).toEqual([
        JSON.stringify(operation),
        400,
        scimType,
      ]);
    }
    const noSchema = await call('PATCH', `/Users/${id}`, {
      Operations: [{ op: 'replace', path: 'displayName', value: 'x' }],
    });
    expect(noSchema.body.scimType).toBe('invalidSyntax');
    await unchanged();
  });

  it('refuses oversized, malformed and mistyped bodies, and unknown parameters and paths, in SCIM errors', async () => {
    const huge = JSON.stringify({ schemas: [USER], userName: 'big', displayName: 'x'.repeat(1_100_000) });
    const tooLarge = await call('POST', '/Users', huge);
    expect(tooLarge).toMatchObject({ status: 413, body: { status: '413' } });
    const malformed = await call('POST', '/Users', '{"schemas": [');
    expect(malformed).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    const proto = await call(
      'POST',
      '/Users',
      '{"schemas":["' + USER + '"],"userName":"p","__proto__":{"x":1}}',
    );
    expect(proto.status).toBe(400);
    const text = await call('POST', '/Users', 'userName=a', { 'content-type': 'text/plain' });
    expect(text).toMatchObject({ status: 415, body: { status: '415' } });
    expect((await call('GET', '/Users?sortBy=userName')).body.scimType).toBe('invalidValue');
    expect((await call('GET', '/Users?count=ten')).body.scimType).toBe('invalidValue');
    expect((await call('GET', `/Users/${id}?attributes=favouriteColour`)).body.scimType).toBe('invalidValue');
    expect((await call('GET', '/Bulk')).status).toBe(404);
    expect((await call('GET', '/Users/not-a-uuid')).status).toBe(404);
    const wrongMethod = await call('POST', `/Users/${id}`, { schemas: [USER], userName });
    expect(wrongMethod.status).toBe(405);
    expect(await userCount()).toBeGreaterThan(0);
    await unchanged();
  });

  it('never disables or demotes the primary admin: such a request is refused whole', async () => {
    const ada = await call('POST', '/Users', { schemas: [USER], userName: 'idp|ada', displayName: 'Ada A.' });
    expect(ada.status).toBe(201);
    const adminMembers = [
      { service: 'genomics', role: 'ADMIN', enabled: true },
      { service: 'math', role: 'ADMIN', enabled: true },
    ];
    expect(await members('idp|ada')).toEqual(adminMembers);
    const id = ada.body.id;
    const off = await call(
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(off).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
    expect(off.body.detail).toMatch(/primary admin/);
    expect((await call('GET', `/Users/${id}`)).body.active).toBe(true);
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(400);
    const admins = await roleGroup('referee-math-admin');
    expect(
      (
        await call(
          'PATCH',
          `/Groups/${admins}`,
          patchOp({ op: 'add', path: 'members', value: [{ value: id }] }),
        )
      ).status,
    ).toBe(200);
    const demoted = await call(
      'PATCH',
      `/Groups/${admins}`,
      patchOp({ op: 'remove', path: `members[value eq "${id}"]` }),
    );
    expect(demoted).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
    expect((await call('DELETE', `/Groups/${admins}`)).status).toBe(400);
    expect((await call('GET', `/Groups/${admins}`)).body.members).toEqual([
      expect.objectContaining({ value: id }),
    ]);
    expect(await members('idp|ada')).toEqual(adminMembers);
  });
});
