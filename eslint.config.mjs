import { posix, relative } from 'node:path';
import js from '@eslint/js';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * Product code is linted with type information, so a promise nobody awaits (a workflow step, a handler's write)
 * is an error. Tests, bench and scripts are left out: typing their files too makes every lint run markedly
 * slower, for rules that guard what ships.
 */
const PRODUCT_CODE = [
  '{api,cli,workflows,activities,entities,access,webhooks,storage,observability,logging,concurrency,deployment,infra}/**/*.ts',
  '{config,server,worker}.ts',
  'console/src/**/*.{ts,tsx}',
];
const promiseRules = {
  files: PRODUCT_CODE,
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/no-misused-promises': 'error',
    '@typescript-eslint/await-thenable': 'error',
  },
};

/**
 * How large a product function may grow: `max-params` and `max-lines-per-function` (blank and comment lines not
 * counted), except the functions FUNCTION_LIMIT_EXCEPTIONS lists. Migrations are left out: they are the schema's
 * history, and never change.
 */
const FUNCTION_LIMITS = { 'max-params': 4, 'max-lines-per-function': 80 };

/** Why each listed function is over a limit today. */
const WHY = {
  BUNDLE: "A bundle's checks in one pass over its files, in the order the format declares them.",
  ACTIVITIES: 'The activities of one workflow, closures over one set of dependencies.',
  STATEMENT:
    "A SQL statement's arguments, one per placeholder group; an options object when it is next changed.",
  KERNEL: "The kernel's request pipeline, one step after another; an options object when it is next changed.",
  FORM: "Streams a multipart form: the parser's events in one closure over its state.",
  DOCUMENT: 'A published document (OpenAPI, JSON Schema) written as the one literal it is.',
  SCIM: 'The SCIM routes over one set of dependencies; one file a route when it is next changed.',
  OPERATIONS:
    'An api/ operations table: issue 55 item 1 reshapes these (declarations inferred from schemas).',
  CLI: 'cli/: issue 55 item 2 makes each command its own function typed from its declaration.',
  CONFIG: 'Reads every setting from the environment in one place, by design (docs/layout.md).',
  PAGE: 'A console page or hook whose JSX is one tree; split into parts when it is next changed.',
  INFRA: 'Starts the Temporal server of the cluster profile: its host choice and processes, in order.',
  PROCESS_START: "A process's start, its steps in the order they run and undo on failure.",
  METRICS: 'Declares each metric the process exposes, one statement each.',
  DOWNLOAD: "A verified download's retries and checks around one stream.",
  WORKFLOW:
    "The workflow's handlers share its state: they are declared inside it, as Temporal's handlers are.",
  POST: 'One HTTP exchange of a webhook and what signs it; an options object when it is next changed.',
  ACTION: 'Sends a review action with its caller, topic and key; an options object when it is next changed.',
  DEPLOYMENTS: "Worker Deployment API calls, their arguments as Temporal's requests name them.",
  MANAGEMENT: 'Endpoint management shared by the API and the CLI; an options object when it is next changed.',
};

