import { typed } from '../../kernel/typedSchema';

/** A conditional download: `If-None-Match` with the ETag (the SHA-256) the client holds answers 304. */
export const downloadHeaders = typed.object({
  'if-none-match': typed
    .string()
    .max(8192)
    .description(
      'ETags the client holds (`"<sha256>"`, a list, or `*`); a match answers 304 without a body.',
    ),
});
