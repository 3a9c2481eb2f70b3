import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { patchCalls, patchesWithoutOldBranchHistory } from '../helpers/patches';

const root = join(__dirname, '..', '..');
const WORKFLOWS = join(root, 'workflows');
const HISTORIES = join(root, 'test', 'fixtures', 'histories');

describe('patches in workflow code (docs/workflow-evolution.md)', () => {
  it('every patched(id) in workflows/ has a recorded history that takes its old branch', () => {
    expect(patchesWithoutOldBranchHistory(WORKFLOWS, HISTORIES)).toEqual([]);
  });

  describe('the check', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'referee-patches-'));
      mkdirSync(join(dir, 'workflows', 'mathTask'), { recursive: true });
      mkdirSync(join(dir, 'histories'));
      writeFileSync(
        join(dir, 'workflows', 'index.ts'),
        "export { mathTaskWorkflow } from './mathTask/workflow';\nexport { importMathRunWorkflow } from './x';\n",
      );
      writeFileSync(
        join(dir, 'workflows', 'mathTask', 'workflow.ts'),
        "const UPSERT_ALWAYS = 'math-task-upsert-always';\n" +
          'export async function mathTaskWorkflow() {\n' +
          "  if (patched(UPSERT_ALWAYS)) return;\n  if (patched('math-task-other')) return;\n}\n",
      );
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('reads literal and constant ids, and the workflow types of their folder', () => {
      expect(patchCalls(join(dir, 'workflows'))).toEqual([
        { id: 'math-task-upsert-always', file: 'mathTask/workflow.ts', workflowTypes: ['mathTaskWorkflow'] },
        { id: 'math-task-other', file: 'mathTask/workflow.ts', workflowTypes: ['mathTaskWorkflow'] },
      ]);
    });

    it('fails a patch with no history of its workflow type', () => {
      copyFileSync(join(HISTORIES, 'import-math-run.json'), join(dir, 'histories', 'import-math-run.json'));
      const missing = patchesWithoutOldBranchHistory(join(dir, 'workflows'), join(dir, 'histories'));
      expect(missing.map((p) => p.id)).toEqual(['math-task-upsert-always', 'math-task-other']);
    });

    it('passes a patch once a history of its workflow type without its marker is recorded', () => {
      copyFileSync(join(HISTORIES, 'math-task.run-1.json'), join(dir, 'histories', 'math-task.run-1.json'));
      expect(patchesWithoutOldBranchHistory(join(dir, 'workflows'), join(dir, 'histories'))).toEqual([]);
    });
  });
});