/** `[rule, file, function, why]`: the product functions over FUNCTION_LIMITS today. */
const FUNCTION_LIMIT_EXCEPTIONS = [
  ['max-lines-per-function', 'activities/bundles/genomicsBundle.ts', 'inspect', WHY.BUNDLE],
  ['max-lines-per-function', 'activities/bundles/mathBundle.ts', 'inspect', WHY.BUNDLE],
  ['max-lines-per-function', 'activities/genomicsImport.ts', 'genomicsImportActivities', WHY.ACTIVITIES],
  ['max-lines-per-function', 'activities/webhookQueries.ts', 'claimDeliveries', WHY.STATEMENT],
  ['max-lines-per-function', 'api/kernel/app.ts', 'mount', WHY.KERNEL],
  ['max-lines-per-function', 'api/math/bugReports/form.ts', 'Arrow function', WHY.FORM],
  ['max-lines-per-function', 'api/math/bugReports/form.ts', 'readBugReportForm', WHY.FORM],
  ['max-lines-per-function', 'api/scim/openapi.ts', 'scimOpenApi', WHY.DOCUMENT],
  ['max-lines-per-function', 'api/scim/routes.ts', 'scimRoutes', WHY.SCIM],
  ['max-lines-per-function', 'api/shared/exports/operations.ts', 'exportOperationsOf', WHY.OPERATIONS],
  ['max-lines-per-function', 'api/shared/webhooks/operations.ts', 'webhookOperationsOf', WHY.OPERATIONS],
  ['max-lines-per-function', 'api/shared/webhooks/schemas.ts', 'webhookSchemasOf', WHY.DOCUMENT],
  ['max-lines-per-function', 'cli/handlers/exportTasks.ts', 'exportTasks', WHY.CLI],
  ['max-lines-per-function', 'cli/operator/reconcile.ts', 'reconcileService', WHY.CLI],
  ['max-lines-per-function', 'cli/operator/status.ts', 'temporalStatus', WHY.CLI],
  ['max-lines-per-function', 'config.ts', 'loadConfig', WHY.CONFIG],
  ['max-lines-per-function', 'console/src/dashboard/genomicsDashboard.tsx', 'GenomicsDashboard', WHY.PAGE],
  ['max-lines-per-function', 'console/src/dashboard/mathDashboard.tsx', 'MathFigures', WHY.PAGE],
  ['max-lines-per-function', 'console/src/dashboard/parts.tsx', 'TurnaroundFigure', WHY.PAGE],
  ['max-lines-per-function', 'console/src/genomics/topic.tsx', 'TopicPage', WHY.PAGE],
  ['max-lines-per-function', 'console/src/genomics/topics.tsx', 'TopicList', WHY.PAGE],
  ['max-lines-per-function', 'console/src/math/queue.tsx', 'MathQueue', WHY.PAGE],
  ['max-lines-per-function', 'console/src/math/reviewActions.tsx', 'ReviewActions', WHY.PAGE],
  ['max-lines-per-function', 'console/src/math/taskActions.ts', 'useTaskActions', WHY.PAGE],
  ['max-lines-per-function', 'infra/temporalServer.ts', 'chooseHosts', WHY.INFRA],
  ['max-lines-per-function', 'infra/temporalServer.ts', 'startTemporalServer', WHY.PROCESS_START],
  ['max-lines-per-function', 'observability/apiMetrics.ts', 'Constructor', WHY.METRICS],
  ['max-lines-per-function', 'observability/workerMetrics.ts', 'Constructor', WHY.METRICS],
  ['max-lines-per-function', 'server.ts', 'startServer', WHY.PROCESS_START],
  ['max-lines-per-function', 'storage/verifiedDownload.ts', 'fetchVerifiedObject', WHY.DOWNLOAD],
  ['max-lines-per-function', 'worker.ts', 'startWorker', WHY.PROCESS_START],
  ['max-lines-per-function', 'workflows/genomicsTask/workflow.ts', 'genomicsTaskWorkflow', WHY.WORKFLOW],
  ['max-params', 'access/idempotencyQueries.ts', 'completeReceipt', WHY.STATEMENT],
  ['max-params', 'access/keysQueries.ts', 'selectVisibleKey', WHY.STATEMENT],
  ['max-params', 'access/membersQueries.ts', 'insertIdentityAudit', WHY.STATEMENT],
  ['max-params', 'activities/bundles/common.ts', 'checkBundleFiles', WHY.BUNDLE],
  ['max-params', 'activities/bundles/records.ts', 'listBatches', WHY.BUNDLE],
  ['max-params', 'activities/bundles/records.ts', 'listRecords', WHY.BUNDLE],
  ['max-params', 'activities/bundles/uniqueKeys.ts', 'add', WHY.BUNDLE],
  ['max-params', 'activities/genomicsImportQueries.ts', 'upsertPublications', WHY.STATEMENT],
  ['max-params', 'activities/genomicsImportQueries.ts', 'writeImportEvents', WHY.STATEMENT],
  ['max-params', 'activities/genomicsTransitionQueries.ts', 'applyEffect', WHY.STATEMENT],
  ['max-params', 'activities/mathImportQueries.ts', 'upsertRun', WHY.STATEMENT],
  ['max-params', 'activities/projectionRepairQueries.ts', 'auditReplaced', WHY.STATEMENT],
  ['max-params', 'activities/webhookDelivery.ts', 'exchangeOnce', WHY.POST],
  ['max-params', 'activities/webhookDelivery.ts', 'post', WHY.POST],
  ['max-params', 'activities/webhookDelivery.ts', 'signedPost', WHY.POST],
  ['max-params', 'api/genomics/review/actions.ts', 'applyGenomicsAction', WHY.ACTION],
  ['max-params', 'api/genomics/shared/topicRecordQueries.ts', 'findTopicRecord', WHY.STATEMENT],
  ['max-params', 'api/genomics/shared/topicRecordQueries.ts', 'pageOfTopicRecords', WHY.STATEMENT],
  ['max-params', 'api/genomics/topics/queries.ts', 'writeTopicEvent', WHY.STATEMENT],
  ['max-params', 'api/genomics/topics/receipts.ts', 'readRecord', WHY.STATEMENT],
  ['max-params', 'api/kernel/app.ts', 'confirmBodyOfAssertion', WHY.KERNEL],
  ['max-params', 'api/kernel/openapi.ts', 'operationObject', WHY.KERNEL],
  ['max-params', 'api/math/clients/queries.ts', 'recordClientEvent', WHY.STATEMENT],
  ['max-params', 'api/math/clients/queries.ts', 'updateClient', WHY.STATEMENT],
  ['max-params', 'api/math/tasks/queries.ts', 'listTasks', WHY.STATEMENT],
  ['max-params', 'cli/handlers/operator.ts', 'findings', WHY.CLI],
  ['max-params', 'cli/operator/reconcile.ts', 'finding', WHY.CLI],
  ['max-params', 'cli/operator/reconcile.ts', 'repairTask', WHY.CLI],
  ['max-params', 'infra/temporalServer.ts', 'chooseHosts', WHY.INFRA],
  ['max-params', 'infra/temporalServer.ts', 'setupSchema', WHY.INFRA],
  ['max-params', 'infra/temporalServer.ts', 'startUi', WHY.INFRA],
  ['max-params', 'infra/temporalServer.ts', 'temporalServerConfig', WHY.INFRA],
  ['max-params', 'deployment/workerDeployments.ts', 'moveWorkflow', WHY.DEPLOYMENTS],
  ['max-params', 'deployment/workerDeployments.ts', 'promoteIfNoCurrentVersion', WHY.DEPLOYMENTS],
  ['max-params', 'deployment/workerDeployments.ts', 'setRampingVersion', WHY.DEPLOYMENTS],
  ['max-params', 'deployment/workerDeployments.ts', 'taskCompletedOn', WHY.DEPLOYMENTS],
  ['max-params', 'webhooks/management.ts', 'changeEndpoint', WHY.MANAGEMENT],
  ['max-params', 'webhooks/management.ts', 'createEndpoint', WHY.MANAGEMENT],
  ['max-params', 'webhooks/management.ts', 'rotateSecret', WHY.MANAGEMENT],
  ['max-params', 'webhooks/managementQueries.ts', 'rotateEndpointSecret', WHY.STATEMENT],
  ['max-params', 'webhooks/payloads.ts', 'doc', WHY.DOCUMENT],
];

