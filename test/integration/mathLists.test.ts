import { join } from 'node:path';
import {
  act,
  createClient,
  LISTS_FIXTURE_DIR,
  type ListsFixture,
  setupListsFixture,
  taskVersion,
} from '../helpers/math';
import { http, importBundle, memberId, startStack, type TestStack } from '../helpers/stack';

/*
 * The list fixture (test/helpers/math.ts), after setup:
 *
 * | task  | run | topic | question | report | reviewer | client | review state | decision | archived |
 * | la-01 | a   | alg   | qa       | rep-1  | rui      | Acme   | COMPLETED    | ACCEPTED |          |
 * | la-02 | a   | alg   | qa       | rep-1  | sofia    | Acme   | COMPLETED    | REJECTED |          |
 * | la-03 | a   | geo   | qa       | rep-2  | rui      |        | IN_REVIEW    |          |          |
 * | la-04 | a   | geo   | qb       | rep-2  | sofia    | Beta   | ASSIGNED     |          | yes      |
 * | la-05 | a   | geo   | qb       | —      | tomas    |        | COMPLETED    | ACCEPTED |          |
 * | la-06 | a   | alg   | qc       | —      |          |        | UNASSIGNED   |          | yes      |
 * | lb-01 | b   | alg   | qc       | rep-b1 | rui      |        | ASSIGNED     |          |          |
 * | lb-02 | b   | num   | qd       | rep-b1 |          |        | UNASSIGNED   |          |          |
 * | lb-03 | b   | num   | qd       | —      |          |        | UNASSIGNED   |          |          |
 * | lb-04 | b   | num   | qd       | rep-b2 |          |        | UNASSIGNED   |          |          |
 *
 * lb-02..04 were never touched, so they share one updated_at (the import transaction's): the tie cases.
 * Last update order, oldest first: lb-02/03/04, lb-01, la-01, la-03, la-02, la-05, la-04, la-06.
 */
const NEWEST_FIRST = [
  'la-06',
  'la-04',
  'la-05',
  'la-02',
  'la-03',
  'la-01',
  'lb-01',
  'lb-04',
  'lb-03',
  'lb-02',
];

let stack: TestStack;
let f: ListsFixture;

