import type { DataSource } from 'typeorm';
import { listTopics, type TopicListFilter, topicListSql } from '../api/genomics/topics/queries';
import {
  emitReport,
  type ExplainCase,
  explainAnalyze,
  principalOf,
  withScratchDatabase,
} from './explainCommon';

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of the genomics task and topic lists' own SQL as Markdown (built by
 * `topicListSql`, the function `listTopics` runs for `GET /api/v1/tasks` and `GET /api/v1/topics`) over 100,000
 * generated topics, for an Owner and a Reviewer. It creates a scratch database on the PostgreSQL at
 * EXPLAIN_DATABASE_ADMIN_URL (default 127.0.0.1:5432), migrates it, fills it with INSERT … SELECT generate_series,
 * and drops it afterwards.
 *
 *   npm run explain:genomics -- [--topics 100000] [--out <file>]
 */

const topicsFlag = process.argv.indexOf('--topics');
const TOPICS = topicsFlag > 0 ? Number(process.argv[topicsFlag + 1]) : 100_000;
const PER_BATCH = 500;
const REVIEWERS = 10;
const PAGE_SIZE = 100;
/** The deep page, reached by following `next` from the first page. */
const DEEP_PAGE = 50;
/** A topic with a submitted review: its reviewer is the Reviewer, its uid and title the selective searches. */
const PROBE_UID = 'batch-077:72';