/**
 * A core rule that lets the listed functions be: `[rule, file, function, why]`, the function as the rule names it
 * (`'name'`, or its kind when it has none: `Arrow function`). It reports an exception the file no longer needs, so
 * the list only shrinks.
 */
function withExceptions(ruleName, limit, exceptions) {
  const core = builtinRules.get(ruleName);
  return {
    meta: {
      type: core.meta.type,
      docs: core.meta.docs,
      schema: [],
      messages: {
        ...core.meta.messages,
        stale:
          '{{name}} is within {{rule}} now: remove it from FUNCTION_LIMIT_EXCEPTIONS in eslint.config.mjs.',
      },
    },
    create(context) {
      const file = relative(import.meta.dirname, context.filename);
      const listed = new Map(
        exceptions
          .filter(([rule, path]) => rule === ruleName && path === file)
          .map(([, , name]) => [name, false]),
      );
      const nameOf = (described) => /'(.+)'$/.exec(described)?.[1] ?? described;
      const inner = core.create(
        Object.create(context, {
          options: { value: [limit] },
          report: {
            value: (descriptor) => {
              const name = nameOf(descriptor.data.name);
              if (listed.has(name)) listed.set(name, true);
              else context.report(descriptor);
            },
          },
        }),
      );
      return {
        ...inner,
        'Program:exit'(node) {
          for (const [name, used] of listed)
            if (!used) context.report({ node, messageId: 'stale', data: { name, rule: ruleName } });
        },
      };
    },
  };
}

