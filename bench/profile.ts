import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: an npm package, a project file, or a Node.js internal. */
export function ownerOf(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/')[0];
  const project = /\/work\/[^/]+\/(.+)$/.exec(url) ?? /([^/]+\/[^/]+)$/.exec(url);
  return project ? project[1] : url;
}

/**
 * Self time (ms) by owner and by function of one .cpuprofile, busiest first; with `lastSeconds`, only the
 * samples of the profile's final seconds (a load run just before the process stopped, without start-up), and
 * with `untilSeconds` as well, only those from `lastSeconds` to `untilSeconds` before its end (one pair of a
 * bench run, found from the run's log: the profile ends when the run logs `stopping`).
 */
export function summarizeProfile(profile: CpuProfile, top = 15, lastSeconds?: number, untilSeconds = 0) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const from = lastSeconds ? profile.endTime - lastSeconds * 1e6 : -Infinity;
  const to = profile.endTime - untilSeconds * 1e6;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    total += ms;
    const owner = ownerOf(frame.url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
    const fn = `${frame.functionName || '(anonymous)'} ${owner}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  // Inclusive time of the project's own functions (under node_modules: self time only, above).
  const inclusive = new Map<number, number>();
  const visit = (id: number): number => {
    const node = byId.get(id);
    const ms = (self.get(id) ?? 0) + (node?.children ?? []).reduce((sum, child) => sum + visit(child), 0);
    inclusive.set(id, ms);
    return ms;
  };
  visit(profile.nodes[0].id);
  const byProjectFunction = new Map<string, number>();
  for (const [id, ms] of inclusive) {
    const frame = byId.get(id)?.callFrame;
    if (!frame?.url || frame.url.includes('node_modules') || frame.url.startsWith('node:')) continue;
    const fn = `${frame.functionName || '(anonymous)'} ${ownerOf(frame.url)}:${frame.lineNumber + 1}`;
    byProjectFunction.set(fn, (byProjectFunction.get(fn) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()]
      .sort(([, x], [, y]) => y - x)
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), share: ms / total }));
  return {
    totalMs: Math.round(total),
    byOwner: sorted(byOwner),
    byFunction: sorted(byFunction),
    byProjectFunction: sorted(byProjectFunction),
  };
}

/** Summaries of every profile in a folder (one per process or thread run). */
export async function summarizeProfiles(
  dir: string,
  top = 15,
  lastSeconds?: number,
  untilSeconds = 0,
): Promise<string[]> {
  const lines: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const summary = summarizeProfile(profile, top, lastSeconds, untilSeconds);
    // Threads idle after start-up (a module loader's, when one runs) sample almost nothing.
    if (summary.totalMs < (lastSeconds ? 100 : 1000)) continue;
    lines.push(`${file}: ${summary.totalMs} ms of CPU sampled`);
    const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
    lines.push(`  by package: ${summary.byOwner.map((o) => `${o.name} ${pct(o.share)}`).join(', ')}`);
    lines.push('  self time:');
    for (const f of summary.byFunction) lines.push(`  ${pct(f.share).padStart(6)}  ${f.name}`);
    lines.push('  project functions, inclusive time:');
    for (const f of summary.byProjectFunction) lines.push(`  ${pct(f.share).padStart(6)}  ${f.name}`);
  }
  return lines;
}

if (require.main === module) {
  // npx tsx bench/profile.ts <dir> [top] [from seconds before the end] [until seconds before the end]
  const [dir = '.', top = '25', lastSeconds, untilSeconds = '0'] = process.argv.slice(2);
  summarizeProfiles(
    dir,
    Number(top),
    lastSeconds ? Number(lastSeconds) : undefined,
    Number(untilSeconds),
  ).then(
    (lines) => console.log(lines.join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