beforeAll(async () => {
  stack = await startStack();
  f = await setupListsFixture(stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const get = (path: string, token: string) => http(stack, 'GET', path, { token });
const ids = (res: { body: { items: Array<{ task_id: string }> } }) => res.body.items.map((t) => t.task_id);
const total = async (path: string, token: string) => {
  const res = await get(path, token);
  expect(res.status).toBe(200);
  return res.body.total as number;
};

/** Every paginated math list of this issue, with a token allowed to read it. */
const PAGINATED = (): Array<[string, string]> => [
  ['/api/math/tasks', f.owner],
  ['/api/math/workflow', f.owner],
  ['/api/math/seeds', f.owner],
  ['/api/math/seeds/qa/tasks', f.owner],
  ['/api/math/topics', f.owner],
  ['/api/math/runs', f.owner],
  ['/api/math/runs/lists-run-a', f.owner],
  ['/api/math/reports', f.owner],
  ['/api/math/activity', f.owner],
  ['/api/math/clients', f.owner],
  ['/api/clients', f.owner],
  ['/api/math/tasks/la-01/notes', f.owner],
];

describe('roles and scopes of every read operation', () => {
  const reviewerOps = [
    '/api/math/seeds',
    '/api/math/seeds/qa',
    '/api/math/seeds/qa/tasks',
    '/api/math/tasks',
    '/api/math/workflow',
    '/api/math/workflow/tasks/la-01',
    '/api/math/tasks/la-01/notes',
    '/api/math/monitor',
    '/api/math/activity',
    '/api/math/analytics',
    '/api/math/clients',
    '/api/clients',
  ];
  const operatorOps = [
    '/api/math/topics',
    '/api/math/runs',
    '/api/math/runs/lists-run-a',
    '/api/math/reports',
  ];

  it.each(reviewerOps)(
    'GET %s: Reviewer (assigned), Owner and Admin get 200; no read scope gets 403',
    async (path) => {
      for (const token of [f.rui, f.owner, f.admin]) expect((await get(path, token)).status).toBe(200);
      const refused = await get(path, f.ownerNoRead);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['read'] });
      expect((await http(stack, 'GET', path)).status).toBe(401);
    },
  );

  it.each(operatorOps)(
    'GET %s: Owner and Admin get 200; a Reviewer gets 403; no read scope gets 403',
    async (path) => {
      for (const token of [f.owner, f.admin]) expect((await get(path, token)).status).toBe(200);
      const reviewer = await get(path, f.rui);
      expect(reviewer.status).toBe(403);
      expect(reviewer.body.code).toBe('insufficient_role');
      expect((await get(path, f.ownerNoRead)).status).toBe(403);
    },
  );
});

describe('Reviewer visibility on every list and count (exact totals)', () => {
  it('task lists, surfaces and the dashboard list', async () => {
    const expected: Array<[string, number, number, number, number]> = [
      // path, owner, rui, sofia, tomas
      ['/api/math/tasks', 10, 3, 2, 1],
      ['/api/math/tasks?surface=all', 10, 3, 2, 1],
      ['/api/math/tasks?surface=evaluations', 8, 3, 1, 1],
      ['/api/math/tasks?surface=archive', 2, 0, 1, 0],
      ['/api/math/tasks?surface=release', 1, 1, 0, 0],
      ['/api/math/workflow', 8, 3, 1, 1],
      ['/api/math/seeds/qa/tasks', 3, 2, 1, 0],
    ];
    for (const [path, owner, rui, sofia, tomas] of expected) {
      expect([path, await total(path, f.owner), await total(path, f.admin)]).toEqual([path, owner, owner]);
      expect([path, await total(path, f.rui)]).toEqual([path, rui]);
      expect([path, await total(path, f.sofia)]).toEqual([path, sofia]);
      if (tomas > 0 || !path.startsWith('/api/math/seeds/'))
        expect([path, await total(path, f.tomas)]).toEqual([path, tomas]);
    }
    expect(ids(await get('/api/math/tasks', f.rui)).sort()).toEqual(['la-01', 'la-03', 'lb-01']);
    expect((await get('/api/math/seeds/qa/tasks', f.tomas)).status).toBe(404);
  });

  it('list counts describe the whole visible, filtered result', async () => {
    const owner = await get('/api/math/tasks?page_size=1', f.owner);
    expect(owner.body.counts).toEqual({
      total: 10,
      archived: 2,
      unassigned: 4,
      review_states: { UNASSIGNED: 4, ASSIGNED: 2, IN_REVIEW: 1, COMPLETED: 3 },
      decisions: { ACCEPTED: 2, NEEDS_REVISION: 0, REJECTED: 1, NONE: 7 },
    });
    const rui = await get('/api/math/tasks', f.rui);
    expect(rui.body.counts).toEqual({
      total: 3,
      archived: 0,
      unassigned: 0,
      review_states: { UNASSIGNED: 0, ASSIGNED: 1, IN_REVIEW: 1, COMPLETED: 1 },
      decisions: { ACCEPTED: 1, NEEDS_REVISION: 0, REJECTED: 0, NONE: 2 },
    });
  });

  it('filters never widen access', async () => {
    expect(await total(`/api/math/tasks?reviewer_id=${f.ids.sofia}`, f.rui)).toBe(0);
    expect(await total('/api/math/tasks?reviewer_id=unassigned', f.rui)).toBe(0);
    expect(await total(`/api/math/tasks?reviewer_id=${f.ids.rui}`, f.rui)).toBe(3);
    expect(await total(`/api/math/tasks?client_id=${f.clients.beta}`, f.rui)).toBe(0);
    expect(await total('/api/math/tasks?q=Circle', f.rui)).toBe(0);
    expect(await total('/api/math/tasks?question_id=qb', f.rui)).toBe(0);
    expect((await get('/api/math/tasks/la-02/notes', f.rui)).status).toBe(404);
    expect((await get('/api/math/workflow/tasks/la-02', f.rui)).status).toBe(404);
  });

  it('seeds and seed summaries count only visible tasks', async () => {
    const seeds = async (token: string) => {
      const res = await get('/api/math/seeds', token);
      return [res.body.total, res.body.items.map((s: any) => [s.question_id, s.review_status.total])];
    };
    expect(await seeds(f.owner)).toEqual([
      4,
      [
        ['qa', 3],
        ['qb', 2],
        ['qc', 2],
        ['qd', 3],
      ],
    ]);
    expect(await seeds(f.rui)).toEqual([
      2,
      [
        ['qa', 2],
        ['qc', 1],
      ],
    ]);
    expect(await seeds(f.sofia)).toEqual([
      2,
      [
        ['qa', 1],
        ['qb', 1],
      ],
    ]);
    expect(await seeds(f.tomas)).toEqual([1, [['qb', 1]]]);

    const qa = await get('/api/math/seeds/qa', f.rui);
    expect(qa.body).toMatchObject({
      question_id: 'qa',
      run_ids: ['lists-run-a'],
      topic_ids: ['topic-alg', 'topic-geo'],
      review_status: { total: 2, review_states: { COMPLETED: 1, IN_REVIEW: 1 }, decisions: { ACCEPTED: 1 } },
    });
    expect((await get('/api/math/seeds/qa', f.tomas)).status).toBe(404);
    expect((await get('/api/math/seeds/qd', f.rui)).status).toBe(404);
    expect((await get('/api/math/seeds/nothing', f.owner)).status).toBe(404);
    const seedTasks = await get('/api/math/seeds/qa/tasks?review_state=COMPLETED&sort=topic', f.owner);
    expect([ids(seedTasks), seedTasks.body.total]).toEqual([['la-01', 'la-02'], 2]);
    expect(ids(await get('/api/math/seeds/qa/tasks?q=area', f.rui))).toEqual(['la-03']);
    expect((await get('/api/math/seeds/qa/tasks?question_id=qb', f.owner)).status).toBe(400);
    const qb = await get('/api/math/seeds/qb', f.owner);
    expect(qb.body.review_status).toMatchObject({ total: 2, archived: 1 });
  });

  it('monitor counts and freshness', async () => {
    const owner = (await get('/api/math/monitor', f.owner)).body;
    expect(owner).toMatchObject({
      scope: 'all',
      assigned_to_you: 0,
      review_status: { total: 10, archived: 2, unassigned: 4 },
      freshness: { latest_run_id: 'lists-run-b', latest_run_completed_at: '2026-10-02T09:00:00.000Z' },
    });
    const rui = (await get('/api/math/monitor', f.rui)).body;
    expect(rui).toMatchObject({
      scope: 'assigned',
      assigned_to_you: 3,
      review_status: { total: 3, unassigned: 0 },
    });
    const tomas = (await get('/api/math/monitor', f.tomas)).body;
    expect(tomas.review_status.total).toBe(1);
    expect(tomas.freshness).toMatchObject({
      latest_run_id: 'lists-run-a',
      latest_completed_at: '2026-10-01T09:00:00.000Z',
    });
    expect(Date.parse(owner.freshness.latest_task_updated_at)).toBeGreaterThanOrEqual(
      Date.parse(tomas.freshness.latest_task_updated_at),
    );
  });

  it('analytics figures', async () => {
    const owner = (await get('/api/math/analytics', f.owner)).body;
    expect(owner.scope).toBe('all');
    expect(owner.review_status.total).toBe(10);
    expect(owner.workload).toEqual([
      {
        reviewer_id: f.ids.rui,
        display_name: 'Rui Reviewer',
        enabled: true,
        assigned: 1,
        in_review: 1,
        completed: 1,
        total: 3,
      },
      {
        reviewer_id: f.ids.sofia,
        display_name: 'Sofia Reviewer',
        enabled: true,
        assigned: 0,
        in_review: 0,
        completed: 1,
        total: 1,
      },
      {
        reviewer_id: f.ids.tomas,
        display_name: 'Tomas Reviewer',
        enabled: true,
        assigned: 0,
        in_review: 0,
        completed: 1,
        total: 1,
      },
    ]);
    expect(owner.trend.days).toBe(30);
    expect(owner.trend.points).toHaveLength(30);
    const sum = (a: any, key: string) => a.trend.points.reduce((n: number, p: any) => n + p[key], 0);
    expect(sum(owner, 'actions')).toBe(15);
    expect(sum(owner, 'verdicts')).toBe(3);
    expect(owner.recent_activity).toHaveLength(10);

    const rui = (await get('/api/math/analytics', f.rui)).body;
    expect(rui.scope).toBe('assigned');
    expect(rui.review_status.total).toBe(3);
    expect(rui.workload.map((w: any) => w.reviewer_id)).toEqual([f.ids.rui]);
    expect(sum(rui, 'actions')).toBe(6);
    expect(sum(rui, 'feedback')).toBe(1);
    expect(rui.recent_activity).toHaveLength(7);
    expect(rui.recent_activity).toEqual((await get('/api/math/activity?page_size=10', f.rui)).body.items);
  });

  it('activity events', async () => {
    // task events: la-01 3, la-02 3, la-03 2, la-04 3, la-05 2, la-06 1, lb-01 1; client events: Acme, Beta created.
    expect(await total('/api/math/activity', f.owner)).toBe(17);
    expect(await total('/api/math/activity?kind=task', f.owner)).toBe(15);
    expect(await total('/api/math/activity?kind=client', f.owner)).toBe(2);
    expect(await total('/api/math/activity', f.rui)).toBe(7);
    expect(await total('/api/math/activity', f.sofia)).toBe(8);
    expect(await total('/api/math/activity', f.tomas)).toBe(2);
    const rui = (await get('/api/math/activity?page_size=100', f.rui)).body.items;
    expect(new Set(rui.filter((a: any) => a.kind === 'task').map((a: any) => a.task_id))).toEqual(
      new Set(['la-01', 'la-03', 'lb-01']),
    );
    expect(rui.filter((a: any) => a.kind === 'client').map((a: any) => [a.client_id, a.action])).toEqual([
      [f.clients.acme, 'client_created'],
    ]);
  });

  it('client lists and their task counts', async () => {
    const clients = async (path: string, token: string) => {
      const res = await get(path, token);
      return [res.body.total, res.body.items.map((c: any) => [c.name, c.task_count, c.archived_task_count])];
    };
    expect(await clients('/api/math/clients', f.owner)).toEqual([
      2,
      [
        ['Acme', 2, 0],
        ['Beta', 1, 1],
      ],
    ]);
    expect(await clients('/api/math/clients', f.rui)).toEqual([1, [['Acme', 1, 0]]]);
    expect(await clients('/api/math/clients', f.sofia)).toEqual([
      2,
      [
        ['Acme', 1, 0],
        ['Beta', 1, 1],
      ],
    ]);
    expect(await clients('/api/math/clients', f.tomas)).toEqual([0, []]);
    expect(await clients('/api/clients', f.rui)).toEqual([1, [['Acme', 1, undefined]]]);
    expect(await clients('/api/clients', f.tomas)).toEqual([0, []]);
  });
});

describe('list counts reused across pages (api/math/tasks/listCounts.ts) stay exact', () => {
  const archivedOfRunB = async () =>
    (await get(`/api/math/tasks?run_id=lists-run-b&page_size=1`, f.owner)).body.counts.archived as number;

  it('follow a committed change at once, and never keep counts read while a writer was in flight', async () => {
    expect(await archivedOfRunB()).toBe(0);
    expect(await archivedOfRunB()).toBe(0);
    const writer = stack.dataSource.createQueryRunner();
    await writer.connect();
    try {
      await writer.startTransaction();
      await writer.query(`UPDATE math_tasks SET archived = true WHERE task_id = 'lb-02'`);
      // Not committed yet: not counted, and what was read now must not outlive the commit.
      expect(await archivedOfRunB()).toBe(0);
      await writer.commitTransaction();
      expect(await archivedOfRunB()).toBe(1);
      expect(await archivedOfRunB()).toBe(1);
    } finally {
      await stack.dataSource.query(`UPDATE math_tasks SET archived = false WHERE task_id = 'lb-02'`);
      await writer.release();
    }
    expect(await archivedOfRunB()).toBe(0);
  });
});

describe('GET /api/math/tasks and GET /api/math/workflow: filters, q, sort', () => {
  it('filters by each field, with unassigned for reviewer and client', async () => {
    const cases: Array<[string, string[]]> = [
      ['question_id=qa', ['la-01', 'la-02', 'la-03']],
      ['run_id=lists-run-b', ['lb-01', 'lb-02', 'lb-03', 'lb-04']],
      [`reviewer_id=${f.ids.sofia}`, ['la-02', 'la-04']],
      ['reviewer_id=unassigned', ['la-06', 'lb-02', 'lb-03', 'lb-04']],
      [`client_id=${f.clients.acme}`, ['la-01', 'la-02']],
      ['client_id=unassigned', ['la-03', 'la-05', 'la-06', 'lb-01', 'lb-02', 'lb-03', 'lb-04']],
      ['review_state=COMPLETED', ['la-01', 'la-02', 'la-05']],
      ['decision=ACCEPTED', ['la-01', 'la-05']],
      ['decision=ACCEPTED&surface=release', ['la-01']],
      [`review_state=ASSIGNED&reviewer_id=${f.ids.sofia}&surface=evaluations`, []],
    ];
    for (const [query, expected] of cases) {
      const res = await get(`/api/math/tasks?${query}&page_size=100`, f.owner);
      expect([query, ids(res).sort()]).toEqual([query, expected]);
      expect(res.body.total).toBe(expected.length);
    }
  });

  it('rejects invalid filter values and unknown parameters with 400', async () => {
    for (const query of [
      'reviewer_id=bob',
      'client_id=0',
      'review_state=DONE',
      'decision=MAYBE',
      'surface=everything',
      'sort=newest',
      'order=updated',
      'question_id=a%20b',
      'reviewer_id=9223372036854775808',
      'client_id=9999999999999999999',
      'q=a%00b',
    ]) {
      const res = await get(`/api/math/tasks?${query}`, f.owner);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'validation_failed']);
    }
  });

  it('q is a case-insensitive literal substring: %, _ and \\ are ordinary', async () => {
    const cases: Array<[string, string[]]> = [
      ['100%', ['la-01']],
      ['%', ['la-01']],
      ['x_1', ['la-01', 'lb-01']],
      ['_', ['la-01', 'lb-01']],
      ['\\', ['la-05']],
      ['AREA', ['la-03']],
      ['bOUND 100', ['la-01', 'la-02']],
      ['LB-0', ['lb-01', 'lb-02', 'lb-03', 'lb-04']],
      ['no such text', []],
    ];
    for (const [q, expected] of cases) {
      const res = await get(`/api/math/tasks?q=${encodeURIComponent(q)}`, f.owner);
      expect([q, ids(res).sort()]).toEqual([q, expected]);
    }
    expect(ids(await get(`/api/math/tasks?q=${encodeURIComponent('x_1')}`, f.sofia))).toEqual([]);
  });

  it('bounds q to 1..200 characters', async () => {
    expect((await get(`/api/math/tasks?q=${'a'.repeat(200)}`, f.owner)).status).toBe(200);
    expect((await get(`/api/math/tasks?q=${'a'.repeat(201)}`, f.owner)).status).toBe(400);
    expect((await get('/api/math/tasks?q=', f.owner)).status).toBe(400);
    expect(await total('/api/math/tasks?q=a', f.owner)).toBeGreaterThan(0);
    expect(await total('/api/math/tasks?reviewer_id=9223372036854775807', f.owner)).toBe(0);
  });

  it('sorts by updated (default), oldest and topic, ties broken by task_id', async () => {
    expect(ids(await get('/api/math/tasks', f.owner))).toEqual(NEWEST_FIRST);
    expect(ids(await get('/api/math/tasks?sort=updated', f.owner))).toEqual(NEWEST_FIRST);
    expect(ids(await get('/api/math/tasks?sort=oldest', f.owner))).toEqual([...NEWEST_FIRST].reverse());
    expect(ids(await get('/api/math/tasks?sort=topic', f.owner))).toEqual([
      'la-01',
      'la-02',
      'la-06',
      'lb-01', // topic-alg
      'la-03',
      'la-04',
      'la-05', // topic-geo
      'lb-02',
      'lb-03',
      'lb-04', // topic-num
    ]);
  });

  it('pages through ties without overlap or gaps', async () => {
    const pages: string[][] = [];
    for (let page = 1; page <= 5; page += 1) {
      const res = await get(`/api/math/tasks?page_size=3&page=${page}`, f.owner);
      expect(res.body).toMatchObject({ page, page_size: 3, total: 10 });
      pages.push(ids(res));
    }
    expect(pages).toEqual([
      NEWEST_FIRST.slice(0, 3),
      NEWEST_FIRST.slice(3, 6),
      NEWEST_FIRST.slice(6, 9),
      ['lb-02'],
      [],
    ]);
  });

  it('answers like GET /api/math/workflow with surface=all, and the other way round', async () => {
    for (const query of ['', 'q=x_1', 'sort=topic&page_size=4&page=2']) {
      for (const token of [f.owner, f.sofia]) {
        const evaluations = await get(`/api/math/tasks?surface=evaluations&${query}`, token);
        expect((await get(`/api/math/workflow?${query}`, token)).body).toEqual(evaluations.body);
        const all = await get(`/api/math/workflow?surface=all&${query}`, token);
        expect(all.body).toEqual((await get(`/api/math/tasks?${query}`, token)).body);
      }
    }
  });

  it('carries each task in the same shape as GET /api/math/tasks/{task_id}', async () => {
    const list = await get('/api/math/tasks?q=la-01', f.owner);
    expect(list.body.items).toEqual([(await get('/api/math/tasks/la-01', f.owner)).body]);
  });
});