export const functionLimits = {
  files: PRODUCT_CODE,
  ignores: ['entities/migrations/**'],
  plugins: {
    limits: {
      rules: Object.fromEntries(
        Object.entries(FUNCTION_LIMITS).map(([rule, limit]) => [
          rule,
          withExceptions(
            rule,
            rule === 'max-params' ? limit : { max: limit, skipBlankLines: true, skipComments: true },
            FUNCTION_LIMIT_EXCEPTIONS,
          ),
        ]),
      ),
    },
  },
  rules: Object.fromEntries(Object.keys(FUNCTION_LIMITS).map((rule) => [`limits/${rule}`, 'error'])),
};

/**
 * The project's rooms and what each may import (docs/layout.md, checked against this by test/unit/layout.test.ts).
 * A room lists what it may import; every other room is refused, so a new room is closed to the others until one
 * lists it. An entry inside a room (`activities/bundles/`, `activities/**\/*Queries.ts`) opens that part of it only.
 */
const ROOMS = [
  'server.ts',
  'worker.ts',
  'config.ts',
  'api/kernel',
  'api/shared',
  'api/math',
  'api/genomics',
  'api/docs',
  'api/console',
  'api/scim',
  'access',
  'console',
  'workflows',
  'activities',
  'entities',
  'observability',
  'webhooks',
  'logging',
  'concurrency',
  'storage',
  'deployment',
  'infra',
  'launcher',
  'cli',
  'bin',
  'scripts',
  'bench',
  'drills',
  'docs',
  'test',
];
const allBut = (...refused) => ROOMS.filter((room) => !refused.includes(room));
// The command line shares the worker's statements and bundle checks, never an activity.
const ACTIVITY_QUERIES_AND_BUNDLE_CHECKS = ['activities/bundles/', 'activities/**/*Queries.ts'];
const API = {
  may: ['api/kernel', 'api/shared', 'access', 'entities', 'workflows', 'storage', 'logging', 'webhooks'],
};
const layers = {
  'worker.ts': {
    why: 'The worker process is what the image runs: the worker side only, no infrastructure, API, launcher, command line or developer tool.',
    may: [
      'config.ts',
      'activities',
      'entities',
      'storage',
      'webhooks',
      'observability',
      'logging',
      'deployment',
    ],
  },
  'config.ts': { why: 'Settings are read from the environment alone.', may: [] },
  'api/kernel': {
    why: 'The kernel serves every service and knows none: pass what it needs in from the service.',
    may: ['access', 'config.ts', 'logging'],
    types: ['entities', 'observability'],
  },
  'api/shared': {
    why: 'api/shared holds what both services share; it imports neither service, nor worker or process code.',
    may: ['api/kernel', 'access', 'entities', 'storage', 'logging', 'webhooks'],
  },
  'api/math': {
    why: 'The API reaches the worker through Temporal and the other service through api/shared.',
    ...API,
  },
  'api/genomics': {
    why: 'The API reaches the worker through Temporal and the other service through api/shared.',
    ...API,
  },
  'api/docs': {
    why: 'The docs pages describe the kernel; they import no service or worker code.',
    may: ['api/kernel', 'logging'],
    types: ['entities'],
  },
  'api/console': {
    why: "The API serves the console's built files and its sign-in; it imports no service, worker or console code.",
    may: ['api/kernel', 'access', 'config.ts'],
  },
  'api/scim': {
    why: "The SCIM service provider speaks its own protocol on the kernel's process; it imports no service or worker code.",
    may: ['api/kernel', 'access'],
  },
  access: {
    why: 'access/ is shared by the API and the command line; it emits webhook events (a revoked key) and manages none.',
    may: ['entities', 'logging', 'webhooks/events.ts'],
  },
  console: {
    why: 'The console is a REST client of the published APIs: it imports nothing of the server.',
    may: [],
  },
  workflows: {
    why: 'Workflow code is deterministic: only types from activities (proxyActivities), no I/O.',
    may: [],
    types: ['activities'],
  },
  activities: {
    why: 'Activities are the worker side: no HTTP API, command line or infrastructure code.',
    may: ['entities', 'storage', 'workflows', 'webhooks', 'logging', 'concurrency', 'docs'],
  },
  entities: {
    why: 'Entities describe tables; they import no behaviour, only types of the pure state machines.',
    may: [],
    types: ['workflows'],
  },
  observability: { why: 'observability/ serves every process; it imports nothing of the project.', may: [] },
  webhooks: {
    why: 'webhooks/ holds the webhook domain the API, the worker and the CLI share; it imports none of them.',
    may: [],
    types: ['entities'],
  },
  logging: { why: 'logging/ serves every process; it imports nothing of the project.', may: [] },
  concurrency: {
    why: 'concurrency/ holds helpers every process shares; it imports nothing of the project.',
    may: [],
  },
  storage: { why: 'storage/ is the S3 layer; it imports nothing of the project above it.', may: [] },
  deployment: {
    why: "deployment/ holds the worker's build ID, versions and workflow bundle, which the worker process runs: it imports no infrastructure, API, entity or activity code.",
    may: ['workflows', 'observability'],
  },
  infra: {
    why: 'infra/ starts infrastructure; it imports no API, entity, activity or script code.',
    may: ['storage', 'workflows', 'observability', 'logging', 'deployment'],
  },
  launcher: {
    why: "npm start's launcher starts the system and its first run; it imports no API, command line or developer tool, and of activities/ only the bundle checks.",
    may: [
      'config.ts',
      'access',
      'entities',
      'workflows',
      'deployment',
      'infra',
      'console',
      ...ACTIVITY_QUERIES_AND_BUNDLE_CHECKS,
    ],
  },
  cli: {
    why: 'The ops CLI administers the system through access/, webhooks/, workflows/ and Temporal; it imports no API, launcher, developer tool or drill, and of activities/ only the bundle checks and statements.',
    may: [
      'config.ts',
      'access',
      'entities',
      'workflows',
      'webhooks',
      'storage',
      'deployment',
      'infra',
      'concurrency',
      ...ACTIVITY_QUERIES_AND_BUNDLE_CHECKS,
    ],
  },
  scripts: {
    why: "The command line shares the worker's statements and bundle checks, never an activity.",
    may: [...allBut('activities'), ...ACTIVITY_QUERIES_AND_BUNDLE_CHECKS],
  },
  bench: {
    why: "The bench shares the worker's statements and bundle checks, never an activity.",
    may: [...allBut('activities'), ...ACTIVITY_QUERIES_AND_BUNDLE_CHECKS],
  },
  drills: {
    why: "The reliability drills share the worker's statements and bundle checks, never an activity.",
    may: [...allBut('activities'), ...ACTIVITY_QUERIES_AND_BUNDLE_CHECKS],
  },
};

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const roomOf = (entry) => ROOMS.find((room) => entry === room || entry.startsWith(`${room}/`));
const isFile = (room) => room.endsWith('.ts');
/** What an import names a room or a file by: its path without `.ts`. */
const importPath = (path) => path.replace(/\.ts$/, '');
/** An entry inside a room as a regex on what follows the room's path (`bundles/`, `**\/*Queries.ts`). */
const insideRoom = (entry, room) =>
  importPath(entry.slice(room.length + 1))
    .split('**/')
    .map((part) => part.split('*').map(escapeRegex).join('[^/]*'))
    .join('([^/]+/)*');

