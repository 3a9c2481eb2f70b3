import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets. HMAC signing needs the secret itself, so it cannot be stored as a hash like an API key:
 * it is stored sealed with AES-256-GCM under the operator's `WEBHOOK_SECRET_KEY` (32 bytes, base64) and opened
 * only by the worker that signs. The plaintext is returned once, when created or rotated.
 */

const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export class WebhookSealingKeyError extends Error {}

/** The sealing key from its configured text: exactly 32 bytes, base64-encoded. */
export function parseSealingKey(text: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32 || key.toString('base64') !== text.replace(/\s+/g, '')) {
    throw new WebhookSealingKeyError(
      'WEBHOOK_SECRET_KEY must be 32 random bytes in base64 (openssl rand -base64 32)',
    );
  }
  return key;
}

/** `v1.<base64 of iv | tag | ciphertext>`; the endpoint id is bound as associated data. */
export function sealSecret(secret: string, key: Buffer, endpointId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(endpointId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Opens what {@link sealSecret} sealed for that endpoint; throws on any other key, endpoint or a changed byte. */
export function openSecret(sealed: string, key: Buffer, endpointId: string): string {
  if (!sealed.startsWith(SEALED_PREFIX)) throw new WebhookSealingKeyError('Unknown sealed secret format');
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(endpointId));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