describe('pagination bounds on every list', () => {
  it.each([
    ['page=0', 400],
    ['page=1', 200],
    ['page=100000', 200],
    ['page=100001', 400],
    ['page_size=0', 400],
    ['page_size=1', 200],
    ['page_size=100', 200],
    ['page_size=101', 400],
    ['page=1.5', 400],
    ['page_size=abc', 400],
  ])('%s → %d', async (query, status) => {
    for (const [path, token] of PAGINATED()) {
      const res = await get(`${path}?${query}`, token);
      expect([path, res.status]).toEqual([path, status]);
      if (status === 400) expect(res.body.code).toBe('validation_failed');
    }
  });

  it('bounds q to 1..200 characters on every list that searches', async () => {
    const searching = PAGINATED().filter(([path]) => !/activity|notes|\/runs\//.test(path));
    expect(searching).toHaveLength(9);
    for (const [path, token] of searching) {
      expect([path, (await get(`${path}?q=${'q'.repeat(200)}`, token)).status]).toEqual([path, 200]);
      expect([path, (await get(`${path}?q=${'q'.repeat(201)}`, token)).status]).toEqual([path, 400]);
      expect([path, (await get(`${path}?q=`, token)).status]).toEqual([path, 400]);
    }
  });

  it('bounds the analytics trend to 1..90 days', async () => {
    for (const [days, status] of [
      ['0', 400],
      ['1', 200],
      ['90', 200],
      ['91', 400],
    ] as const) {
      const res = await get(`/api/math/analytics?days=${days}`, f.owner);
      expect([days, res.status]).toEqual([days, status]);
      if (status === 200) expect(res.body.trend.points).toHaveLength(Number(days));
    }
  });

  it('defaults to page 1 of 25, keeps totals on empty far pages, and honours page_size 1', async () => {
    const first = await get('/api/math/tasks', f.owner);
    expect(first.body).toMatchObject({ page: 1, page_size: 25, total: 10 });
    const far = await get('/api/math/tasks?page=100000&page_size=100', f.owner);
    expect(far.body).toMatchObject({ items: [], page: 100000, page_size: 100, total: 10 });
    expect((await get('/api/math/tasks?page_size=1', f.owner)).body.items).toHaveLength(1);
    for (const [path, token] of PAGINATED()) {
      const res = await get(`${path}?page_size=1`, token);
      const items = path.startsWith('/api/math/runs/') ? res.body.tasks.items : res.body.items;
      expect([path, items.length]).toEqual([path, 1]);
    }
  });
});

describe('GET /api/math/topics', () => {
  it('lists the latest imported run per topic, most recently imported first', async () => {
    const res = await get('/api/math/topics', f.owner);
    expect(res.body.total).toBe(3);
    expect(res.body.items.map((t: any) => [t.topic_id, t.latest_run.run_id, t.review_status.total])).toEqual([
      ['topic-alg', 'lists-run-b', 1],
      ['topic-num', 'lists-run-b', 3],
      ['topic-geo', 'lists-run-a', 3],
    ]);
    expect(res.body.items[2]).toMatchObject({
      title: 'Geometry',
      latest_run: { title: 'Lists fixture run A', completed_at: '2026-10-01T09:00:00.000Z' },
    });
  });

  it('searches titles, topic ids, run ids and problem text of the latest run', async () => {
    const cases: Array<[string, string[]]> = [
      ['geometry', ['topic-geo']],
      ['TOPIC-NUM', ['topic-num']],
      ['lists-run-a', ['topic-geo']],
      ['lists-run-', ['topic-alg', 'topic-num', 'topic-geo']],
      ['even more PRIMES', ['topic-num']],
      ['x_1', ['topic-alg']],
      ['100%', []],
    ];
    for (const [q, expected] of cases) {
      const res = await get(`/api/math/topics?q=${encodeURIComponent(q)}`, f.owner);
      expect([q, res.body.items.map((t: any) => t.topic_id), res.body.total]).toEqual([
        q,
        expected,
        expected.length,
      ]);
    }
    expect((await get(`/api/math/topics?q=${'a'.repeat(201)}`, f.owner)).status).toBe(400);
  });
});

describe('GET /api/math/runs and /api/math/runs/{run_id}', () => {
  it('lists runs newest first with tasks, reports and aggregate review status', async () => {
    const res = await get('/api/math/runs', f.owner);
    expect(res.body.total).toBe(2);
    expect(res.body.items.map((r: any) => r.run_id)).toEqual(['lists-run-b', 'lists-run-a']);
    expect(res.body.items[1]).toMatchObject({
      title: 'Lists fixture run A',
      source: 'test fixture',
      started_at: '2026-10-01T08:00:00.000Z',
      report_count: 2,
      mapped_reports: 4,
      review_status: {
        total: 6,
        archived: 2,
        unassigned: 1,
        review_states: { UNASSIGNED: 1, ASSIGNED: 1, IN_REVIEW: 1, COMPLETED: 3 },
        decisions: { ACCEPTED: 2, REJECTED: 1, NEEDS_REVISION: 0, NONE: 3 },
      },
    });
    const searched = await get('/api/math/runs?q=RUN-B', f.owner);
    expect(searched.body.items.map((r: any) => r.run_id)).toEqual(['lists-run-b']);
    expect(await total('/api/math/runs?q=fixture%20run', f.owner)).toBe(2);
  });

  it('details a run: topics, a page of tasks and of reports', async () => {
    const res = await get('/api/math/runs/lists-run-b?page_size=3', f.owner);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ run_id: 'lists-run-b', report_count: 2, mapped_reports: 3 });
    expect(res.body.topics).toEqual([
      { topic_id: 'topic-alg', title: 'Algebra', latest: true },
      { topic_id: 'topic-num', title: 'Number theory', latest: true },
    ]);
    expect(res.body.tasks).toMatchObject({ page: 1, page_size: 3, total: 4 });
    expect(res.body.tasks.items.map((t: any) => t.task_id)).toEqual(['lb-01', 'lb-02', 'lb-03']);
    expect(res.body.reports).toEqual({
      items: [
        { report_id: 'rep-b1', artifact_id: 'lists-art-b1', source_id: 'reports/b1', mapped_tasks: 2 },
        { report_id: 'rep-b2', artifact_id: 'lists-art-b2', source_id: 'reports/b2', mapped_tasks: 1 },
      ],
      page: 1,
      page_size: 3,
      total: 2,
    });
    const a = await get('/api/math/runs/lists-run-a', f.owner);
    expect(a.body.topics.map((t: any) => [t.topic_id, t.latest])).toEqual([
      ['topic-alg', false],
      ['topic-geo', true],
    ]);
    expect((await get('/api/math/runs/lists-run-z', f.owner)).status).toBe(404);
  });
});

