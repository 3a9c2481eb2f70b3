import { idempotencyKeySchema } from '../../kernel/idempotency';
import { typed } from '../../kernel/typedSchema';

/** An optional Idempotency-Key on a streamed upload (the handler fingerprints the spooled bytes itself). */
export const uploadIdempotencyHeader = {
  'idempotency-key': typed
    .as<string>()(idempotencyKeySchema)
    .description(
      'Makes the upload safe to retry: the same key with the same bytes and metadata returns the stored ' +
        'receipt; with anything else, 409. 16 to 128 characters of `A-Z a-z 0-9 . _ : -`.',
    ),
};
export const uploadIdempotencyHeaders = typed.object(uploadIdempotencyHeader);

/** A conditional download: `If-None-Match` with the ETag (the SHA-256) the client holds answers 304. */
export const downloadHeaders = typed.object({
  'if-none-match': typed
    .string()
    .max(8192)
    .description(
      'ETags the client holds (`"<sha256>"`, a list, or `*`); a match answers 304 without a body.',
    ),
});