async function generate(db: DataSource, topics: number): Promise<void> {
  await db.query(`
    INSERT INTO members (service, identity_id, username, display_name, role, primary_admin)
    VALUES ('genomics', 'bench|owner', 'owner', 'Bench Owner', 'OWNER', false);
    INSERT INTO members (service, identity_id, username, display_name, role)
    SELECT 'genomics', 'bench|r' || i, 'r' || i, 'Bench Reviewer ' || i, 'REVIEWER'
      FROM generate_series(1, ${REVIEWERS}) i;
    INSERT INTO members (service, identity_id, username, display_name, role)
    VALUES ('genomics', 'bench|newcomer', 'newcomer', 'Bench Newcomer', 'REVIEWER');
    INSERT INTO genomics_campaigns (id, name)
    SELECT 'cmp-' || y || '-' || s, initcap(s) || ' ' || y || ' delivery'
      FROM generate_series(2025, 2026) y, unnest(ARRAY['spring', 'autumn']) s;
    INSERT INTO genomics_clients (source_id, name)
    SELECT 'client-' || i, 'Bench client ' || i FROM generate_series(1, 5) i;
  `);
  // Topic i is topic (i - 1) % 500 + 1 of batch-NNN (500 topics a batch). Its review state comes from
  // k = i % 20: 0–5 never assigned; 6–10 an ACTIVE assignment (9–10 with feedback); 11–16 a SUBMITTED
  // review; 17 reviewer removed; 18 assignment expired (TIMED_OUT); 19 reassigned after a submitted review.
  // Reviewers take blocks of 50 consecutive topics, as an Owner assigns them; a newcomer has one ASSIGNED
  // topic in every 2,000 (i % 2000 = 7, so k = 7).
  await db.query(
    `WITH r AS (SELECT array_agg(id ORDER BY id) AS ids FROM members WHERE identity_id LIKE 'bench|r%'),
          n AS (SELECT id FROM members WHERE identity_id = 'bench|newcomer'),
          g AS (SELECT i, i % 20 AS k, (i - 1) / ${PER_BATCH} + 1 AS b, ((i - 1) / 50 + (i - 1) / ${PER_BATCH}) % ${REVIEWERS} AS rr,
                       (ARRAY['BRCA1', 'BRCA2', 'TP53', 'CYP2D6', 'CFTR', 'HBB', 'MLH1', 'APOE', 'LDLR', 'MTHFR',
                              'EGFR', 'KRAS', 'PTEN', 'ATM', 'CHEK2', 'PALB2', 'SCN5A', 'MYH7', 'TTN', 'G6PD'])
                         [1 + (i * 7) % 20] AS gene,
                       (ARRAY['splice-region variant panel', 'star-allele calling', 'copy-number review',
                              'structural variant calls', 'heteroplasmy calls', 'methylation profile',
                              'expression outliers', 'trio de novo calls', 'somatic hotspot panel',
                              'pharmacogenomic haplotypes'])[1 + (i / 7) % 10] AS subject,
                       (ARRAY['oncology', 'pharmacogenomics', 'mitochondrial', 'germline', 'somatic', 'rna',
                              'methylation', 'cardiology'])[1 + i % 8] AS category,
                       (ARRAY['READY', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED'])[1 + i % 4] AS verdict
                  FROM generate_series(1, $1::int) i),
          s AS (SELECT g.*,
                       CASE WHEN g.k BETWEEN 11 AND 16 OR g.k = 19 THEN g.verdict ELSE 'PENDING' END AS decision,
                       CASE WHEN g.k = 18 THEN 'TIMED_OUT'
                            WHEN (g.k <= 5 OR g.k BETWEEN 11 AND 16) AND g.i % 47 = 3 THEN 'REJECTED'
                            WHEN (g.k <= 5 OR g.k BETWEEN 11 AND 16) AND g.i % 43 = 5 THEN 'DISCARDED'
                            ELSE 'ACTIVE' END AS disposition,
                       CASE WHEN g.i % 3 = 0 THEN NULL ELSE 'cmp-' || (2025 + g.b % 2) || '-'
                            || (ARRAY['spring', 'autumn'])[1 + g.b / 2 % 2] END AS campaign
                  FROM g)
     INSERT INTO genomics_topics (uid, batch, topic, title, category, markdown, tags, workflow_status, decision,
                                  decision_campaign_id, submission_campaign_id, campaign_id, disposition,
                                  planned_reviewer_id, status, phase, classification, workflow_version, origin,
                                  created_at, updated_at)
     SELECT 'batch-' || lpad(s.b::text, 3, '0') || ':' || ((s.i - 1) % ${PER_BATCH} + 1),
            'batch-' || lpad(s.b::text, 3, '0'), (s.i - 1) % ${PER_BATCH} + 1,
            s.gene || ' ' || s.subject || ', cohort ' || (10000 + (s.i * 7919) % 90000),
            s.category,
            '# ' || s.gene || ' ' || s.subject || E'\\n\\n' || repeat('Synthetic brief ' || md5(s.i::text) || '. ', 8),
            ARRAY[lower(s.gene), split_part(s.subject, ' ', 1)],
            CASE WHEN s.k BETWEEN 6 AND 8 OR s.k = 19 THEN 'ASSIGNED' WHEN s.k IN (9, 10) THEN 'IN_REVIEW'
                 WHEN s.k BETWEEN 11 AND 16 THEN 'REVIEWED' ELSE 'UNASSIGNED' END,
            s.decision,
            CASE WHEN s.decision <> 'PENDING' THEN s.campaign END,
            CASE WHEN s.decision <> 'PENDING' THEN s.campaign END,
            s.campaign,
            s.disposition,
            CASE WHEN s.i % 2000 = 7 THEN n.id WHEN s.k BETWEEN 6 AND 16 OR s.k = 19 THEN r.ids[1 + s.rr] END,
            CASE WHEN s.disposition = 'ACTIVE' THEN 'OPEN' ELSE 'CLOSED' END,
            CASE WHEN s.decision = 'PENDING' THEN 'REVIEW' WHEN s.decision LIKE '%REPAIR' THEN 'REPAIR' ELSE 'DONE' END,
            CASE s.decision WHEN 'PENDING' THEN NULL WHEN 'READY' THEN 'ACCEPTABLE' WHEN 'REJECTED' THEN 'UNACCEPTABLE'
                 ELSE 'REPAIRABLE' END,
            CASE WHEN s.k <= 5 THEN 0 WHEN s.k BETWEEN 6 AND 10 THEN 1 + s.k % 2 ELSE 3 END,
            'import',
            now() - (300 - s.b) * interval '1 day',
            now() - (300 - s.b) * interval '1 day' + (s.i % 1440) * interval '1 minute'
       FROM s, r, n`,
    [topics],
  );
  // Three topics in four have a client, one in seven a second one.
  await db.query(`
    INSERT INTO genomics_topic_clients (topic_id, client_id)
    SELECT t.id, c.ids[1 + t.id % 5] FROM genomics_topics t,
           (SELECT array_agg(id ORDER BY id) AS ids FROM genomics_clients) c WHERE t.id % 4 <> 0
    UNION ALL
    SELECT t.id, c.ids[1 + (t.id + 2) % 5] FROM genomics_topics t,
           (SELECT array_agg(id ORDER BY id) AS ids FROM genomics_clients) c WHERE t.id % 4 <> 0 AND t.id % 7 = 0;
  `);
  // Assignments as the workflow leaves them: first the earlier ones (cancelled on reassignment, or submitted
  // before a reassignment, by the next reviewer), then the current one.
  await db.query(`
    WITH r AS (SELECT array_agg(id ORDER BY id) AS ids FROM members WHERE identity_id LIKE 'bench|r%'),
         g AS (SELECT t.id AS topic_id, t.created_at, i, i % 20 AS k,
                      ((i - 1) / 50 + (i - 1) / ${PER_BATCH}) % ${REVIEWERS} AS rr
                 FROM (SELECT t.*, (substr(t.batch, 7)::int - 1) * ${PER_BATCH} + t.topic::int AS i
                         FROM genomics_topics t) t)
    INSERT INTO genomics_assignments (topic_id, reviewer_id, status, created_at, updated_at, submitted_at, closed_at)
    SELECT g.topic_id, r.ids[1 + (g.rr + 1) % ${REVIEWERS}], CASE WHEN g.k = 19 THEN 'SUBMITTED' ELSE 'CANCELLED' END,
           g.created_at, g.created_at + interval '1 day',
           CASE WHEN g.k = 19 THEN g.created_at + interval '1 day' END, g.created_at + interval '1 day'
      FROM g, r WHERE g.k = 19 OR (g.k BETWEEN 6 AND 10 AND g.i % 3 = 0)
    ORDER BY g.topic_id;
    WITH r AS (SELECT array_agg(id ORDER BY id) AS ids FROM members WHERE identity_id LIKE 'bench|r%'),
         n AS (SELECT id FROM members WHERE identity_id = 'bench|newcomer'),
         g AS (SELECT t.id AS topic_id, t.created_at, i, i % 20 AS k,
                      ((i - 1) / 50 + (i - 1) / ${PER_BATCH}) % ${REVIEWERS} AS rr
                 FROM (SELECT t.*, (substr(t.batch, 7)::int - 1) * ${PER_BATCH} + t.topic::int AS i
                         FROM genomics_topics t) t)
    INSERT INTO genomics_assignments (topic_id, reviewer_id, status, created_at, updated_at, submitted_at, closed_at)
    SELECT g.topic_id, CASE WHEN g.i % 2000 = 7 THEN n.id ELSE r.ids[1 + g.rr] END,
           CASE WHEN g.k BETWEEN 11 AND 16 THEN 'SUBMITTED' WHEN g.k = 17 THEN 'CANCELLED'
                WHEN g.k = 18 THEN 'EXPIRED' ELSE 'ACTIVE' END,
           g.created_at + interval '2 days', g.created_at + interval '3 days',
           CASE WHEN g.k BETWEEN 11 AND 16 THEN g.created_at + interval '3 days' END,
           CASE WHEN g.k BETWEEN 11 AND 18 THEN g.created_at + interval '3 days' END
      FROM g, r, n WHERE g.k >= 6
    ORDER BY g.topic_id;
  `);
  await db.query('ANALYZE');
}