describe('GET /api/math/reports', () => {
  it('lists every task mapping including null ones; mapped_reports counts mappings, not unique reports', async () => {
    const res = await get('/api/math/reports?page_size=100', f.owner);
    expect(res.body).toMatchObject({ total: 10, mapped_reports: 7, unique_reports: 4 });
    expect(res.body.items.map((m: any) => [m.task_id, m.report?.report_id ?? null])).toEqual([
      ['la-01', 'rep-1'],
      ['la-02', 'rep-1'],
      ['la-03', 'rep-2'],
      ['la-04', 'rep-2'],
      ['la-05', null],
      ['la-06', null],
      ['lb-01', 'rep-b1'],
      ['lb-02', 'rep-b1'],
      ['lb-03', null],
      ['lb-04', 'rep-b2'],
    ]);
    expect(res.body.items[0]).toEqual({
      task_id: 'la-01',
      run_id: 'lists-run-a',
      topic_id: 'topic-alg',
      question_id: 'qa',
      title: 'Bound 100% of x_1 cases',
      archived: false,
      report: { report_id: 'rep-1', artifact_id: 'lists-art-1', source_id: 'reports/1' },
    });
  });

  it('filters by run, question, mapped and q', async () => {
    expect((await get('/api/math/reports?run_id=lists-run-b', f.owner)).body).toMatchObject({
      total: 4,
      mapped_reports: 3,
      unique_reports: 2,
    });
    const unmapped = await get('/api/math/reports?mapped=false', f.owner);
    expect(unmapped.body.items.map((m: any) => [m.task_id, m.report])).toEqual([
      ['la-05', null],
      ['la-06', null],
      ['lb-03', null],
    ]);
    expect(unmapped.body.mapped_reports).toBe(0);
    expect(await total('/api/math/reports?mapped=true&question_id=qa', f.owner)).toBe(3);
    expect(ids(await get('/api/math/reports?q=REP-B', f.owner))).toEqual(['lb-01', 'lb-02', 'lb-04']);
    expect((await get('/api/math/reports?mapped=maybe', f.owner)).status).toBe(400);
  });
});

