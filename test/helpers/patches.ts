import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/** A `patched(id)` call in workflow code and the workflow types that reach it. */
export interface PatchCall {
  id: string;
  file: string;
  workflowTypes: string[];
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

const exportedWorkflows = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/export (?:async function|\{) ?(\w+Workflow)/g)].map((m) => m[1]);

/**
 * Every `patched(…)` in `workflowsDir`: its id (a string literal, or a constant of the same file holding one) and
 * the workflow types of the folder it is in (a shared file outside a workflow's folder: every workflow type).
 */
export function patchCalls(workflowsDir: string): PatchCall[] {
  const allTypes = exportedWorkflows(join(workflowsDir, 'index.ts'));
  return tsFiles(workflowsDir).flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    const folderWorkflow = join(dirname(file), 'workflow.ts');
    const workflowTypes =
      dirname(file) === workflowsDir ? allTypes : exportedWorkflows(folderWorkflow).filter(Boolean);
    return [...source.matchAll(/\bpatched\(\s*([^)]*?)\s*\)/g)].map((match) => {
      const argument = match[1];
      const literal = /^['"`]([^'"`]+)['"`]$/.exec(argument)?.[1];
      const constant = new RegExp(`const ${argument}\\s*=\\s*['"\`]([^'"\`]+)['"\`]`).exec(source)?.[1];
      return {
        id: literal ?? constant ?? `<not a literal: ${argument}>`,
        file: relative(workflowsDir, file),
        workflowTypes,
      };
    });
  });
}

interface HistoryFile {
  events: Array<{
    workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } };
    markerRecordedEventAttributes?: {
      markerName?: string;
      details?: Record<string, { payloads?: Array<{ data?: string }> }>;
    };
  }>;
}

/** The workflow type of a recorded history and the patch ids its markers record. */
function recorded(file: string): { workflowType: string; patches: Set<string> } {
  const history = JSON.parse(readFileSync(file, 'utf8')) as HistoryFile;
  const workflowType =
    history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? basename(file);
  const patches = new Set<string>();
  for (const event of history.events) {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_patch') continue;
    for (const payload of marker.details?.patch_data?.payloads ?? []) {
      const data = JSON.parse(Buffer.from(payload.data ?? '', 'base64').toString('utf8')) as { id?: string };
      if (data.id) patches.add(data.id);
    }
  }
  return { workflowType, patches };
}

/**
 * The patches no recorded history takes the old branch of: a `patched(id)` needs a history of a workflow type that
 * reaches it without the marker of `id` (docs/workflow-evolution.md, "When a patch is still the tool").
 */
export function patchesWithoutOldBranchHistory(workflowsDir: string, historiesDir: string): PatchCall[] {
  const histories = readdirSync(historiesDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => recorded(join(historiesDir, name)));
  return patchCalls(workflowsDir).filter(
    (call) => !histories.some((h) => call.workflowTypes.includes(h.workflowType) && !h.patches.has(call.id)),
  );
}
