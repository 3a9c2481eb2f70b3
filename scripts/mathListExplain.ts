import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '../api/kernel/authenticate';
import { type TaskFilters, type TaskSort, taskCountSql, taskPageSql } from '../api/math/tasks/queries';
import { projectRoot } from '../infra/paths';
import { type ExplainCase, explainAnalyze, principalOf, withScratchDatabase } from './explainCommon';
import { generatedTaskId, generateMathTasks, REVIEWERS } from './mathTaskRows';

/**
 * Writes docs/math-task-list-explain.md: EXPLAIN (ANALYZE, BUFFERS) of the task list's own SQL (built by
 * the same functions the API uses) over 100,000 generated tasks, for an Owner and a Reviewer. It creates a
 * scratch database on the PostgreSQL at EXPLAIN_DATABASE_ADMIN_URL (default 127.0.0.1:5432), migrates it,
 * fills it with INSERT … SELECT generate_series, and drops it afterwards.
 *
 *   npx tsx scripts/mathListExplain.ts [--tasks 100000] [--out docs/math-task-list-explain.md]
 */

const tasksFlag = process.argv.indexOf('--tasks');
const TASKS = tasksFlag > 0 ? Number(process.argv[tasksFlag + 1]) : 100_000;
const outFlag = process.argv.indexOf('--out');
const OUT = outFlag > 0 ? process.argv[outFlag + 1] : join('docs', 'math-task-list-explain.md');
const taskIdOf = (n: number) => generatedTaskId(n, TASKS);

function listCase(
  title: string,
  request: string,
  principal: Principal,
  filters: TaskFilters,
  sort: TaskSort,
  page = 1,
): ExplainCase[] {
  return [
    { title, request, query: taskPageSql(principal, filters, sort, { page, page_size: 25 }) },
    { title: `${title}: total and counts`, request, query: taskCountSql(principal, filters) },
  ];
}

async function main(): Promise<void> {
  await withScratchDatabase(async (db) => {
    const started = Date.now();
    await generateMathTasks(db, TASKS);
    const generatedIn = ((Date.now() - started) / 1000).toFixed(1);
    const [owner] = await db.query(`SELECT id::text FROM members WHERE identity_id = 'bench|owner'`);
    // The Reviewer is the one assigned task 77777, so their selective search has a match.
    const [reviewer] = await db.query(
      `SELECT m.id::text, m.identity_id FROM math_tasks t JOIN members m ON m.id = t.assignee_id
        WHERE t.task_id = $1`,
      [taskIdOf(77777)],
    );
    const [{ server_version: serverVersion }] = await db.query('SHOW server_version');
    const version = String(serverVersion).split(' ')[0];
    const [{ visible }] = await db.query(
      'SELECT count(*)::int AS visible FROM math_tasks WHERE assignee_id = $1',
      [reviewer.id],
    );
    const [{ titleFragment }] = await db.query(`SELECT left(md5('77777'), 7) AS "titleFragment"`);
    const asOwner = principalOf('math', 'OWNER', owner.id);
    const asReviewer = principalOf('math', 'REVIEWER', reviewer.id);
    const cases: ExplainCase[] = [
      ...listCase(
        'Owner: filtered, searched, sorted (newest update first)',
        'GET /api/math/workflow?q=logistic&review_state=IN_REVIEW&sort=updated',
        asOwner,
        { q: 'logistic', review_state: 'IN_REVIEW', surface: 'evaluations' },
        'updated',
      ),
      ...listCase(
        'Owner: no filter, default order (newest update first)',
        'GET /api/math/tasks',
        asOwner,
        { surface: 'all' },
        'updated',
      ),
      ...listCase(
        'Owner: selective literal search with `_` and `%`, by topic',
        'GET /api/math/tasks?q=case_4242%20in%2042%25&sort=topic',
        asOwner,
        { q: 'case_4242 in 42%', surface: 'all' },
        'topic',
      ),
      ...listCase(
        'Owner: search on a title fragment, evaluations surface',
        `GET /api/math/workflow?q=${titleFragment}`,
        asOwner,
        { q: titleFragment, surface: 'evaluations' },
        'updated',
      ),
      ...listCase(
        'Owner: run filter and unassigned reviewer, oldest first, page 3',
        'GET /api/math/tasks?run_id=bench-run-3&reviewer_id=unassigned&sort=oldest&page=3',
        asOwner,
        { run_id: 'bench-run-3', reviewer_id: 'unassigned', surface: 'all' },
        'oldest',
        3,
      ),
      ...listCase(
        'Reviewer: broad search, sorted, within their assigned tasks',
        'GET /api/math/tasks?q=squares&sort=updated',
        asReviewer,
        { q: 'squares', surface: 'all' },
        'updated',
      ),
      ...listCase(
        'Reviewer: selective search within their assigned tasks',
        `GET /api/math/tasks?q=case_77777`,
        asReviewer,
        { q: 'case_77777', surface: 'all' },
        'updated',
      ),
      ...listCase(
        'Reviewer: release surface, oldest first',
        'GET /api/math/tasks?surface=release&sort=oldest',
        asReviewer,
        { surface: 'release' },
        'oldest',
      ),
    ];
    const sections: string[] = [];
    for (const c of cases) {
      sections.push(
        `### ${c.title}\n\n\`${c.request}\`\n\n\`\`\`sql\n${c.query.sql.replace(/\n\s+/g, '\n  ')}\n-- params: ${JSON.stringify(
          c.query.params,
        )}\n\`\`\`\n\n\`\`\`text\n${await explainAnalyze(db, c.query)}\n\`\`\``,
      );
    }
    const doc = `# Math task list: EXPLAIN at ${TASKS.toLocaleString('en')} tasks

Generated by \`npx tsx scripts/mathListExplain.ts\` (PostgreSQL ${version}) into a scratch database that the script
creates, migrates with the project's migrations, fills with \`INSERT … SELECT generate_series\` (${TASKS.toLocaleString(
      'en',
    )} tasks over 10 runs and 200 topics, 20,000 reports, ${REVIEWERS} reviewers, 5 clients; generated in ${generatedIn} s),
\`ANALYZE\`s and drops. The SQL is built by \`taskPageSql\` / \`taskCountSql\` in \`api/math/tasks/queries.ts\`, the
functions the API runs, so the plans are the API's own. Each query ran once before \`EXPLAIN\` to warm the cache.
The Reviewer (\`${reviewer.identity_id}\`) has ${visible.toLocaleString('en')} assigned tasks.

What to look for: the page query reads the sort index (\`math_tasks_updated\`, \`math_tasks_topic\`, or
\`math_tasks_assignee_updated\` for a Reviewer, whose visibility condition \`t.assignee_id = $n\` is its leading
column) and stops after the page (Limit); \`q\` goes through the \`gin_trgm_ops\` indexes on task id, title and problem
(a BitmapOr of three Bitmap Index Scans) when it is selective, while a broad \`q\` is cheaper as a filter on the sort
index that stops after the page; filters use their partial or composite indexes. The count query (\`total\` and
\`counts\`) visits every matching row: through the indexes when the match is selective; when a large share of the
table matches it reads most of the table's pages (a parallel sequential scan, or a bitmap heap scan), so its time
grows with the table; the API computes it once per list shape between writes (docs/benchmark.md).

${sections.join('\n\n')}
`;
    await writeFile(join(projectRoot, OUT), doc);
    console.log(`wrote ${OUT} (${cases.length} plans)`);
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
