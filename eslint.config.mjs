import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * Allowed import directions between the project's folders (README "Layout"). Each file belongs to one block below;
 * a block lists what its folder must not import. Paths are relative imports, matched by folder name.
 */
const folder = (name) => [`**/${name}`, `**/${name}/**`];
// Scoped packages (`@opentelemetry/api`) are never one of our folders, whatever their last segment is called.
const forbid = (message, names, options = {}) => ({
  group: [...names.flatMap(folder), '!@*/**'],
  message,
  ...options,
});
const layers = {
  'api/kernel/**/*.ts': [
    forbid('The kernel serves every service and knows none: pass what it needs in from the service.', [
      'math',
      'genomics',
      'docs',
    ]),
    forbid('The kernel serves both services and imports nothing of what they share (api/shared).', [
      'shared',
    ]),
    forbid(
      'The kernel may borrow types from entities/ (roles, scopes, Queryable), never a table.',
      ['entities'],
      {
        allowTypeImports: true,
      },
    ),
    forbid('The HTTP kernel does no workflow, activity, storage or process work.', [
      'workflows',
      'activities',
      'storage',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'api/shared/**/*.ts': [
    forbid('api/shared holds what both services share; it imports neither service.', [
      'math',
      'genomics',
      'docs',
    ]),
    forbid('api/shared imports no workflow, worker, script or infrastructure code.', [
      'workflows',
      'activities',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'api/math/**/*.ts': [
    forbid('The math service does not import the genomics service; share through api/shared.', ['genomics']),
    forbid('The API reaches the worker through Temporal, never by importing activities or scripts.', [
      'docs',
      'activities',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'api/genomics/**/*.ts': [
    forbid('The genomics service does not import the math service; share through api/shared.', ['math']),
    forbid('The API reaches the worker through Temporal, never by importing activities or scripts.', [
      'docs',
      'activities',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'workflows/**/*.ts': [
    forbid('Workflow code is deterministic: only types from activities (proxyActivities).', ['activities'], {
      allowTypeImports: true,
    }),
    forbid('Workflow code is deterministic: no API, database, storage or process code.', [
      'docs',
      'api',
      'access',
      'webhooks',
      'logging',
      'observability',
      'entities',
      'storage',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'activities/**/*.ts': [
    forbid('Activities are the worker side: no HTTP API, scripts or infrastructure code.', [
      'api',
      'access',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'entities/**/*.ts': [
    forbid('Entities may borrow types from the pure state machines only.', ['workflows'], {
      allowTypeImports: true,
    }),
    forbid('Entities describe tables; they import no behaviour.', [
      'docs',
      'api',
      'access',
      'logging',
      'observability',
      'activities',
      'storage',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'access/**/*.ts': [
    forbid('access/ is shared by the API and the command line; it imports neither, nor the worker.', [
      'docs',
      'api',
      'workflows',
      'activities',
      'storage',
      'infra',
      'scripts',
      'bench',
    ]),
    {
      group: ['**/webhooks/**', '!**/webhooks/events'],
      message:
        'access/ emits webhook events (webhooks/events.ts: a revoked key) and manages none: webhook management is in webhooks/.',
    },
  ],
  'webhooks/**/*.ts': [
    forbid(
      'webhooks/ may borrow types from entities/ (service names, statuses, Queryable), never a table.',
      ['entities'],
      {
        allowTypeImports: true,
      },
    ),
    forbid(
      'webhooks/ holds the webhook domain the API, the worker and the CLI share (events, payloads, secrets, targets, endpoint management and its SQL); it imports none of them.',
      [
        'docs',
        'api',
        'access',
        'workflows',
        'activities',
        'storage',
        'logging',
        'observability',
        'concurrency',
        'config',
        'infra',
        'scripts',
        'bench',
      ],
    ),
  ],
  'logging/**/*.ts': [
    forbid('logging/ serves every process (API, worker, CLI); it imports nothing of the project.', [
      'docs',
      'api',
      'access',
      'workflows',
      'activities',
      'entities',
      'storage',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'observability/**/*.ts': [
    forbid('observability/ serves every process (API, worker); it imports nothing of the project.', [
      'api',
      'access',
      'workflows',
      'activities',
      'entities',
      'storage',
      'logging',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'concurrency/**/*.ts': [
    forbid(
      'concurrency/ holds helpers every process shares (limits on work in flight); it imports nothing of the project.',
      [
        'docs',
        'api',
        'access',
        'logging',
        'observability',
        'webhooks',
        'workflows',
        'activities',
        'entities',
        'storage',
        'infra',
        'scripts',
        'bench',
      ],
    ),
  ],
  'storage/**/*.ts': [
    forbid('storage/ is the S3 layer; it imports nothing of the project above it.', [
      'docs',
      'api',
      'access',
      'logging',
      'observability',
      'workflows',
      'activities',
      'entities',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'api/docs/**/*.ts': [
    forbid('The docs pages may borrow types from entities/, never a table.', ['entities'], {
      allowTypeImports: true,
    }),
    forbid('The docs pages describe the kernel; they import no service or worker code.', [
      'access',
      'math',
      'genomics',
      'shared',
      'workflows',
      'activities',
      'storage',
      'infra',
      'scripts',
      'bench',
    ]),
  ],
  'api/console/**/*.ts': [
    forbid("The API only serves the console's built files; it imports no service, worker or console code.", [
      'access',
      'math',
      'genomics',
      'shared',
      'docs',
      'workflows',
      'activities',
      'entities',
      'observability',
      'storage',
      'infra',
      'scripts',
      'bench',
      'console',
    ]),
  ],
  'console/**/*.{ts,tsx}': [
    forbid('The console is a REST client of the published APIs: it imports nothing of the server.', [
      'api',
      'access',
      'workflows',
      'activities',
      'entities',
      'logging',
      'observability',
      'storage',
      'infra',
      'scripts',
      'bench',
      'config',
    ]),
  ],
  '{scripts,bench}/**/*.ts': [
    {
      // Anything in activities/ but its bundle checks (activities/bundles/) and its queries modules (*Queries).
      regex: '(^|/)activities(/(?!bundles/)(?!([^/]+/)*[^/]+Queries$).*)?$',
      message:
        "The command line shares the worker's statements through activities/ queries modules (*Queries.ts) and its bundle checks (activities/bundles/), never an activity.",
    },
  ],
  'infra/**/*.ts': [
    forbid('infra/ starts infrastructure; it imports no API, entity, activity or script code.', [
      'docs',
      'api',
      'access',
      'entities',
      'activities',
      'scripts',
      'bench',
    ]),
  ],
};
const importDirections = Object.entries(layers).map(([files, patterns]) => ({
  files: [files],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
}));

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
  ...importDirections,
  {
    // The worker's SQL lives in queries files beside the activities that run it, as the API's does (README "Layout").
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
