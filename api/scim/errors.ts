/** SCIM's error `scimType`s (RFC 7644 §3.12). */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** An answer in SCIM's error schema: every refusal under `/scim/v2` is one, and changes nothing. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  toBody(): { schemas: string[]; status: string; scimType?: ScimType; detail: string } {
    return {
      schemas: [ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.detail,
    };
  }
}

export const scimErrors = {
  badRequest: (scimType: ScimType, detail: string) => new ScimError(400, detail, scimType),
  unauthorized: (detail: string) =>
    new ScimError(401, detail, undefined, { 'WWW-Authenticate': 'Bearer realm="scim"' }),
  notFound: (detail: string) => new ScimError(404, detail),
  conflict: (detail: string) => new ScimError(409, detail, 'uniqueness'),
  preconditionFailed: (detail: string) => new ScimError(412, detail),
  tooLarge: (limit: number) => new ScimError(413, `The request body exceeds ${limit} bytes.`, undefined),
  unsupportedMediaType: () =>
    new ScimError(415, 'Send the body as application/scim+json (or application/json), in UTF-8.'),
  methodNotAllowed: (allowed: string[]) =>
    new ScimError(405, `Use ${allowed.join(', ')} here.`, undefined, { Allow: allowed.join(', ') }),
  tooManyRequests: (detail: string, retryAfterSeconds: number, headers: Record<string, string>) =>
    new ScimError(429, detail, undefined, { ...headers, 'Retry-After': String(retryAfterSeconds) }),
  internal: () => new ScimError(500, 'Something went wrong on our side; nothing was changed.'),
  unavailable: () =>
    new ScimError(503, 'The database is not reachable just now; retry shortly.', undefined, {
      'Retry-After': '5',
    }),
};
