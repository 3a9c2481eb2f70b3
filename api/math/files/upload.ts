import {
  discardRest,
  type SpooledUpload,
  spoolWithDigest,
  UploadIncompleteError,
  UploadTooLargeError,
} from '../../../storage/hashingUpload';
import { problems } from '../../kernel/errors';
import type { HttpExchange } from '../../kernel/operation';
import { mathProblems } from '../problems';

/**
 * Refuses a request body by its headers alone, before a byte is read: 413 when the declared length is over
 * `maxBytes`, 400 when it declares no body. A chunked body is counted while it streams instead.
 */
export function checkDeclaredLength(http: HttpExchange, maxBytes: number): void {
  const header = http.contentLength;
  const chunked = http.chunked;
  if (!header && !chunked) throw mathProblems.badRequest('empty_body', 'The request body is empty.');
  if (!header) return;
  const declared = Number(header);
  if (!Number.isSafeInteger(declared) || declared < 0)
    throw mathProblems.badRequest('invalid_content_length', 'Content-Length is not a byte count.');
  if (declared === 0) throw mathProblems.badRequest('empty_body', 'The request body is empty.');
  if (declared > maxBytes) throw problems.payloadTooLarge(maxBytes);
}

/** Spools the raw request body through SHA-256 into a temporary file; never more than `maxBytes`. */
export async function spoolRequestBody(http: HttpExchange, maxBytes: number): Promise<SpooledUpload> {
  let spooled: SpooledUpload;
  try {
    spooled = await spoolWithDigest(http.body, { maxBytes });
  } catch (error) {
    if (error instanceof UploadTooLargeError) throw problems.payloadTooLarge(maxBytes);
    if (error instanceof UploadIncompleteError)
      throw problems.badRequest('upload_incomplete', 'The request body ended before its declared length.');
    throw error;
  }
  if (spooled.sizeBytes === 0) {
    await spooled.dispose();
    throw mathProblems.badRequest('empty_body', 'The request body is empty.');
  }
  return spooled;
}

/**
 * Runs `respond` when the request body has been refused or consumed: whatever part of a refused body the
 * client is still sending is read and dropped (up to a cap), so it can read the answer.
 */
export async function refusingUnreadBody<T>(http: HttpExchange, respond: () => Promise<T>): Promise<T> {
  try {
    return await respond();
  } catch (error) {
    discardRest(http.body);
    throw error;
  }
}
