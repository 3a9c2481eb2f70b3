import busboy from 'busboy';
import {
  discardRest,
  type SpooledUpload,
  spoolWithDigest,
  UploadIncompleteError,
  UploadTooLargeError,
} from '../../../storage/hashingUpload';
import { type ApiError, problems } from '../../kernel/errors';
import { PICTURE_SNIFF_BYTES } from './picture';
import { PICTURE_MAX_BYTES } from './schemas';
import type { HttpExchange } from '../../kernel/operation';
import { mathProblems } from '../problems';

/** Text fields are small (a 10,000-character description is at most 40,000 bytes of UTF-8). */
const FIELD_MAX_BYTES = 64 * 1024;
/** Room for the text fields and the multipart framing on top of the picture. */
export const FORM_MAX_BYTES = PICTURE_MAX_BYTES + 256 * 1024;

export interface BugReportForm {
  fields: Record<string, string>;
  /** The picture's bytes, spooled and hashed; null when none (or an empty file part) was sent. */
  picture: SpooledUpload | null;
}

/**
 * Streams a multipart/form-data bug report: text fields into memory (bounded), the one `picture` file
 * part through SHA-256 into a temporary file with a hard 8 MiB limit (413 beyond). Any other file part, a
 * repeated field or a form over its limits is a 4xx; nothing is kept on a refusal.
 */
export async function readBugReportForm(http: HttpExchange): Promise<BugReportForm> {
  if (http.mediaType !== 'multipart/form-data') throw problems.unsupportedMediaType('multipart/form-data');
  const declared = Number(http.contentLength || 0);
  if (declared > FORM_MAX_BYTES) throw problems.payloadTooLarge(FORM_MAX_BYTES);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': http.contentType },
      limits: {
        fieldNameSize: 100,
        fieldSize: FIELD_MAX_BYTES,
        fields: 10,
        files: 1,
        fileSize: PICTURE_MAX_BYTES + 1,
        parts: 11,
        headerPairs: 20,
      },
    });
  } catch {
    throw mathProblems.badRequest(
      'malformed_multipart',
      'The multipart/form-data body has no valid boundary.',
    );
  }

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let picture: Promise<SpooledUpload | null> | null = null;
    let refusal: ApiError | null = null;
    let received = 0;
    const refuse = (problem: ApiError) => {
      refusal ??= problem;
    };
    const fieldError = (name: string, message: string) =>
      refuse(problems.validation([{ path: `body.${name}`, message: `body.${name} ${message}` }]));

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > FORM_MAX_BYTES) {
        http.body.unpipe(parser);
        http.body.off('data', onData);
        parser.destroy();
        discardRest(http.body);
        void finish(problems.payloadTooLarge(FORM_MAX_BYTES));
      }
    };

    parser.on('field', (name, value, info) => {
      if (Object.hasOwn(fields, name)) return fieldError(name, 'must be sent once');
      if (info.valueTruncated || info.nameTruncated) return fieldError(name, 'is too long');
      if (name === 'picture') return fieldError(name, 'must be a file part (with a filename)');
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'picture' || picture) {
        stream.resume();
        return fieldError(name, 'is not an accepted file part (only one `picture`)');
      }
      picture = spoolWithDigest(stream, { maxBytes: PICTURE_MAX_BYTES, headBytes: PICTURE_SNIFF_BYTES }).then(
        async (spooled) => {
          if (spooled.sizeBytes > 0 || info.filename) return spooled;
          await spooled.dispose();
          return null;
        },
        (error: unknown) => {
          if (error instanceof UploadTooLargeError) refuse(problems.payloadTooLarge(PICTURE_MAX_BYTES));
          else if (error instanceof UploadIncompleteError)
            refuse(problems.badRequest('upload_incomplete', 'The picture ended before its last byte.'));
          else throw error;
          return null;
        },
      );
    });
    parser.on('filesLimit', () => fieldError('picture', 'must be sent once'));
    parser.on('fieldsLimit', () =>
      refuse(mathProblems.badRequest('too_many_fields', 'The form has too many fields.')),
    );
    parser.on('partsLimit', () =>
      refuse(mathProblems.badRequest('too_many_parts', 'The form has too many parts.')),
    );
    parser.on('error', (error: Error) => {
      http.body.unpipe(parser);
      discardRest(http.body);
      void finish(
        mathProblems.badRequest(
          'malformed_multipart',
          `The multipart/form-data body is malformed: ${error.message}`,
        ),
      );
    });
    parser.on('close', () => void finish(null));

    let finished = false;
    async function finish(failure: ApiError | null): Promise<void> {
      if (finished) return;
      finished = true;
      http.body.off('data', onData);
      http.body.off('close', onRequestGone);
      http.body.off('error', onRequestGone);
      let spooled: SpooledUpload | null;
      try {
        spooled = picture ? await picture : null;
      } catch (error) {
        return reject(error);
      }
      const problem = failure ?? refusal;
      if (problem) {
        await spooled?.dispose();
        return reject(problem);
      }
      resolve({ fields, picture: spooled });
    }

    const onRequestGone = () => {
      if (!http.body.complete) parser.destroy(new Error('the request ended before the form did'));
    };
    http.body.once('close', onRequestGone);
    http.body.once('error', onRequestGone);
    http.body.on('data', onData);
    http.body.pipe(parser);
  });
}
