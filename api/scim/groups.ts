import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  bumpScimGroup,
  bumpScimUsers,
  deleteScimGroup,
  deleteScimGroupMembers,
  identityOf,
  insertScimGroup,
  insertScimGroupMembers,
  projectIdentity,
  roleOfGroup,
  type ScimGroupRow,
  selectExistingScimUserIds,
  selectScimGroup,
  selectScimGroups,
  selectScimUser,
  updateScimGroup,
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
  type ScimRequest,
  type ScimResponse,
} from './http';
import { applyPatch, readPatch } from './patch';
import { parseAttributeList, type ReadResource, readResource, shapeResource } from './resources';
import { GROUP_SCHEMA, LIST_RESPONSE_SCHEMA, RESOURCE_TYPES } from './schemas';
import { MAX_RESULTS } from './users';

const groupType = RESOURCE_TYPES[1];
const MAX_DISPLAY_NAME = 256;

export function presentGroup(row: ScimGroupRow, baseUrl: string): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    members: row.members.map((m) => ({
      value: m.id,
      display: m.user_name,
      $ref: `${baseUrl}/Users/${m.id}`,
      type: 'User',
    })),
    meta: {
      resourceType: 'Group',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${baseUrl}/Groups/${row.id}`,
      version: etagOf(row.version),
    },
  };
}

/** The name, external id and member ids of a read Group body; every member must be a stored User. */
async function storedGroup(tx: EntityManager, read: ReadResource) {
  const displayName = String(read.attributes.displayName).trim();
  if (displayName.length > MAX_DISPLAY_NAME)
    throw scimErrors.badRequest(
      'invalidValue',
      `displayName must be at most ${MAX_DISPLAY_NAME} characters.`,
    );
  const members = (read.attributes.members as Array<{ value?: string; type?: string }> | undefined) ?? [];
  const ids = new Set<string>();
  for (const [i, member] of members.entries()) {
    if (member.type !== undefined && member.type !== 'User')
      throw scimErrors.badRequest(
        'invalidValue',
        `members[${i}]: only Users can be members (groups do not nest).`,
      );
    if (typeof member.value !== 'string' || !isResourceId(member.value))
      throw scimErrors.badRequest('invalidValue', `members[${i}].value must be the id of a User.`);
    ids.add(member.value.toLowerCase());
  }
  const existing = new Set(await selectExistingScimUserIds(tx, [...ids]));
  const missing = [...ids].filter((id) => !existing.has(id));
  if (missing.length > 0)
    throw scimErrors.badRequest('invalidValue', `No User has id ${missing.join(', ')}.`);
  const externalId = read.attributes.externalId;
  return { displayName, externalId: typeof externalId === 'string' ? externalId : null, memberIds: [...ids] };
}

const shape = (request: ScimRequest, resource: Record<string, unknown>) =>
  shapeResource(groupType, resource, {
    attributes: parseAttributeList(groupType, request.query.attributes),
    excluded: parseAttributeList(groupType, request.query.excludedAttributes),
  });

async function answer(
  tx: EntityManager,
  request: ScimRequest,
  id: string,
  status: number,
): Promise<ScimResponse> {
  const row = (await selectScimGroup(tx, id))!;
  const body = presentGroup(row, request.baseUrl);
  return {
    status,
    body: shape(request, body),
    etag: etagOf(row.version),
    location: `${request.baseUrl}/Groups/${id}`,
  };
}

/**
 * Writes a Group's name and members and re-projects the Users whose roles may have changed: those added or
 * removed, or every member old and new when the role the group's name carries changed.
 */
async function writeGroup(
  tx: EntityManager,
  request: ScimRequest,
  current: ScimGroupRow | null,
  next: Awaited<ReturnType<typeof storedGroup>>,
): Promise<string> {
  const id = current?.id ?? randomUUID();
  request.audit.resource_id = id;
  if (!current) await insertScimGroup(tx, { id, displayName: next.displayName, externalId: next.externalId });
  const before = new Set(current?.members.map((m) => m.id) ?? []);
  const after = new Set(next.memberIds);
  const added = [...after].filter((u) => !before.has(u));
  const removed = [...before].filter((u) => !after.has(u));
  const renamed = current !== null && current.display_name !== next.displayName;
  const externalChanged = current !== null && current.external_id !== next.externalId;
  if (current && (renamed || externalChanged))
    await updateScimGroup(tx, { id, displayName: next.displayName, externalId: next.externalId });
  else if (current && (added.length > 0 || removed.length > 0)) await bumpScimGroup(tx, id);
  await insertScimGroupMembers(tx, id, added);
  await deleteScimGroupMembers(tx, id, removed);
  const roleBefore = current ? roleOfGroup(current.display_name) : null;
  const roleAfter = roleOfGroup(next.displayName);
  const roleChanged = JSON.stringify(roleBefore) !== JSON.stringify(roleAfter);
  const affected = roleChanged
    ? [...new Set([...before, ...after])]
    : roleAfter
      ? [...added, ...removed]
      : [];
  // Users whose `groups` changed show a new version, whether or not their roles did.
  await bumpScimUsers(tx, renamed ? [...new Set([...before, ...after])] : [...added, ...removed]);
  for (const userId of affected.sort()) {
    const user = await selectScimUser(tx, userId);
    if (user)
      await projectIdentity(tx, identityOf(user), {
        tokenId: request.tokenId,
        reason: 'removed from its role group',
        groupService: (roleBefore ?? roleAfter)?.service,
      });
  }
  return id;
}

async function loadLocked(tx: EntityManager, request: ScimRequest): Promise<ScimGroupRow> {
  const id = request.params.id;
  const row = isResourceId(id) ? await selectScimGroup(tx, id, { lock: true }) : undefined;
  if (!row) throw scimErrors.notFound(`No Group has id ${id}.`);
  checkIfMatch(request, row.version);
  return row;
}

export async function createGroup(request: ScimRequest): Promise<ScimResponse> {
  const read = readResource(groupType, request.body);
  shape(request, {});
  return inTransaction(request.dataSource, async (tx) => {
    const next = await storedGroup(tx, read);
    if ((await selectScimGroups(tx, { displayName: next.displayName, members: false })).length > 0)
      throw scimErrors.conflict(`A Group named "${next.displayName}" exists already.`);
    const id = await writeGroup(tx, request, null, next);
    return answer(tx, request, id, 201);
  });
}

export async function readGroup(request: ScimRequest): Promise<ScimResponse> {
  const id = request.params.id;
  const row = isResourceId(id) ? await selectScimGroup(request.dataSource, id) : undefined;
  if (!row) throw scimErrors.notFound(`No Group has id ${id}.`);
  const body = shape(request, presentGroup(row, request.baseUrl));
  if (notModified(request, row.version)) return { status: 304, etag: etagOf(row.version) };
  return { status: 200, body, etag: etagOf(row.version) };
}

export async function listGroups(request: ScimRequest): Promise<ScimResponse> {
  const filter = compileFilter(groupType, request.query.filter);
  const page = readPage(request.query, MAX_RESULTS);
  const attributes = parseAttributeList(groupType, request.query.attributes);
  const excluded = parseAttributeList(groupType, request.query.excludedAttributes);
  const rows = await selectScimGroups(
    request.dataSource,
    filter?.indexed?.attribute === 'displayName' ? { displayName: filter.indexed.value } : {},
  );
  const matching = rows
    .map((row) => presentGroup(row, request.baseUrl))
    .filter((g) => !filter || filter.test(g));
  const resources = matching
    .slice(page.startIndex - 1, page.startIndex - 1 + page.count)
    .map((g) => shapeResource(groupType, g, { attributes, excluded }));
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

export async function replaceGroup(request: ScimRequest): Promise<ScimResponse> {
  const read = readResource(groupType, request.body);
  shape(request, {});
  return inTransaction(request.dataSource, async (tx) => {
    const current = await loadLocked(tx, request);
    await writeGroup(tx, request, current, await storedGroup(tx, read));
    return answer(tx, request, current.id, 200);
  });
}

export async function patchGroup(request: ScimRequest): Promise<ScimResponse> {
  const operations = readPatch(groupType, request.body, request.params.id);
  shape(request, {});
  return inTransaction(request.dataSource, async (tx) => {
    const current = await loadLocked(tx, request);
    const patched = applyPatch(presentGroup(current, request.baseUrl), operations);
    await writeGroup(tx, request, current, await storedGroup(tx, readResource(groupType, patched)));
    return answer(tx, request, current.id, 200);
  });
}

export async function deleteGroup(request: ScimRequest): Promise<ScimResponse> {
  request.audit.resource_id = request.params.id;
  return inTransaction(request.dataSource, async (tx) => {
    const current = await loadLocked(tx, request);
    const members = current.members.map((m) => m.id);
    await deleteScimGroup(tx, current.id);
    await bumpScimUsers(tx, members);
    if (roleOfGroup(current.display_name)) {
      for (const userId of [...members].sort()) {
        const user = await selectScimUser(tx, userId);
        if (user)
          await projectIdentity(tx, identityOf(user), {
            tokenId: request.tokenId,
            reason: 'its role group was deleted',
            groupService: roleOfGroup(current.display_name)?.service,
          });
      }
    }
    return { status: 204 };
  });
}
