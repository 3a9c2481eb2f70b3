import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Generated parts of a doc sit between `<!-- BEGIN <name> -->` and `<!-- END <name> -->` lines; the tool that
 * measured a table writes it there, so a doc holds exactly one run's table and never a hand-kept log.
 */
export const sectionMarkers = (name: string): { begin: string; end: string } => ({
  begin: `<!-- BEGIN ${name}: written by the tool named below; do not edit by hand -->`,
  end: `<!-- END ${name} -->`,
});

/** Returns `doc` with the named section's body replaced by `body`; throws when the markers are missing. */
export function replaceDocSection(doc: string, name: string, body: string): string {
  const { begin, end } = sectionMarkers(name);
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end, start + begin.length);
  if (start < 0 || stop < 0) throw new Error(`the doc has no section "${name}" (expected the line ${begin})`);
  return `${doc.slice(0, start + begin.length)}\n${body.trim()}\n${doc.slice(stop)}`;
}

/** The body of a named section, or undefined when the doc has none. */
export function readDocSection(doc: string, name: string): string | undefined {
  const { begin, end } = sectionMarkers(name);
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end, start + begin.length);
  return start < 0 || stop < 0 ? undefined : doc.slice(start + begin.length, stop).trim();
}

/** Rewrites the named section of the file at `path` in place. */
export function writeDocSection(path: string, name: string, body: string): void {
  writeFileSync(path, replaceDocSection(readFileSync(path, 'utf8'), name, body));
}
