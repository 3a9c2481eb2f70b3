/**
 * The SCIM schemas this service provider understands (RFC 7643 §4, §8.7.1), as data: `/Schemas` publishes them,
 * and request bodies are read and responses shaped from them (api/scim/resources.ts), so the three never disagree.
 */
export interface AttributeDefinition {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime' | 'integer' | 'decimal' | 'binary';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: AttributeDefinition[];
}

export interface SchemaDefinition {
  id: string;
  name: string;
  description: string;
  attributes: AttributeDefinition[];
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Options = Partial<Omit<AttributeDefinition, 'name' | 'type'>>;

const attribute = (
  name: string,
  type: AttributeDefinition['type'],
  description: string,
  options: Options = {},
): AttributeDefinition => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...options,
});

const text = (name: string, description: string, options: Options = {}) =>
  attribute(name, 'string', description, options);

/** The sub-attributes of a multi-valued attribute such as `emails` (RFC 7643 §2.4). */
const multiValued = (name: string, description: string, types: string[], extra: AttributeDefinition[] = []) =>
  attribute(name, 'complex', description, {
    multiValued: true,
    subAttributes: [
      text('value', `The ${name} value.`),
      text('display', 'A human-readable name, for display only.'),
      text('type', 'A label for its function.', { canonicalValues: types }),
      attribute('primary', 'boolean', 'The primary (preferred) one; at most one is primary.'),
      ...extra,
    ],
  });

const readOnlyId = text('id', 'Unique identifier of the resource, issued by this service.', {
  caseExact: true,
  mutability: 'readOnly',
  returned: 'always',
  uniqueness: 'server',
});

