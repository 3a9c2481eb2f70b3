/** Helpers of the joi → JSON Schema converter that need no joi: JSON values, and patterns without flags. */

export const isJsonValue = (v: unknown): boolean =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v) || Array.isArray(v) || isPlainObject(v);

export const isPlainObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype && !('ref' in v);

export const jsonType = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v === 'number'
          ? 'number'
          : typeof v;

export function withNull(type: unknown): unknown {
  const types = Array.isArray(type) ? type : [type];
  return types.includes('null') ? types : [...types, 'null'];
}

const isLetter = (c: string | undefined): c is string => c !== undefined && /^[A-Za-z]$/.test(c);
const otherCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/**
 * A regex source with the `i` flag spelled out (JSON Schema patterns take no flags): `T` → `[Tt]`, and
 * `[a-f]` → `[a-fA-F]`. Escapes (`\d`, `\u0041`, `\p{L}`) are copied as they are.
 */
export function caseInsensitive(source: string): string | null {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const escape =
        /^\\(u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[pP]\{[^}]*\}|c[A-Za-z]|k<[^>]*>|.)/.exec(
          source.slice(i),
        );
      const text = escape ? escape[0] : c;
      if (denotesCasedLetter(text)) return null;
      out += text;
      i += text.length - 1;
    } else if (inClass) {
      if (c === ']') inClass = false;
      if (isLetter(c) && source[i + 1] === '-' && isLetter(source[i + 2])) {
        const end = source[i + 2];
        out += `${c}-${end}${otherCase(c)}-${otherCase(end)}`;
        i += 2;
      } else out += isLetter(c) ? `${c}${otherCase(c)}` : c;
    } else if (!inClass && /^\(\?<[A-Za-z_$]/.test(source.slice(i))) {
      const group = /^\(\?<[^>]*>/.exec(source.slice(i))![0]; // a named group's name keeps its case
      out += group;
      i += group.length - 1;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === '^') out += source[++i];
    } else out += isLetter(c) ? `[${c}${otherCase(c)}]` : c;
  }
  return out;
}

function denotesCasedLetter(escape: string): boolean {
  const code = /^\\(?:u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))$/.exec(escape);
  if (code) return isLetter(String.fromCodePoint(parseInt(code[1] ?? code[2] ?? code[3], 16)));
  return /^\\[pP]\{(?:[^}]*=)?(?:Lu|Ll|Lt|LC|Uppercase_Letter|Lowercase_Letter|Titlecase_Letter|Cased_Letter|Uppercase|Lowercase)\}$/.test(
    escape,
  );
}

/** True when the pattern accepts the empty string (or cannot be compiled, so nothing is claimed). */
export function matchesEmpty(pattern: string): boolean {
  try {
    return new RegExp(pattern, 'u').test('');
  } catch {
    return true;
  }
}
