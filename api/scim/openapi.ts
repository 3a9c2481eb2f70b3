import type { OpenAPIV3_1 } from 'openapi-types';

type Schema = OpenAPIV3_1.SchemaObject;
type Responses = Record<string, object>;

const SCIM_JSON = 'application/scim+json';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const content = (schema: object) => ({ [SCIM_JSON]: { schema } });

const error = (description: string) => ({ description, content: content(ref('Error')) });
const ERRORS: Responses = {
  '400': error('Bad input (scimType says which): nothing was changed.'),
  '401': error('No valid provisioning token.'),
  '429': error('The token exceeded its request rate limit; see Retry-After.'),
};
const WRITE_ERRORS: Responses = {
  ...ERRORS,
  '404': error('No such resource.'),
  '409': error('uniqueness: the userName or displayName is taken.'),
  '412': error('If-Match names another version.'),
  '413': error('The body exceeds the limit of ServiceProviderConfig.maxPayloadSize.'),
  '415': error('The body is not application/scim+json (or application/json).'),
};
const etag = { ETag: { description: 'The weak ETag of meta.version.', schema: { type: 'string' } } } as const;
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description: 'Apply only to this version (meta.version); otherwise 412.',
  schema: { type: 'string' },
} as const;
const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The id this service issued.',
  schema: { type: 'string' },
} as const;
const query = (name: string, description: string, type: 'string' | 'integer' = 'string') =>
  ({ name, in: 'query', required: false, description, schema: { type } }) as const;
const shaping = [
  query('attributes', 'Return only these attributes (comma-separated paths).'),
  query('excludedAttributes', 'Return all but these attributes (comma-separated paths).'),
];
const listing = [
  query('filter', 'A SCIM filter, e.g. userName eq "ada@example.org".'),
  query('startIndex', '1-based index of the first result.', 'integer'),
  query('count', 'Results per page (at most 200).', 'integer'),
  ...shaping,
];

const meta: Schema = {
  type: 'object',
  required: ['resourceType', 'location'],
  properties: {
    resourceType: { type: 'string' },
    created: { type: 'string', format: 'date-time' },
    lastModified: { type: 'string', format: 'date-time' },
    location: { type: 'string' },
    version: { type: 'string' },
  },
};
const listOf = (item: string): Schema => ({
  type: 'object',
  required: ['schemas', 'totalResults', 'startIndex', 'itemsPerPage', 'Resources'],
  properties: {
    schemas: { type: 'array', items: { const: 'urn:ietf:params:scim:api:messages:2.0:ListResponse' } },
    totalResults: { type: 'integer', minimum: 0 },
    startIndex: { type: 'integer', minimum: 1 },
    itemsPerPage: { type: 'integer', minimum: 0 },
    Resources: { type: 'array', items: ref(item) },
  },
});

/** One resource collection's five operations, read like a row of RFC 7644 §3's table. */
function collection(name: 'User' | 'Group', plural: string): Record<string, object> {
  const ok = (status: string, description: string): Responses => ({
    [status]: { description, headers: etag, content: content(ref(name)) },
  });
  return {
    [`/scim/v2/${plural}`]: {
      get: {
        operationId: `list${plural}`,
        summary: `List ${plural}`,
        tags: [plural],
        parameters: listing,
        responses: {
          '200': { description: 'A page of matching resources.', content: content(ref(`${name}List`)) },
          ...ERRORS,
        },
      },
      post: {
        operationId: `create${name}`,
        summary: `Create a ${name}`,
        tags: [plural],
        parameters: shaping,
        requestBody: { required: true, content: content(ref(name)) },
        responses: { ...ok('201', 'Created.'), ...WRITE_ERRORS },
      },
    },
    [`/scim/v2/${plural}/{id}`]: {
      get: {
        operationId: `read${name}`,
        summary: `Read a ${name}`,
        tags: [plural],
        parameters: [idParameter, ...shaping],
        responses: {
          ...ok('200', 'The resource.'),
          '304': { description: 'If-None-Match names its version.' },
          ...WRITE_ERRORS,
        },
      },
      put: {
        operationId: `replace${name}`,
        summary: `Replace a ${name}`,
        tags: [plural],
        parameters: [idParameter, ifMatch, ...shaping],
        requestBody: { required: true, content: content(ref(name)) },
        responses: { ...ok('200', 'Replaced.'), ...WRITE_ERRORS },
      },
      patch: {
        operationId: `patch${name}`,
        summary: `Patch a ${name}`,
        tags: [plural],
        parameters: [idParameter, ifMatch, ...shaping],
        requestBody: { required: true, content: content(ref('PatchOp')) },
        responses: { ...ok('200', 'Patched.'), ...WRITE_ERRORS },
      },
      delete: {
        operationId: `delete${name}`,
        summary: `Delete a ${name}`,
        description:
          name === 'User'
            ? "Disables the person's memberships (keys stop, console sessions end); the members stay."
            : 'Members of a role group lose its role.',
        tags: [plural],
        parameters: [idParameter, ifMatch],
        responses: { '204': { description: 'Deleted.' }, ...WRITE_ERRORS },
      },
    },
  };
}

