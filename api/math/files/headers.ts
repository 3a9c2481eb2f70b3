import Joi from 'joi';
import { idempotencyKeySchema } from '../../kernel/idempotency';

/** An optional Idempotency-Key on a streamed upload (the handler fingerprints the spooled bytes itself). */
export interface UploadIdempotencyHeaders {
  'idempotency-key'?: string;
}
export const uploadIdempotencyHeader = {
  'idempotency-key': idempotencyKeySchema.description(
    'Makes the upload safe to retry: the same key with the same bytes and metadata returns the stored ' +
      'receipt; with anything else, 409. 16 to 128 characters of `A-Z a-z 0-9 . _ : -`.',
  ),
};
export const uploadIdempotencyHeaders = Joi.object<UploadIdempotencyHeaders>(uploadIdempotencyHeader);

/** A conditional download: `If-None-Match` with the ETag (the SHA-256) the client holds answers 304. */
export interface DownloadHeaders {
  'if-none-match'?: string;
}
export const downloadHeaders = Joi.object<DownloadHeaders>({
  'if-none-match': Joi.string()
    .max(8192)
    .description(
      'ETags the client holds (`"<sha256>"`, a list, or `*`); a match answers 304 without a body.',
    ),
});