/** The query string of a request, as a client sends it. */
function requestOf(path: string, filter: TopicListFilter): string {
  const query = new URLSearchParams({ limit: String(filter.limit) });
  if (filter.search) query.set('search', filter.search);
  if (filter.disposition) query.set('disposition', filter.disposition);
  if (filter.after) {
    query.set('afterBatch', filter.after.batch);
    query.set('afterTopic', String(filter.after.topic));
  }
  return `GET ${path}?${query.toString()}`;
}

/**
 * The filter of page `page`, its cursor found by following `next` from the first page with the API's own
 * `listTopics` (so it is the cursor a client would send).
 */
async function pageFilter(db: DataSource, filter: TopicListFilter, page: number): Promise<TopicListFilter> {
  let current: TopicListFilter = { ...filter };
  for (let n = 1; n < page; n++) {
    const { next } = await listTopics(db, current);
    if (!next) throw new Error(`the list ends before page ${page}`);
    current = { ...filter, after: next };
  }
  return current;
}

async function listCase(
  db: DataSource,
  title: string,
  path: '/api/v1/tasks' | '/api/v1/topics',
  filter: Omit<TopicListFilter, 'limit'>,
  page = 1,
): Promise<ExplainCase> {
  const withPage = await pageFilter(db, { ...filter, limit: PAGE_SIZE }, page);
  return { title, request: requestOf(path, withPage), query: topicListSql(withPage) };
}

/** How many tasks the Reviewer rule shows a member, and how many of them as planned reviewer. */
async function visibleTo(db: DataSource, memberId: string): Promise<{ visible: number; planned: number }> {
  const [counts]: Array<{ visible: number; planned: number }> = await db.query(
    `SELECT count(*)::int AS visible, count(*) FILTER (WHERE t.planned_reviewer_id = $1)::int AS planned
       FROM genomics_topics t
      WHERE t.planned_reviewer_id = $1 OR EXISTS (
            SELECT 1 FROM genomics_assignments va
             WHERE va.topic_id = t.id AND va.reviewer_id = $1 AND va.status IN ('ACTIVE', 'SUBMITTED'))`,
    [memberId],
  );
  return counts;
}

