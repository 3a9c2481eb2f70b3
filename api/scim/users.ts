import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  deleteScimUser,
  identityOf,
  insertScimUser,
  projectIdentity,
  type ScimUserRow,
  selectScimUser,
  selectScimUsers,
  updateScimUser,
} from '../../access/provisioning';
import { scimErrors } from './errors';
import { compileFilter } from './filter';
import {
  checkIfMatch,
  etagOf,
  inTransaction,
  isResourceId,
  iso,
  notModified,
  readPage,
  sameJson,
  type ScimRequest,
  type ScimResponse,
} from './http';
import { applyPatch, readPatch } from './patch';
import {
  MAX_USER_NAME,
  parseAttributeList,
  type ReadResource,
  readResource,
  shapeResource,
} from './resources';
import { ENTERPRISE_USER_SCHEMA, LIST_RESPONSE_SCHEMA, RESOURCE_TYPES, USER_SCHEMA } from './schemas';

const userType = RESOURCE_TYPES[0];
/** The most resources one list answer holds (ServiceProviderConfig `filter.maxResults`). */
export const MAX_RESULTS = 200;

/** A stored User as SCIM presents it: its attributes listed from the row, ours (`id`, `groups`, `meta`) added. */
export function presentUser(row: ScimUserRow, baseUrl: string): Record<string, unknown> {
  const { [ENTERPRISE_USER_SCHEMA]: enterprise, ...core } = row.resource;
  return {
    schemas: enterprise ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    ...core,
    active: row.active,
    ...(row.groups.length > 0
      ? {
          groups: row.groups.map((g) => ({
            value: g.id,
            display: g.display_name,
            $ref: `${baseUrl}/Groups/${g.id}`,
            type: 'direct',
          })),
        }
      : {}),
    ...(enterprise ? { [ENTERPRISE_USER_SCHEMA]: enterprise } : {}),
    meta: {
      resourceType: 'User',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${baseUrl}/Users/${row.id}`,
      version: etagOf(row.version),
    },
  };
}

/** The columns and stored attributes of a read User body. */
function storedUser(read: ReadResource) {
  const { userName, externalId, active, ...attributes } = read.attributes;
  const name = String(userName).trim();
  if (name.length > MAX_USER_NAME)
    throw scimErrors.badRequest('invalidValue', `userName must be at most ${MAX_USER_NAME} characters.`);
  return {
    userName: name,
    externalId: typeof externalId === 'string' ? externalId : null,
    active: active !== false,
    resource: { ...attributes, ...read.extensions },
  };
}

const shape = (request: ScimRequest, resource: Record<string, unknown>) =>
  shapeResource(userType, resource, {
    attributes: parseAttributeList(userType, request.query.attributes),
    excluded: parseAttributeList(userType, request.query.excludedAttributes),
  });

async function loadLocked(tx: EntityManager, request: ScimRequest): Promise<ScimUserRow> {
  const id = request.params.id;
  const row = isResourceId(id) ? await selectScimUser(tx, id, true) : undefined;
  if (!row) throw scimErrors.notFound(`No User has id ${id}.`);
  checkIfMatch(request, row.version);
  return row;
}

async function answer(
  tx: EntityManager,
  request: ScimRequest,
  id: string,
  status: number,
): Promise<ScimResponse> {
  const row = (await selectScimUser(tx, id))!;
  const body = presentUser(row, request.baseUrl);
  return {
    status,
    body: shape(request, body),
    etag: etagOf(row.version),
    location: String((body.meta as { location: string }).location),
  };
}

export async function createUser(request: ScimRequest): Promise<ScimResponse> {
  const stored = storedUser(readResource(userType, request.body));
  shape(request, {});
  return inTransaction(request.dataSource, async (tx) => {
    if ((await selectScimUsers(tx, { userName: stored.userName })).length > 0)
      throw scimErrors.conflict(`A User with userName "${stored.userName}" exists already.`);
    const id = randomUUID();
    request.audit.resource_id = id;
    await insertScimUser(tx, { id, ...stored });
    const row = (await selectScimUser(tx, id))!;
    await projectIdentity(tx, identityOf(row), { tokenId: request.tokenId, reason: 'inactive in SCIM' });
    return answer(tx, request, id, 201);
  });
}

export async function readUser(request: ScimRequest): Promise<ScimResponse> {
  const id = request.params.id;
  const row = isResourceId(id) ? await selectScimUser(request.dataSource, id) : undefined;
  if (!row) throw scimErrors.notFound(`No User has id ${id}.`);
  const body = shape(request, presentUser(row, request.baseUrl));
  if (notModified(request, row.version)) return { status: 304, etag: etagOf(row.version) };
  return { status: 200, body, etag: etagOf(row.version) };
}

export async function listUsers(request: ScimRequest): Promise<ScimResponse> {
  const filter = compileFilter(userType, request.query.filter);
  const page = readPage(request.query, MAX_RESULTS);
  const attributes = parseAttributeList(userType, request.query.attributes);
  const excluded = parseAttributeList(userType, request.query.excludedAttributes);
  const rows = await selectScimUsers(
    request.dataSource,
    filter?.indexed?.attribute === 'userName'
      ? { userName: filter.indexed.value }
      : filter?.indexed?.attribute === 'externalId'
        ? { externalId: filter.indexed.value }
        : {},
  );
  const matching = rows
    .map((row) => presentUser(row, request.baseUrl))
    .filter((u) => !filter || filter.test(u));
  const resources = matching
    .slice(page.startIndex - 1, page.startIndex - 1 + page.count)
    .map((u) => shapeResource(userType, u, { attributes, excluded }));
  return {
    status: 200,
    body: {
      schemas: [LIST_RESPONSE_SCHEMA],
      totalResults: matching.length,
      startIndex: page.startIndex,
      itemsPerPage: resources.length,
      Resources: resources,
    },
  };
}

/** Writes a User's new state and its members' projection; unchanged input changes nothing (not even the version). */
async function writeUser(
  tx: EntityManager,
  request: ScimRequest,
  current: ScimUserRow,
  next: ReturnType<typeof storedUser>,
): Promise<ScimResponse> {
  const unchanged =
    next.userName === current.user_name &&
    next.externalId === current.external_id &&
    next.active === current.active &&
    sameJson(next.resource, current.resource);
  if (!unchanged) {
    if (next.userName.toLowerCase() !== current.user_name.toLowerCase()) {
      if ((await selectScimUsers(tx, { userName: next.userName })).length > 0)
        throw scimErrors.conflict(`A User with userName "${next.userName}" exists already.`);
    }
    await updateScimUser(tx, { id: current.id, ...next });
    const row = (await selectScimUser(tx, current.id))!;
    await projectIdentity(
      tx,
      { ...identityOf(row), previousUserName: current.user_name },
      { tokenId: request.tokenId, reason: next.active ? 'no role group' : 'deactivated over SCIM' },
    );
  }
  return answer(tx, request, current.id, 200);
}

export async function replaceUser(request: ScimRequest): Promise<ScimResponse> {
  const next = storedUser(readResource(userType, request.body));
  shape(request, {});
  request.audit.resource_id = request.params.id;
  return inTransaction(request.dataSource, async (tx) =>
    writeUser(tx, request, await loadLocked(tx, request), next),
  );
}

export async function patchUser(request: ScimRequest): Promise<ScimResponse> {
  const operations = readPatch(userType, request.body, request.params.id);
  shape(request, {});
  request.audit.resource_id = request.params.id;
  return inTransaction(request.dataSource, async (tx) => {
    const current = await loadLocked(tx, request);
    const patched = applyPatch(presentUser(current, request.baseUrl), operations);
    return writeUser(tx, request, current, storedUser(readResource(userType, patched)));
  });
}

export async function deleteUser(request: ScimRequest): Promise<ScimResponse> {
  request.audit.resource_id = request.params.id;
  return inTransaction(request.dataSource, async (tx) => {
    const current = await loadLocked(tx, request);
    await projectIdentity(
      tx,
      { ...identityOf(current), active: false },
      { tokenId: request.tokenId, reason: 'deleted over SCIM' },
    );
    await deleteScimUser(tx, current.id);
    return { status: 204 };
  });
}