export const userSchema: SchemaDefinition = {
  id: USER_SCHEMA,
  name: 'User',
  description: 'A person: a member of the services its groups give it a role in (docs/provisioning.md).',
  attributes: [
    text(
      'userName',
      "The person's identity: every service's member identity_id, the sign-in's member claim.",
      {
        required: true,
        uniqueness: 'server',
      },
    ),
    attribute('name', 'complex', "The person's name.", {
      subAttributes: [
        text('formatted', 'The full name, formatted for display.'),
        text('familyName', 'The family name.'),
        text('givenName', 'The given name.'),
        text('middleName', 'The middle name(s).'),
        text('honorificPrefix', 'Honorific prefix(es).'),
        text('honorificSuffix', 'Honorific suffix(es).'),
      ],
    }),
    text(
      'displayName',
      'The name members are shown with (else name.formatted, given and family name, userName).',
    ),
    text('nickName', 'A casual name.'),
    attribute('profileUrl', 'reference', 'A URL of the online profile.', { referenceTypes: ['external'] }),
    text('title', 'The title, e.g. "Vice President".'),
    text('userType', 'The relationship to the organisation, e.g. "Employee".'),
    text('preferredLanguage', 'Preferred written or spoken language.'),
    text('locale', 'Default location for localisation.'),
    text('timezone', 'Time zone, in IANA form.'),
    attribute('active', 'boolean', 'False disables every membership: keys stop and console sessions end.'),
    text('password', "Accepted and discarded: members sign in with the organisation's provider.", {
      mutability: 'writeOnly',
      returned: 'never',
    }),
    multiValued('emails', "Email addresses; the primary one (else the first) is the members' email.", [
      'work',
      'home',
      'other',
    ]),
    multiValued('phoneNumbers', 'Phone numbers.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
    multiValued('ims', 'Instant messaging addresses.', [
      'aim',
      'gtalk',
      'icq',
      'xmpp',
      'msn',
      'skype',
      'qq',
      'yahoo',
    ]),
    multiValued('photos', 'URLs of photos.', ['photo', 'thumbnail']),
    attribute('addresses', 'complex', 'Physical mailing addresses.', {
      multiValued: true,
      subAttributes: [
        text('formatted', 'The full address.'),
        text('streetAddress', 'The street address.'),
        text('locality', 'The city or locality.'),
        text('region', 'The state or region.'),
        text('postalCode', 'The postal code.'),
        text('country', 'The country (ISO 3166-1 alpha-2).'),
        text('type', 'A label for its function.', { canonicalValues: ['work', 'home', 'other'] }),
        attribute('primary', 'boolean', 'The primary address.'),
      ],
    }),
    attribute('groups', 'complex', 'The groups the User belongs to; changed through the Groups.', {
      multiValued: true,
      mutability: 'readOnly',
      subAttributes: [
        text('value', 'The id of the Group.', { mutability: 'readOnly' }),
        attribute('$ref', 'reference', 'The URI of the Group.', {
          mutability: 'readOnly',
          referenceTypes: ['Group'],
        }),
        text('display', 'The displayName of the Group.', { mutability: 'readOnly' }),
        text('type', 'direct (no group nests another here).', {
          mutability: 'readOnly',
          canonicalValues: ['direct'],
        }),
      ],
    }),
    multiValued('entitlements', 'Entitlements (stored, not interpreted).', []),
    multiValued(
      'roles',
      'Roles (stored, not interpreted: a role comes from a referee-<service>-<role> Group).',
      [],
    ),
    multiValued('x509Certificates', 'Certificates (stored, not interpreted).', []),
  ],
};

export const enterpriseUserSchema: SchemaDefinition = {
  id: ENTERPRISE_USER_SCHEMA,
  name: 'EnterpriseUser',
  description: 'Enterprise User (RFC 7643 §4.3): stored, not interpreted.',
  attributes: [
    text('employeeNumber', 'Employee number.'),
    text('costCenter', 'Cost center.'),
    text('organization', 'Organisation.'),
    text('division', 'Division.'),
    text('department', 'Department.'),
    attribute('manager', 'complex', "The User's manager.", {
      subAttributes: [
        text('value', 'The id of the manager.'),
        attribute('$ref', 'reference', 'The URI of the manager.', { referenceTypes: ['User'] }),
        text('displayName', 'The displayName of the manager.', { mutability: 'readOnly' }),
      ],
    }),
  ],
};

export const groupSchema: SchemaDefinition = {
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'A group of Users; one named referee-<service>-<role> gives its members that role.',
  attributes: [
    text('displayName', 'The name; referee-math-admin, referee-genomics-reviewer, … carry roles.', {
      required: true,
      uniqueness: 'server',
    }),
    attribute('members', 'complex', 'The Users in the group.', {
      multiValued: true,
      subAttributes: [
        text('value', 'The id of the User.', { mutability: 'immutable', caseExact: true }),
        attribute('$ref', 'reference', 'The URI of the User.', {
          mutability: 'immutable',
          referenceTypes: ['User'],
        }),
        text('display', 'The userName of the User.', { mutability: 'readOnly' }),
        text('type', 'User (groups do not nest here).', {
          mutability: 'immutable',
          canonicalValues: ['User'],
        }),
      ],
    }),
  ],
};

/** Attributes every resource has (RFC 7643 §3.1): `externalId` is the client's; `id` and `meta` are ours. */
export const commonAttributes: AttributeDefinition[] = [
  readOnlyId,
  text('externalId', "The identity service's own identifier.", { caseExact: true }),
  attribute('meta', 'complex', 'Resource metadata.', {
    mutability: 'readOnly',
    subAttributes: [
      text('resourceType', 'User or Group.', { mutability: 'readOnly', caseExact: true }),
      attribute('created', 'dateTime', 'When it was created.', { mutability: 'readOnly' }),
      attribute('lastModified', 'dateTime', 'When it last changed.', { mutability: 'readOnly' }),
      attribute('location', 'reference', 'Its URI.', { mutability: 'readOnly', referenceTypes: ['uri'] }),
      text('version', 'Its version, the weak ETag of If-Match.', { mutability: 'readOnly', caseExact: true }),
    ],
  }),
];

/** A resource type: its core schema and the extensions it takes. */
export interface ResourceTypeDefinition {
  name: 'User' | 'Group';
  endpoint: '/Users' | '/Groups';
  schema: SchemaDefinition;
  extensions: SchemaDefinition[];
}

export const RESOURCE_TYPES: ResourceTypeDefinition[] = [
  { name: 'User', endpoint: '/Users', schema: userSchema, extensions: [enterpriseUserSchema] },
  { name: 'Group', endpoint: '/Groups', schema: groupSchema, extensions: [] },
];

export const ALL_SCHEMAS = [userSchema, enterpriseUserSchema, groupSchema];
