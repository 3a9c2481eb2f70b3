import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runOperatorChecks } from './operatorChecks';
import { assignTasks, createTopics, seedPeopleAndMathRun } from './dataset';
import { startBenchSystem } from './system';
import { exitWhenDone } from './exitWhenDone';

/**
 * Times `reconcile` and `verify-storage` over the bench's dataset (100,000 math tasks by default; `--tasks`),
 * with some tasks and topics given workflows through the API as the bench does:
 * `npx tsx bench/operatorTimes.ts [--tasks N] [--workflows N] [--topics N]`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tasks: { type: 'string', default: '100000' },
      workflows: { type: 'string', default: '600' },
      topics: { type: 'string', default: '2000' },
    },
  });
  const log = (line: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  const dataDir = await mkdtemp(join(tmpdir(), 'referee-optimes-'));
  const system = await startBenchSystem({ dataDir, log });
  try {
    const { people, counts, importSeconds } = await seedPeopleAndMathRun(system, {
      tasks: Number(values.tasks),
      dataDir,
      seed: 1,
      runId: 'times-run',
    });
    log(`imported ${JSON.stringify(counts)} in ${importSeconds.toFixed(1)} s`);
    const assigned = await assignTasks(system, people, 'times-run', Number(values.workflows));
    const topics = await createTopics(system, people, 'batch-700', Number(values.topics));
    log(`${assigned.length} math tasks given a workflow, ${topics.length} genomics topics created`);

    await runOperatorChecks(system, log);
  } finally {
    await system.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

exitWhenDone(main);
