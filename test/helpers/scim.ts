import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createProvisioningToken } from '../../access/provisioningTokens';
import { scimOpenApi } from '../../api/scim/openapi';
import type { TestStack } from './stack';

export interface ScimResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

const document = scimOpenApi();
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: 'scim', components: document.components } as object);
const validators = new Map<string, ValidateFunction>();
const validatorOf = (name: string) => {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.getSchema(`scim#/components/schemas/${name}`)!;
    validators.set(name, validate);
  }
  return validate;
};

/** The schema of the published contract (api/scim/openapi.ts) an answer must match, by path and status. */
function schemaFor(method: string, path: string, status: number): string | null {
  if (status >= 400) return 'Error';
  if (status === 204 || status === 304) return null;
  const route = path.split('?')[0].replace(/^\/scim\/v2/, '');
  if (/^\/Users\/[^/]+$/.test(route) || (route === '/Users' && method === 'POST')) return 'User';
  if (/^\/Groups\/[^/]+$/.test(route) || (route === '/Groups' && method === 'POST')) return 'Group';
  if (route === '/Users') return 'UserList';
  if (route === '/Groups') return 'GroupList';
  return null;
}

/**
 * A SCIM request as an identity service sends it (`application/scim+json`, Bearer token); every answer must be
 * `application/scim+json` and match the published contract (errors: SCIM's error schema), or this throws.
 */
export async function scim<T = any>(
  stack: Pick<TestStack, 'url'>,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ScimResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) body = opts.body;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/scim+json; charset=utf-8';
  const response = await fetch(`${stack.url}/scim/v2${path}`, { method, headers, body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (text && !type.startsWith('application/scim+json'))
    throw new Error(`${method} ${path} answered ${response.status} as ${type}: ${text.slice(0, 300)}`);
  const parsed = (text ? JSON.parse(text) : undefined) as T;
  const schema = schemaFor(method, `/scim/v2${path}`, response.status);
  if (schema) {
    const validate = validatorOf(schema);
    if (!validate(parsed))
      throw new Error(
        `${method} ${path} (${response.status}) does not match ${schema}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
      );
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A provisioning token minted straight in the database (the way `referee scim-tokens create` does). */
export async function provisioningToken(stack: TestStack, name = 'test'): Promise<string> {
  return (await createProvisioningToken(stack.dataSource, { name, createdBy: 'test' })).token;
}

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export const patchOp = (...operations: object[]) => ({ schemas: [PATCH_OP], Operations: operations });
