/** Characters RFC 8187 lets through unencoded in `filename*` (attr-char). */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/**
 * A name without Unicode format characters (category Cf): bidi overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), zero-width characters, the BOM. They change how a name reads, not what it is:
 * `invoice\u202Efdp.exe` shows as `invoiceexe.pdf`.
 */
export const withoutFormatCharacters = (name: string): string => name.replace(/\p{Cf}/gu, '');

/** A name safe to offer for saving: no folders, no control characters, bounded length, never empty. */
export function safeFilename(name: string, fallback = 'download'): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = withoutFormatCharacters(base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')).trim();
  const bounded = Array.from(cleaned).slice(0, 200).join('');
  return bounded === '' || bounded === '.' || bounded === '..' ? fallback : bounded;
}

/**
 * `Content-Disposition: attachment` per RFC 6266: a plain ASCII `filename` for old clients and the exact
 * UTF-8 name in `filename*` (RFC 8187). Always `attachment`, never `inline`, so stored content is never
 * rendered in the API's origin.
 */
export function attachmentDisposition(name: string): string {
  const filename = safeFilename(name);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = Array.from(Buffer.from(filename, 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return byte < 0x80 && ATTR_CHAR.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