const discovery = (path: string, operationId: string, summary: string, tag = 'Discovery') => ({
  [path]: {
    get: {
      operationId,
      summary,
      tags: [tag],
      ...(path.includes('{')
        ? { parameters: [{ ...idParameter, name: path.includes('{name}') ? 'name' : 'id' }] }
        : {}),
      responses: {
        '200': { description: summary, content: content({ type: 'object' }) },
        ...ERRORS,
        ...(path.includes('{') ? { '404': error('No such one.') } : {}),
      },
    },
  },
});

/**
 * The published contract of the SCIM 2.0 service provider (served at /scim/v2/openapi.json). Resource shapes are
 * RFC 7643's; `/Schemas` lists every attribute this service understands.
 */
export function scimOpenApi(): OpenAPIV3_1.Document {
  const resource = (name: string, required: string[], properties: Record<string, Schema>): Schema => ({
    type: 'object',
    description: `A SCIM ${name} (RFC 7643); every attribute /Schemas declares is accepted.`,
    required: ['schemas', ...required],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, minItems: 1 },
      id: { type: 'string', readOnly: true },
      externalId: { type: 'string' },
      ...properties,
      meta: { ...meta, readOnly: true },
    },
    additionalProperties: true,
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Referee SCIM 2.0 service provider',
      version: '2.0',
      description:
        "Provisioning of members by the organisation's identity service (RFC 7643, RFC 7644): Users, Groups that " +
        'carry roles (referee-<service>-<role>), and discovery. Authenticate with a provisioning token ' +
        '(`referee scim-tokens create`). See docs/provisioning.md.',
    },
    servers: [{ url: '/', description: 'The server that publishes this document.' }],
    security: [{ ProvisioningToken: [] }],
    tags: [
      { name: 'Discovery', description: 'What this service provider supports.' },
      {
        name: 'Users',
        description: 'People; a User is a member of the services its groups give it a role in.',
      },
      { name: 'Groups', description: 'Groups; one named referee-<service>-<role> gives that role.' },
    ],
    paths: {
      ...discovery(
        '/scim/v2/ServiceProviderConfig',
        'serviceProviderConfig',
        'The service provider configuration',
      ),
      ...discovery('/scim/v2/ResourceTypes', 'resourceTypes', 'The resource types'),
      ...discovery('/scim/v2/ResourceTypes/{name}', 'resourceType', 'One resource type'),
      ...discovery('/scim/v2/Schemas', 'schemas', 'The schemas'),
      ...discovery('/scim/v2/Schemas/{id}', 'schema', 'One schema'),
      ...collection('User', 'Users'),
      ...collection('Group', 'Groups'),
    } as OpenAPIV3_1.PathsObject,
    components: {
      securitySchemes: {
        ProvisioningToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A provisioning token (rfs_…); API keys and console sessions are refused here.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['schemas', 'status', 'detail'],
          properties: {
            schemas: { type: 'array', items: { const: 'urn:ietf:params:scim:api:messages:2.0:Error' } },
            status: { type: 'string', pattern: '^[1-5][0-9][0-9]$' },
            scimType: {
              type: 'string',
              enum: [
                'invalidFilter',
                'tooMany',
                'uniqueness',
                'mutability',
                'invalidSyntax',
                'invalidPath',
                'noTarget',
                'invalidValue',
                'invalidVers',
                'sensitive',
              ],
            },
            detail: { type: 'string' },
          },
          additionalProperties: false,
        },
        User: resource('User', ['userName'], {
          userName: { type: 'string', maxLength: 128 },
          active: { type: 'boolean' },
          displayName: { type: 'string' },
          emails: { type: 'array', items: { type: 'object' } },
          groups: { type: 'array', readOnly: true, items: { type: 'object' } },
        }),
        Group: resource('Group', ['displayName'], {
          displayName: { type: 'string', maxLength: 256 },
          members: {
            type: 'array',
            items: {
              type: 'object',
              required: ['value'],
              properties: {
                value: { type: 'string' },
                display: { type: 'string' },
                $ref: { type: 'string' },
              },
            },
          },
        }),
        UserList: listOf('User'),
        GroupList: listOf('Group'),
        PatchOp: {
          type: 'object',
          required: ['schemas', 'Operations'],
          properties: {
            schemas: { type: 'array', items: { const: 'urn:ietf:params:scim:api:messages:2.0:PatchOp' } },
            Operations: {
              type: 'array',
              minItems: 1,
              maxItems: 1000,
              items: {
                type: 'object',
                required: ['op'],
                properties: {
                  op: { type: 'string', description: 'add, remove or replace (any case).' },
                  path: { type: 'string' },
                  value: {},
                },
              },
            },
          },
        },
      },
    },
  };
}
