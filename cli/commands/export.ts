import { defineCommand } from '../kernel/command';

const filter = (summary: string) => ({ type: 'string', value: 'value', summary }) as const;

export const exportTasks = defineCommand({
  name: 'export',
  summary: "Export a service's task list with these filters to a local file, verified before it is written.",
  details: [
    'Starts an export through the API with the key in REFEREE_API_KEY (the export holds what that key lists), shows',
    'its progress on stderr (a bar on a terminal; JSON lines with --json), downloads the file and writes it to',
    '--out only after its size and SHA-256 matched the export’s. The API is REFEREE_API_URL, else the running',
    "npm start's. Filters are the list's: math's task list filters and sort, genomics' search and disposition.",
    'See docs/exports.md.',
  ],
  options: {
    service: {
      type: 'string',
      value: 'service',
      choices: ['math', 'genomics'],
      required: true,
      summary: 'The service.',
    },
    out: { type: 'string', value: 'file', required: true, summary: 'Where the verified file is written.' },
    format: {
      type: 'string',
      value: 'format',
      choices: ['jsonl', 'csv'],
      default: 'jsonl',
      summary: 'The format.',
    },
    'include-events': { type: 'boolean', summary: "Add each task's workflow events up to the snapshot." },
    'question-id': filter('math: tasks of this question.'),
    'run-id': filter('math: tasks of this run.'),
    'reviewer-id': filter('math: tasks of this reviewer (a member id, or "unassigned").'),
    'client-id': filter('math: tasks of this client (an id, or "unassigned").'),
    'review-state': filter('math: tasks in this review state.'),
    decision: filter('math: tasks with this decision.'),
    q: filter('math: a literal substring of task id, title or problem.'),
    surface: filter('math: all (default), archive, release or evaluations.'),
    sort: filter('math: updated (default), oldest or topic.'),
    search: filter('genomics: a literal substring of uid, title or category.'),
    disposition: filter('genomics: ACTIVE, REJECTED, DISCARDED or TIMED_OUT.'),
  },
  positionals: [],
  run: async (ctx, input): Promise<void> => (await import('../handlers/exportTasks')).exportTasks(ctx, input),
});
