import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ServiceName } from '../entities/types';

/**
 * API key tokens: `<prefix>_<key id, 32 hex>_<secret, 43 base64url = 256 bits>`. The prefix names the
 * service, so a key of one service is recognisably not one of the other; the key id finds the row in one
 * lookup; only SHA-256 of the secret is stored (the secret is random, so a slow hash adds nothing).
 */
export const TOKEN_PREFIX: Record<ServiceName, string> = { math: 'rfm', genomics: 'rfg' };

const TOKEN_PATTERN = /^(rfm|rfg)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface MintedToken {
  keyId: string;
  token: string;
  secretHash: Buffer;
}

export function mintToken(service: ServiceName): MintedToken {
  const keyId = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return {
    keyId,
    token: `${TOKEN_PREFIX[service]}_${keyId.replaceAll('-', '')}_${secret}`,
    secretHash: hashSecret(secret),
  };
}

export interface ParsedToken {
  service: ServiceName;
  keyId: string;
  secret: string;
}

export function parseToken(token: string): ParsedToken | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, prefix, hex, secret] = match;
  const keyId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { service: prefix === 'rfm' ? 'math' : 'genomics', keyId, secret };
}

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

export const secretMatches = (secret: string, storedHash: Buffer): boolean => {
  const candidate = hashSecret(secret);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
};

/** The credential out of an `Authorization: Bearer …` header, or null when the header is absent or not Bearer. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match ? match[1] : null;
}