/**
 * Import specifiers of the `refused` rooms, as written in a file `extra` folders below `from` (a room's folder, or
 * `.` for a file at the root): relative paths, so a subfolder named like a room (`console/src/webhooks/`) is not it.
 */
function refusedImports(from, refused, opened, extra) {
  const alternatives = refused.map((room) => {
    let relative = posix.relative(from, importPath(room));
    relative = relative.startsWith('.') ? relative : `./${relative}`;
    const exceptions = opened
      .filter((entry) => roomOf(entry) === room)
      .map((entry) => `(?!/${insideRoom(entry, room)}${entry.endsWith('/') ? '' : '$'})`);
    return `${escapeRegex('../'.repeat(extra))}${escapeRegex(relative)}${exceptions.join('')}(/|$)`;
  });
  return `^(${alternatives.join('|')})`;
}

const listRooms = (rooms) => rooms.map((room) => (isFile(room) ? room : `${room}/`)).join(', ');
const importDirections = Object.entries(layers).flatMap(([room, { why, may, types = [] }]) => {
  const others = ROOMS.filter((other) => other !== room);
  const open = new Set([...may, ...types].filter((entry) => ROOMS.includes(entry)));
  const refused = others.filter((other) => !open.has(other));
  const typesOnly = others.filter((other) => types.includes(other));
  const opened = may.filter((entry) => !ROOMS.includes(entry));
  const allowed = [
    refused.length < open.size
      ? `anything but ${listRooms(refused)}${opened.length ? `, of it ${opened.join(', ')}` : ''}`
      : listRooms([...open].filter((entry) => !types.includes(entry))),
    types.length ? `types from ${listRooms(types)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const message = `${why} (docs/layout.md: ${room}${isFile(room) ? '' : '/'} may import ${allowed || 'nothing of the project'})`;
  const from = isFile(room) ? '.' : room;
  // One block per folder depth inside the room: a relative import's `../` count depends on it.
  const depths = isFile(room) ? [0] : [0, 1, 2, 3, 4, 5];
  return depths.map((extra) => ({
    files: [isFile(room) ? room : `${room}/${'*/'.repeat(extra)}*.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...(refused.length
              ? [{ regex: refusedImports(from, refused, opened, extra), caseSensitive: true, message }]
              : []),
            ...(typesOnly.length
              ? [
                  {
                    regex: refusedImports(from, typesOnly, [], extra),
                    caseSensitive: true,
                    allowTypeImports: true,
                    message,
                  },
                ]
              : []),
          ],
        },
      ],
    },
  }));
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.referee/', 'coverage/', 'test/.artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['jest.config.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    // The container suites' configs (npm run test:image, test:compose) extend jest.config.js.
    files: ['jest.*.config.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['bin/*.js', 'console/build.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  promiseRules,
  functionLimits,
  ...importDirections,
  {
    // The worker's SQL lives in queries files beside the activities that run it, as the API's does (docs/layout.md).
    files: ['activities/**/*.ts'],
    ignores: ['activities/**/*Queries.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'Run SQL from a queries file beside this activity (activities/**/*Queries.ts).',
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['typeorm', 'pg', '@aws-sdk/*', 'fs', 'node:*', 'crypto', 'koa', 'child_process'],
              message: 'Workflow code is deterministic: do I/O in activities.',
            },
          ],
        },
      ],
    },
  },
);