async function main(): Promise<void> {
  await withScratchDatabase(async (db) => {
    const started = Date.now();
    await generate(db, TOPICS);
    const generatedIn = ((Date.now() - started) / 1000).toFixed(1);
    const [owner] = await db.query(`SELECT id::text FROM members WHERE identity_id = 'bench|owner'`);
    // The Reviewer is the planned reviewer of PROBE_UID, so their selective search has a match.
    const [reviewer] = await db.query(
      `SELECT m.id::text, m.identity_id FROM genomics_topics t JOIN members m ON m.id = t.planned_reviewer_id
        WHERE t.uid = $1`,
      [PROBE_UID],
    );
    const [{ server_version: serverVersion }] = await db.query('SHOW server_version');
    const version = String(serverVersion).split(' ')[0];
    const { visible, planned } = await visibleTo(db, reviewer.id);
    const [{ assignments }] = await db.query('SELECT count(*)::int AS assignments FROM genomics_assignments');
    const [{ cohort }] = await db.query(
      `SELECT substring(title FROM 'cohort [0-9]+') AS cohort
                                           FROM genomics_topics WHERE uid = $1`,
      [PROBE_UID],
    );
    const asOwner = principalOf('genomics', 'OWNER', owner.id);
    const asReviewer = principalOf('genomics', 'REVIEWER', reviewer.id);
    const [newcomer] = await db.query(`SELECT id::text FROM members WHERE identity_id = 'bench|newcomer'`);
    const asNewcomer = principalOf('genomics', 'REVIEWER', newcomer.id);
    const newcomerVisible = (await visibleTo(db, newcomer.id)).visible;
    const cases: ExplainCase[] = [
      await listCase(db, 'Owner: first page, no filter', '/api/v1/tasks', { visibleTo: asOwner }),
      await listCase(
        db,
        `Owner: page ${DEEP_PAGE} by cursor, no filter`,
        '/api/v1/tasks',
        { visibleTo: asOwner },
        DEEP_PAGE,
      ),
      await listCase(db, 'Owner: rare disposition, first page', '/api/v1/tasks', {
        visibleTo: asOwner,
        disposition: 'DISCARDED',
      }),
      await listCase(
        db,
        `Owner: less common disposition, page ${DEEP_PAGE} by cursor`,
        '/api/v1/tasks',
        { visibleTo: asOwner, disposition: 'TIMED_OUT' },
        DEEP_PAGE,
      ),
      await listCase(
        db,
        `Owner: common disposition, page ${DEEP_PAGE} by cursor`,
        '/api/v1/tasks',
        { visibleTo: asOwner, disposition: 'ACTIVE' },
        DEEP_PAGE,
      ),
      await listCase(db, 'Owner: selective search (a uid)', '/api/v1/tasks', {
        visibleTo: asOwner,
        search: PROBE_UID,
      }),
      await listCase(db, 'Owner: selective search (a title fragment)', '/api/v1/tasks', {
        visibleTo: asOwner,
        search: cohort,
      }),
      await listCase(db, 'Owner: medium search (gene and subject in the title)', '/api/v1/tasks', {
        visibleTo: asOwner,
        search: 'CFTR splice',
      }),
      await listCase(
        db,
        `Owner: broad search (a category), page ${DEEP_PAGE} by cursor`,
        '/api/v1/tasks',
        { visibleTo: asOwner, search: 'oncology' },
        DEEP_PAGE,
      ),
      await listCase(db, 'Owner: broad search and disposition, first page', '/api/v1/tasks', {
        visibleTo: asOwner,
        search: 'splice',
        disposition: 'REJECTED',
      }),
      await listCase(
        db,
        `Topics (any role): page ${DEEP_PAGE} by cursor, no filter`,
        '/api/v1/topics',
        {},
        DEEP_PAGE,
      ),
      await listCase(db, 'Topics (any role): selective search and disposition', '/api/v1/topics', {
        search: cohort,
        disposition: 'ACTIVE',
      }),
      await listCase(db, 'Reviewer: first page, no filter', '/api/v1/tasks', { visibleTo: asReviewer }),
      await listCase(
        db,
        `Reviewer: page ${DEEP_PAGE} by cursor, no filter`,
        '/api/v1/tasks',
        { visibleTo: asReviewer },
        DEEP_PAGE,
      ),
      await listCase(db, 'Reviewer: rare disposition, first page', '/api/v1/tasks', {
        visibleTo: asReviewer,
        disposition: 'REJECTED',
      }),
      await listCase(db, 'Reviewer: selective search (a title fragment)', '/api/v1/tasks', {
        visibleTo: asReviewer,
        search: cohort,
      }),
      await listCase(
        db,
        'Reviewer: broad search (a category), page 5 by cursor',
        '/api/v1/tasks',
        { visibleTo: asReviewer, search: 'oncology' },
        5,
      ),
      await listCase(db, 'Reviewer with few tasks (a newcomer): the only page', '/api/v1/tasks', {
        visibleTo: asNewcomer,
      }),
    ];
    const sections: string[] = [];
    for (const c of cases) {
      sections.push(
        `### ${c.title}\n\n\`${c.request}\`\n\n\`\`\`sql\n${c.query.sql.replace(/[ \t]+$/gm, '').replace(/\n\s+/g, '\n  ')}\n-- params: ${JSON.stringify(
          c.query.params,
        )}\n\`\`\`\n\n\`\`\`text\n${await explainAnalyze(db, c.query)}\n\`\`\``,
      );
    }
    const doc = `# Genomics task list: EXPLAIN at ${TOPICS.toLocaleString('en')} topics

Generated by \`npm run explain:genomics\` (PostgreSQL ${version}) into a scratch database that the
script creates, migrates with the project's migrations, fills with \`INSERT … SELECT generate_series\`
(${TOPICS.toLocaleString('en')} topics in ${Math.ceil(TOPICS / PER_BATCH)} batches of ${PER_BATCH}, ${assignments.toLocaleString(
      'en',
    )} assignments, ${REVIEWERS + 1} reviewers, 5 clients, 4 campaigns;
generated in ${generatedIn} s), \`ANALYZE\`s and drops. The SQL is built by \`topicListSql\` in
\`api/genomics/topics/queries.ts\`, the function \`listTopics\` runs for both \`GET /api/v1/tasks\` (with the
Reviewer rule of \`api/genomics/visibility.ts\`) and \`GET /api/v1/topics\` (without it, for every role), so the
plans are the API's own. Pages hold ${PAGE_SIZE} items (the query reads ${PAGE_SIZE + 1}); a page "by cursor" was
reached by following \`next\` from the first page with \`listTopics\`, as a client would. Each query ran once
before \`EXPLAIN\` to warm the cache. The Reviewer (\`${reviewer.identity_id}\`) sees ${visible.toLocaleString(
      'en',
    )} tasks: ${planned.toLocaleString('en')} as planned reviewer,
the rest through a submitted review on a topic since reassigned. The newcomer (\`bench|newcomer\`) sees ${newcomerVisible}.

What to look for: the page query reads the keyset index \`genomics_topics_batch_topic_key\` (the
\`UNIQUE (batch, topic)\`), or \`genomics_topics_disposition_keyset\` when a rare \`disposition\` is given, in
\`ORDER BY t.batch, t.topic\` order and stops after ${PAGE_SIZE + 1} rows (Limit), with no Sort; the cursor
\`(t.batch, t.topic) > ($n, $m)\` is an Index Cond, so a deep page starts at its place in the index instead of
reading the pages before it. A common disposition (\`ACTIVE\`) is cheaper as a filter on the keyset index. A
selective \`search\` goes through the \`gin_trgm_ops\` indexes on uid, title and category (a BitmapOr of three
Bitmap Index Scans) and sorts only the matches; most of its time is the trigram index scans, as trigrams such as
\`bat\` or \`coh\` occur in every row. A broad \`search\` is cheaper as a filter on the keyset index that stops
after the page.

The Reviewer rule (\`planned_reviewer_id = $1 OR EXISTS (… genomics_assignments …)\`) is a filter on the keyset
scan; its EXISTS is a hashed SubPlan built once from \`genomics_assignments_reviewer_visible\` (or, under a
selective search, one probe of that index per match). The scan stops once the page is full, so the cost is the
rows read per visible task: about ${Math.round(TOPICS / visible)} for the Reviewer, and the whole table for the newcomer, whose
${newcomerVisible} tasks never fill a page (the slowest plan here; it grows with the table). A Reviewer's broad search
reads until it has a page of rows that are both visible and matching. No index changes these plans: PostgreSQL
cannot use an index for an \`OR\` one of whose arms is an \`EXISTS\`, so \`genomics_topics_planned_reviewer\` is
not used, and an added \`(planned_reviewer_id, batch, topic)\` index (tried by hand) was not chosen either. Only a
different query could start from the reviewer's own topics, and that would sort all of them for every page (by
hand: much faster for the newcomer, much slower for the Reviewer). Every filter, sort and cursor the API offers is
served by an index, so this run adds no migration.

${sections.join('\n\n')}
`;
    await emitReport(doc, cases.length);
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
