import type { DataSource, EntityManager } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import { ProvisioningRefusal } from '../../access/provisioning';
import { scimErrors } from './errors';

/** What a SCIM handler gets: the request as read and checked by the router (api/scim/routes.ts). */
export interface ScimRequest {
  dataSource: DataSource;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  headers: { ifMatch?: string; ifNoneMatch?: string };
  /** The absolute URL of `/scim/v2`, for `meta.location` and `$ref`s. */
  baseUrl: string;
  tokenId: string;
  /** Facts for the SCIM audit row of this request (resource ids). */
  audit: Record<string, unknown>;
}

export interface ScimResponse {
  status: number;
  body?: unknown;
  etag?: string;
  location?: string;
}

/** The weak ETag of a resource version (`meta.version` and the ETag header). */
export const etagOf = (version: number): string => `W/"${version}"`;

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Refuses a change whose If-Match names another version (412); no If-Match, no check (RFC 7644 §3.14). */
export function checkIfMatch(request: ScimRequest, version: number): void {
  const header = request.headers.ifMatch;
  if (header === undefined) return;
  const tags = header.split(',').map(opaque);
  if (tags.includes('*') || tags.includes(opaque(etagOf(version)))) return;
  throw scimErrors.preconditionFailed(
    `The resource is at version ${etagOf(version)}, not ${header}: read it again and retry.`,
  );
}

/** True when If-None-Match names the current version (a GET then answers 304). */
export function notModified(request: ScimRequest, version: number): boolean {
  const header = request.headers.ifNoneMatch;
  if (header === undefined) return false;
  const tags = header.split(',').map(opaque);
  return tags.includes('*') || tags.includes(opaque(etagOf(version)));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isResourceId = (id: string): boolean => UUID.test(id);

/** Constraints whose violation means "this value is taken" (409 uniqueness), never a bug. */
const UNIQUE_CONSTRAINTS: Record<string, string> = {
  scim_users_user_name_key: 'Another User has this userName.',
  scim_groups_display_name_key: 'Another Group has this displayName.',
  members_service_identity_id_key: 'A member who is not this User already has this userName as identity.',
};

/**
 * Runs a handler's writes in one transaction, so a refusal at any step changes nothing; translates what the
 * database and the projection refuse into SCIM errors by SQLSTATE and constraint name.
 */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  try {
    return await dataSource.transaction(work);
  } catch (error) {
    if (error instanceof ProvisioningRefusal) throw scimErrors.badRequest('mutability', error.detail);
    if (error instanceof QueryFailedError) {
      const driver = error.driverError as { code?: string; constraint?: string };
      const detail = driver.code === '23505' ? UNIQUE_CONSTRAINTS[driver.constraint ?? ''] : undefined;
      if (detail) throw scimErrors.conflict(detail);
    }
    throw error;
  }
}

/** Reads `startIndex` and `count` (RFC 7644 §3.4.2.4): 1-based; count 0 asks only for the total. */
export function readPage(
  query: ScimRequest['query'],
  maxResults: number,
): { startIndex: number; count: number } {
  const integer = (name: string, fallback: number) => {
    const value = query[name];
    if (value === undefined) return fallback;
    if (!/^-?\d{1,9}$/.test(value))
      throw scimErrors.badRequest('invalidValue', `${name} must be an integer.`);
    return Number(value);
  };
  return {
    startIndex: Math.max(1, integer('startIndex', 1)),
    count: Math.min(maxResults, Math.max(0, integer('count', maxResults))),
  };
}

export const iso = (date: Date | string): string => new Date(date).toISOString();

/** JSON with its object keys sorted, so two values compare equal whatever order PostgreSQL's jsonb keeps. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
