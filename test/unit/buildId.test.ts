import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { workerBuildId, workerInputs } from '../../deployment/buildId';
import { projectRoot } from '../../infra/paths';

/** A copy of the files the worker runs, and one documentation page it does not, in a folder of its own. */
function copyOfWorker(): string {
  const root = mkdtempSync(join(tmpdir(), 'referee-build-id-'));
  for (const file of [...workerInputs(projectRoot), 'docs/workflow-evolution.md', 'tsconfig.json']) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(projectRoot, file), join(root, file));
  }
  return root;
}

describe('the worker build ID', () => {
  let root: string;
  beforeEach(() => {
    root = copyOfWorker();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is the same for the same code in another folder (another machine)', () => {
    expect(workerBuildId(root, {})).toBe(workerBuildId(projectRoot, {}));
    expect(workerBuildId(root, {})).toMatch(/^b[0-9a-f]{16}$/);
  });

  it('covers the workflows, the activities and the dependencies, not the documentation', () => {
    const inputs = workerInputs(root);
    expect(inputs).toEqual(
      expect.arrayContaining([
        'worker.ts',
        'workflows/mathTask/workflow.ts',
        'workflows/taskEntity.ts',
        'activities/mathTransitions.ts',
        'package-lock.json',
      ]),
    );
    expect(inputs.filter((file) => file.endsWith('.md'))).toEqual([]);
  });

  it('covers nothing of infra/: the development infrastructure is no part of a worker version', () => {
    expect(workerInputs(root).filter((file) => file.startsWith('infra/'))).toEqual([]);
  });

  it('stays the same after an unrelated documentation change', () => {
    const before = workerBuildId(root, {});
    appendFileSync(join(root, 'docs/workflow-evolution.md'), '\nAnother paragraph.\n');
    expect(workerBuildId(root, {})).toBe(before);
  });

  it('changes with a workflow change', () => {
    const before = workerBuildId(root, {});
    appendFileSync(join(root, 'workflows/mathTask/state.ts'), '\nexport const ADDED_RULE = 1;\n');
    expect(workerBuildId(root, {})).not.toBe(before);
  });

  it('changes with an activity change and with a new file the workflows import', () => {
    const before = workerBuildId(root, {});
    appendFileSync(join(root, 'activities/mathTransitions.ts'), '\n// a changed activity\n');
    const afterActivity = workerBuildId(root, {});
    expect(afterActivity).not.toBe(before);
    writeFileSync(join(root, 'workflows/added.ts'), 'export const ADDED = 2;\n');
    appendFileSync(join(root, 'workflows/index.ts'), "\nexport { ADDED } from './added';\n");
    expect(workerInputs(root)).toContain('workflows/added.ts');
    expect(workerBuildId(root, {})).not.toBe(afterActivity);
  });

  it('names a workflow variant built for a drill apart from the code as written', () => {
    expect(workerBuildId(root, { REFEREE_WORKFLOW_VARIANT: 'extra-upsert' })).not.toBe(
      workerBuildId(root, {}),
    );
  });
});
