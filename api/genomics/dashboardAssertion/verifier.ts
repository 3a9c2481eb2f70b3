import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import Joi from 'joi';
import { type JWTPayload, jwtVerify } from 'jose';
import { ROLES, type Role, SCOPES, type Scope } from '../../../entities/types';

/**
 * Genomics request-bound dashboard assertions (docs/dashboard-assertion.md): a JWT signed by the dashboard
 * for exactly one request — its method, its path with query and the SHA-256 of its body — naming the member
 * (`sub` = identity id) and the role and scopes it may use. Signature and time checks are jose's; this
 * module adds the request binding. Single use is enforced in PostgreSQL by the caller (`jti`).
 */

/** `Authorization: Assertion <compact JWS>`. */
export const ASSERTION_SCHEME = 'Assertion';
/** The JOSE `typ` header every assertion carries, so no other JWT signed with the same key passes. */
export const ASSERTION_TYPE = 'dashboard-assertion+jwt';
export const ASSERTION_AUDIENCE = 'referee-genomics';
/** Longest allowed `exp - iat`. */
export const ASSERTION_MAX_LIFETIME_SECONDS = 60;
/** Tolerated clock difference between the dashboard and the API, on `iat` and `exp`. */
export const ASSERTION_CLOCK_SKEW_SECONDS = 5;

/** SHA-256 (lowercase hex) of the raw request body; an absent body hashes as the empty string. */
export const bodySha256 = (raw: string | Buffer): string => createHash('sha256').update(raw).digest('hex');

/** A verified assertion, before its single use is recorded and its member looked up. */
export interface DashboardAssertion {
  jti: string;
  identityId: string;
  role: Role;
  scopes: Scope[];
  method: string;
  path: string;
  bodySha256: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Why an assertion is refused; never echoed in detail to the caller. */
export class AssertionRejected extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'AssertionRejected';
  }
}

export interface AssertionVerifier {
  /** Checks signature, type, audience, times and the binding to this request's method and target. */
  verify(jws: string, request: { method: string; target: string }, now?: Date): Promise<DashboardAssertion>;
}

/** The credential of an `Authorization: Assertion …` header, or null for any other header. */
export function assertionCredential(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Assertion +([A-Za-z0-9_.-]+) *$/i.exec(header);
  return match ? match[1] : null;
}

interface AssertionClaims extends JWTPayload {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
  method: string;
  path: string;
  body_sha256: string;
  role: Role;
  scopes: Scope[];
}

const claimsSchema = Joi.object<AssertionClaims>({
  sub: Joi.string().max(128).required(),
  jti: Joi.string()
    .pattern(/^[A-Za-z0-9._:-]{16,128}$/)
    .required(),
  aud: Joi.alternatives(Joi.string(), Joi.array().items(Joi.string())).required(),
  iat: Joi.number().integer().required(),
  exp: Joi.number().integer().required(),
  nbf: Joi.number().integer(),
  iss: Joi.string().max(200),
  method: Joi.string().valid('GET', 'POST', 'PUT', 'DELETE').required(),
  path: Joi.string().max(8192).pattern(/^\//).required(),
  body_sha256: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .required(),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
  scopes: Joi.array()
    .items(Joi.string().valid(...SCOPES))
    .max(SCOPES.length)
    .unique()
    .required(),
});

interface VerificationKey {
  key: KeyObject | Uint8Array;
  algorithms: string[];
}

/**
 * Reads `GENOMICS_DASHBOARD_ASSERTION_KEY`: an Ed25519 public key in PEM (literal newlines or `\n`), verified
 * as EdDSA, or a shared secret of at least 32 characters, verified as HS256. Throws on anything else, so a
 * misconfigured key stops the API at start rather than refusing every dashboard request later.
 */
export function parseVerificationKey(text: string): VerificationKey {
  const pem = text.replace(/\\n/g, '\n').trim();
  if (pem.startsWith('-----BEGIN')) {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') {
      throw new Error('GENOMICS_DASHBOARD_ASSERTION_KEY must be an Ed25519 public key (or an HS256 secret).');
    }
    return { key, algorithms: ['EdDSA', 'Ed25519'] };
  }
  if (text.length < 32) {
    throw new Error('GENOMICS_DASHBOARD_ASSERTION_KEY: an HS256 secret needs at least 32 characters.');
  }
  return { key: new TextEncoder().encode(text), algorithms: ['HS256'] };
}

/** A verifier for the configured key, or null when assertions are not configured (they are then refused). */
export function createAssertionVerifier(keyText: string | undefined): AssertionVerifier | null {
  if (!keyText) return null;
  const { key, algorithms } = parseVerificationKey(keyText);
  return {
    async verify(jws, request, now = new Date()) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(jws, key, {
          algorithms,
          typ: ASSERTION_TYPE,
          audience: ASSERTION_AUDIENCE,
          clockTolerance: ASSERTION_CLOCK_SKEW_SECONDS,
          requiredClaims: ['sub', 'jti', 'iat', 'exp'],
          currentDate: now,
        }));
      } catch (error) {
        throw new AssertionRejected(error instanceof Error ? error.message : 'invalid assertion');
      }
      const { value: claims, error } = claimsSchema.validate(payload, { allowUnknown: false });
      if (error) throw new AssertionRejected(`claims: ${error.message}`);
      if (claims.exp - claims.iat > ASSERTION_MAX_LIFETIME_SECONDS) {
        throw new AssertionRejected(`lifetime above ${ASSERTION_MAX_LIFETIME_SECONDS} s`);
      }
      if (claims.iat * 1000 > now.getTime() + ASSERTION_CLOCK_SKEW_SECONDS * 1000) {
        throw new AssertionRejected('issued in the future');
      }
      if (claims.method !== request.method.toUpperCase()) throw new AssertionRejected('method mismatch');
      if (claims.path !== request.target) throw new AssertionRejected('path mismatch');
      return {
        jti: claims.jti,
        identityId: claims.sub,
        role: claims.role,
        scopes: claims.scopes,
        method: claims.method,
        path: claims.path,
        bodySha256: claims.body_sha256,
        issuedAt: new Date(claims.iat * 1000),
        expiresAt: new Date(claims.exp * 1000),
      };
    },
  };
}
