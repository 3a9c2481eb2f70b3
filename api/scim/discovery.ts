import { scimErrors } from './errors';
import type { ScimRequest, ScimResponse } from './http';
import { ALL_SCHEMAS, commonAttributes, LIST_RESPONSE_SCHEMA, RESOURCE_TYPES } from './schemas';
import { MAX_RESULTS } from './users';

/** The most operations a PATCH carries (api/scim/patch.ts) and the body limit, as ServiceProviderConfig states them. */
export interface ProviderLimits {
  maxPayloadSize: number;
}

const listOf = (resources: unknown[]) => ({
  schemas: [LIST_RESPONSE_SCHEMA],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

const meta = (request: ScimRequest, resourceType: string, path: string) => ({
  resourceType,
  location: `${request.baseUrl}${path}`,
});

/** What this service provider supports (RFC 7643 §5); read by Entra ID's and Okta's connectors. */
export function serviceProviderConfig(request: ScimRequest, limits: ProviderLimits): ScimResponse {
  return {
    status: 200,
    body: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'Provisioning token',
          description: 'Authorization: Bearer <token of "referee scim-tokens create">',
          primary: true,
        },
      ],
      maxPayloadSize: limits.maxPayloadSize,
      meta: meta(request, 'ServiceProviderConfig', '/ServiceProviderConfig'),
    },
  };
}

const resourceTypeOf = (request: ScimRequest, type: (typeof RESOURCE_TYPES)[number]) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: type.name,
  name: type.name,
  endpoint: type.endpoint,
  description: type.schema.description,
  schema: type.schema.id,
  schemaExtensions: type.extensions.map((e) => ({ schema: e.id, required: false })),
  meta: meta(request, 'ResourceType', `/ResourceTypes/${type.name}`),
});

export function resourceTypes(request: ScimRequest): ScimResponse {
  const name = request.params.name;
  if (name === undefined)
    return { status: 200, body: listOf(RESOURCE_TYPES.map((t) => resourceTypeOf(request, t))) };
  const type = RESOURCE_TYPES.find((t) => t.name === name);
  if (!type) throw scimErrors.notFound(`No resource type is named ${name}.`);
  return { status: 200, body: resourceTypeOf(request, type) };
}

const schemaOf = (request: ScimRequest, schema: (typeof ALL_SCHEMAS)[number]) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
  id: schema.id,
  name: schema.name,
  description: schema.description,
  // The common attributes (id, externalId, meta) belong to every resource, not to a schema (RFC 7643 §3.1).
  attributes: schema.attributes.filter((a) => !commonAttributes.includes(a)),
  meta: meta(request, 'Schema', `/Schemas/${schema.id}`),
});

export function schemas(request: ScimRequest): ScimResponse {
  const id = request.params.id;
  if (id === undefined) return { status: 200, body: listOf(ALL_SCHEMAS.map((s) => schemaOf(request, s))) };
  const schema = ALL_SCHEMAS.find((s) => s.id === id);
  if (!schema) throw scimErrors.notFound(`No schema has id ${id}.`);
  return { status: 200, body: schemaOf(request, schema) };
}