describe('GET /api/math/workflow/tasks/{task_id}', () => {
  it('answers exactly like GET /api/math/tasks/{task_id}/workflow', async () => {
    for (const token of [f.owner, f.rui]) {
      const original = await get('/api/math/tasks/la-01/workflow', token);
      const alias = await get('/api/math/workflow/tasks/la-01', token);
      expect(original.status).toBe(200);
      expect(alias.body).toEqual(original.body);
    }
    expect((await get('/api/math/workflow/tasks/none-such', f.owner)).status).toBe(404);
  });
});

describe('GET and POST /api/math/tasks/{task_id}/notes', () => {
  it('lists nonempty comments newest version first, without a total', async () => {
    const res = await get('/api/math/tasks/la-06/notes', f.owner);
    expect(res.body).toEqual({
      items: [expect.objectContaining({ action: 'archive', comment: 'Nothing to review.', version: 1 })],
      page: 1,
      page_size: 25,
    });
    expect((await get('/api/math/tasks/la-04/notes', f.owner)).body.items).toEqual([]);
  });

  it('runs the feedback action: ASSIGNED → IN_REVIEW, version + 1, full workflow detail returned', async () => {
    const before = (await get('/api/math/tasks/lb-01', f.rui)).body;
    expect(before.review_state).toBe('ASSIGNED');
    const res = await http(stack, 'POST', '/api/math/tasks/lb-01/notes', {
      token: f.rui,
      body: { version: before.version, comment: 'First note.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      task_id: 'lb-01',
      version: before.version + 1,
      review_state: 'IN_REVIEW',
    });
    expect(res.body.events[0]).toMatchObject({
      action: 'feedback',
      comment: 'First note.',
      actor_id: f.ids.rui,
    });
    expect(res.body).toEqual((await get('/api/math/tasks/lb-01/workflow', f.rui)).body);

    for (const [token, comment] of [
      [f.owner, 'Second note.'],
      [f.admin, 'Third note.'],
    ]) {
      const { version } = (await get('/api/math/tasks/lb-01', token)).body;
      const next = await http(stack, 'POST', '/api/math/tasks/lb-01/notes', {
        token,
        body: { version, comment },
      });
      expect(next.status).toBe(200);
    }
    const notes = (await get('/api/math/tasks/lb-01/notes', f.rui)).body;
    expect(notes.items.map((n: any) => n.comment)).toEqual(['Third note.', 'Second note.', 'First note.']);
    expect(notes.total).toBeUndefined();
    const pages = [];
    for (let page = 1; page <= 3; page += 1) {
      pages.push(
        (await get(`/api/math/tasks/lb-01/notes?page_size=2&page=${page}`, f.rui)).body.items.map(
          (n: any) => n.comment,
        ),
      );
    }
    expect(pages).toEqual([['Third note.', 'Second note.'], ['First note.'], []]);
  });

  it('refuses a blank comment, a stale version, a task not assigned to the Reviewer and a key without write', async () => {
    const { version } = (await get('/api/math/tasks/lb-01', f.owner)).body;
    const post = (token: string, body: unknown, task = 'lb-01') =>
      http(stack, 'POST', `/api/math/tasks/${task}/notes`, { token, body });
    expect((await post(f.rui, { version, comment: '   ' })).status).toBe(400);
    expect((await post(f.rui, { version, comment: 'nul \u0000 inside' })).status).toBe(400);
    expect((await post(f.rui, { version, comment: 'x', action: 'verdict' })).status).toBe(400);
    const stale = await post(f.rui, { version: version - 1, comment: 'late' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'stale_version', current_version: version });
    expect((await post(f.sofia, { version, comment: 'not mine' })).status).toBe(404);
    const noWrite = await post(f.ownerNoWrite, { version, comment: 'x' });
    expect(noWrite.status).toBe(403);
    expect(noWrite.body.missing_scopes).toEqual(['write']);
    const archived = await post(
      f.owner,
      { version: (await get('/api/math/tasks/la-06', f.owner)).body.version, comment: 'x' },
      'la-06',
    );
    expect(archived.status).toBe(409);
    expect(archived.body.code).toBe('task_archived');
    expect((await get('/api/math/tasks/lb-01', f.owner)).body.version).toBe(version);
  });
});

describe('clients: POST /api/math/clients, POST /api/math/clients/{client_id}, GET lists', () => {
  const find = async (name: string) =>
    (await get(`/api/math/clients?q=${encodeURIComponent(name)}&page_size=100`, f.owner)).body.items.find(
      (c: any) => c.name === name,
    );
  const post = (token: string, body: unknown, path = '/api/math/clients') =>
    http(stack, 'POST', path, { token, body });

  it('creates a client with a trimmed name and answers 201 without timestamps', async () => {
    const res = await post(f.admin, { name: '  Gamma Labs  ', description: 'Third client' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Gamma Labs',
      description: 'Third client',
      enabled: true,
    });
    const listed = await find('Gamma Labs');
    expect(listed).toMatchObject({ id: res.body.id, task_count: 0, archived_task_count: 0 });
    expect(listed.updated_at).toBe(listed.created_at);
  });

  it('bounds the trimmed name to 2..100 characters', async () => {
    const cases: Array<[string, number]> = [
      [' x ', 400],
      ['xy', 201],
      [` ${'n'.repeat(100)} `, 201],
      ['m'.repeat(101), 400],
      ['    ', 400],
      ['', 400],
      ['é'.repeat(100), 201],
    ];
    for (const [name, status] of cases) {
      const res = await post(f.owner, { name });
      expect([name.length, res.status]).toEqual([name.length, status]);
      if (status === 400) expect(res.body.errors[0].path).toBe('body.name');
    }
  });

  it('refuses duplicate names ignoring case with 409', async () => {
    for (const name of ['acme', ' ACME ', 'Gamma labs']) {
      const res = await post(f.owner, { name });
      expect([name, res.status, res.body.code]).toEqual([name, 409, 'duplicate_client_name']);
    }
  });

  it('refuses a Reviewer, a key without write, and unknown fields', async () => {
    expect((await post(f.rui, { name: 'Reviewer Co' })).body.code).toBe('insufficient_role');
    expect((await post(f.ownerNoWrite, { name: 'No Write Co' })).status).toBe(403);
    expect((await post(f.owner, { name: 'Extra Co', colour: 'red' })).status).toBe(400);
    expect((await post(f.owner, { name: 'Nul\u0000 Co' })).status).toBe(400);
    expect((await post(f.owner, { name: 'Nul Co', description: 'a\u0000b' })).status).toBe(400);
    expect(await find('Reviewer Co')).toBeUndefined();
  });

  it('updates with all four fields and the exact updated_at read from the list; stale → 409 with the current one', async () => {
    const id = await createClient(stack, f.owner, 'Delta');
    const read = await find('Delta');
    const path = `/api/math/clients/${id}`;
    const first = await post(
      f.owner,
      { name: ' Delta Corp ', description: 'd', enabled: false, updated_at: read.updated_at },
      path,
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id,
      name: 'Delta Corp',
      description: 'd',
      enabled: false,
      task_count: 0,
    });
    expect(Date.parse(first.body.updated_at)).toBeGreaterThan(Date.parse(read.updated_at));
    expect(first.body.created_at).toBe(read.created_at);

    const stale = await post(
      f.owner,
      { name: 'Delta', description: '', enabled: true, updated_at: read.updated_at },
      path,
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'stale_client', current_updated_at: first.body.updated_at });

    // The token of the response is the current one, even when the next edit follows within the same millisecond.
    const second = await post(
      f.admin,
      { name: 'Delta Corp', description: 'd2', enabled: true, updated_at: first.body.updated_at },
      path,
    );
    expect(second.status).toBe(200);
    const third = await post(
      f.owner,
      { name: 'Delta Corp', description: 'd3', enabled: true, updated_at: second.body.updated_at },
      path,
    );
    expect(third.status).toBe(200);
    expect(third.body.updated_at > second.body.updated_at).toBe(true);
    expect((await find('Delta Corp')).updated_at).toBe(third.body.updated_at);
  });

  it('refuses partial bodies, duplicate renames, unknown clients, Reviewers and keys without write', async () => {
    const beta = await find('Beta');
    const path = `/api/math/clients/${beta.id}`;
    const full = { name: 'Beta', description: '', enabled: true, updated_at: beta.updated_at };
    for (const missing of ['name', 'description', 'enabled', 'updated_at']) {
      const body: Record<string, unknown> = { ...full };
      delete body[missing];
      const res = await post(f.owner, body, path);
      expect([missing, res.status, res.body.errors?.[0]?.path]).toEqual([missing, 400, `body.${missing}`]);
    }
    expect((await post(f.owner, { ...full, name: 'a' }, path)).status).toBe(400);
    expect((await post(f.owner, { ...full, name: 'x'.repeat(101) }, path)).status).toBe(400);
    expect((await post(f.owner, { ...full, updated_at: 'yesterday' }, path)).status).toBe(400);
    const dup = await post(f.owner, { ...full, name: ' acme ' }, path);
    expect([dup.status, dup.body.code]).toEqual([409, 'duplicate_client_name']);
    expect((await post(f.owner, full, '/api/math/clients/999999')).status).toBe(404);
    expect((await post(f.owner, full, '/api/math/clients/abc')).status).toBe(400);
    expect((await post(f.owner, full, '/api/math/clients/9223372036854775808')).status).toBe(400);
    expect((await post(f.owner, full, '/api/math/clients/9223372036854775807')).status).toBe(404);
    const extendedYear = await post(f.owner, { ...full, updated_at: '+002026-01-01T00:00:00Z' }, path);
    expect([extendedYear.status, extendedYear.body.code]).toEqual([409, 'stale_client']);
    expect((await post(f.sofia, full, path)).body.code).toBe('insufficient_role');
    expect((await post(f.ownerNoWrite, full, path)).status).toBe(403);
    expect((await find('Beta')).updated_at).toBe(beta.updated_at);
  });

  it('writes audit events visible in /api/math/activity', async () => {
    const items = (await get('/api/math/activity?kind=client&page_size=100', f.owner)).body.items;
    const delta = items.filter((a: any) => a.detail.name?.startsWith('Delta'));
    expect(delta.map((a: any) => a.action)).toEqual([
      'client_updated',
      'client_updated',
      'client_updated',
      'client_created',
    ]);
    expect(delta[2].detail).toMatchObject({
      name: 'Delta Corp',
      enabled: false,
      previous: { name: 'Delta', enabled: true },
    });
    expect(delta[0].actor_id).toBeTruthy();
    // A Reviewer sees no events of clients not linked to their tasks.
    expect((await get('/api/math/activity?kind=client', f.rui)).body.total).toBe(1);
  });

  it('GET /api/clients is the same list without descriptions or archived counts', async () => {
    for (const query of ['', '?q=a&page_size=2&page=2']) {
      const full = (await get(`/api/math/clients${query}`, f.owner)).body;
      const summary = (await get(`/api/clients${query}`, f.owner)).body;
      expect(summary).toEqual({
        ...full,
        items: full.items.map((c: any) => ({
          id: c.id,
          name: c.name,
          enabled: c.enabled,
          task_count: c.task_count,
        })),
      });
    }
  });

  it('refuses a task action naming an unusable member (400) or client (422), changing nothing', async () => {
    const version = await taskVersion(stack, f.owner, 'la-06');
    const action = (body: Record<string, unknown>) =>
      http(stack, 'POST', '/api/math/tasks/la-06', { token: f.owner, body: { version, ...body } });
    const primaryAdmin = await memberId(stack, 'math', 'idp|ada');
    for (const assignee of ['999999', primaryAdmin]) {
      const res = await action({ action: 'assign', assignee_id: assignee });
      expect([res.status, res.body.code]).toEqual([400, 'unknown_member']);
    }
    const client = await action({ action: 'client', client_id: '999999' });
    expect([client.status, client.body.code]).toEqual([422, 'unknown_client']);
    expect(await taskVersion(stack, f.owner, 'la-06')).toBe(version);
  });
});

