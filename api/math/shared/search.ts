import { storableText } from './ids';

export const Q_MAX = 200;

/** `q`: a case-insensitive literal substring, 1 to 200 characters, searched as given (not trimmed). */
export const searchQuery = () => storableText().min(1).max(Q_MAX);

/**
 * The ILIKE pattern that matches `q` literally anywhere: `\`, `%` and `_` are escaped, so they are
 * ordinary characters. Use it as `column ILIKE $n` (backslash is PostgreSQL's default LIKE escape).
 */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