describe('pagination is live across inserts', () => {
  it('keeps pages of the oldest-first order stable while new tasks arrive at its end', async () => {
    const oldest = '/api/math/tasks?sort=oldest&page_size=4';
    const page1 = await get(`${oldest}&page=1`, f.owner);
    expect(page1.body.total).toBe(10);
    await importBundle(stack, join(LISTS_FIXTURE_DIR, 'run-c'));
    const page2 = await get(`${oldest}&page=2`, f.owner);
    const page3 = await get(`${oldest}&page=3`, f.owner);
    expect(page2.body.total).toBe(12);
    const seen = [...ids(page1), ...ids(page2), ...ids(page3)];
    expect(new Set(seen).size).toBe(12);
    expect(ids(page3).slice(-2)).toEqual(['lc-01', 'lc-02']);
    expect(ids(await get('/api/math/tasks?page_size=2', f.owner))).toEqual(['lc-02', 'lc-01']);
    expect(await total('/api/math/tasks', f.rui)).toBe(3);
    expect((await get('/api/math/runs', f.owner)).body.items[0].run_id).toBe('lists-run-c');
    expect((await get('/api/math/seeds/qe', f.rui)).status).toBe(404);
    await act(stack, f.owner, 'lc-01', { action: 'assign', assignee_id: f.ids.rui });
    expect(await total('/api/math/tasks', f.rui)).toBe(4);
    expect((await get('/api/math/seeds/qe', f.rui)).body.review_status.total).toBe(1);
  });
});
