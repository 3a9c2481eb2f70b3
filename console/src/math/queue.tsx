import { useEffect, useRef, useState } from 'preact/hooks';
import { download, getJson, IntentKey, sha256Hex, writeJson } from '../rest';
import { useShortcuts } from '../keyboard';
import { linkProps, navigate } from '../router';
import {
  formatTime,
  isOperator,
  label,
  Notice,
  ProblemNote,
  StateBadge,
  takeFlash,
  useAsync,
  useSession,
} from '../ui';
import { rememberStream } from './stream';
import { DECISIONS, REVIEW_STATES, type Reviewer, type TaskPage } from './types';

const FILTERS = ['q', 'review_state', 'decision', 'reviewer_id', 'surface', 'sort', 'page_size'] as const;
const SURFACES = ['all', 'evaluations', 'archive', 'release'];
const SORTS = ['updated', 'oldest', 'topic'];

/**
 * The task queue: one page of GET /api/math/tasks at a time, with the counts of the whole filtered result.
 * A Reviewer's list is what the API shows them (their assigned tasks); Owners and Admins filter, search and
 * sort with the API's own parameters, kept in the URL.
 */
export function MathQueue({ query }: { query: URLSearchParams }) {
  const session = useSession();
  const operator = isOperator(session);
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const apiQuery: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) apiQuery[name] = value;
  }
  const queryText = query.toString();
  const list = useAsync(() => getJson<TaskPage>('/api/math/tasks', { ...apiQuery, page }), [queryText]);
  const reviewers = useAsync(
    () =>
      operator
        ? getJson<{ reviewers: Reviewer[] }>('/api/reviewers').then((r) => r.reviewers)
        : Promise.resolve([]),
    [operator],
  );
  const [selected, setSelected] = useState(0);
  const [notice] = useState(takeFlash);
  const rows = useRef<HTMLTableSectionElement>(null);

  useEffect(() => {
    if (list.data) {
      rememberStream(query, list.data);
      setSelected((s) => Math.min(s, Math.max(0, list.data!.items.length - 1)));
    }
  }, [list.data]);
  useEffect(() => {
    rows.current
      ?.querySelector<HTMLElement>(`[data-index="${selected}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const items = list.data?.items ?? [];
  const names = new Map((reviewers.data ?? []).map((r) => [r.id, r.display_name]));
  names.set(session.memberId, `${session.name} (you)`);
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.page_size ?? 25;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    if (!('page' in changes)) next.delete('page');
    const text = next.toString();
    navigate(text ? `/math?${text}` : '/math');
  };
  const open = (index: number) => {
    const task = items[index];
    if (task) navigate(`/math/tasks/${encodeURIComponent(task.task_id)}`);
  };

  useShortcuts([
    {
      key: 'j',
      label: 'Next task in the list',
      run: () => setSelected((s) => Math.min(s + 1, items.length - 1)),
    },
    { key: 'k', label: 'Previous task in the list', run: () => setSelected((s) => Math.max(s - 1, 0)) },
    { key: 'o', label: 'Open the selected task', run: () => open(selected), enabled: items.length > 0 },
    { key: 'Enter', label: 'Open the selected task', run: () => open(selected), enabled: items.length > 0 },
    { key: ']', label: 'Next page', run: () => go({ page: String(page + 1) }), enabled: page < lastPage },
    { key: '[', label: 'Previous page', run: () => go({ page: String(page - 1) }), enabled: page > 1 },
    {
      key: '/',
      label: 'Search',
      run: () => document.getElementById('queue-q')?.focus(),
    },
  ]);

  const onFilter = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const changes: Record<string, string | null> = {};
    for (const name of FILTERS) changes[name] = (form.get(name) as string | null) || null;
    go(changes);
  };

  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">{operator ? 'Tasks' : 'My queue'}</h1>
      <form class="filters" onSubmit={onFilter} key={queryText} aria-label="Filter tasks">
        <label>
          Search
          <input id="queue-q" name="q" type="search" defaultValue={query.get('q') ?? ''} maxLength={200} />
        </label>
        <Select
          name="review_state"
          label="Review state"
          options={REVIEW_STATES}
          value={query.get('review_state')}
        />
        <Select name="decision" label="Decision" options={DECISIONS} value={query.get('decision')} />
        {operator && (
          <label>
            Reviewer
            <select name="reviewer_id">
              <option value="">any</option>
              <option value="unassigned" selected={query.get('reviewer_id') === 'unassigned'}>
                unassigned
              </option>
              <option value={session.memberId} selected={query.get('reviewer_id') === session.memberId}>
                me
              </option>
              {(reviewers.data ?? []).map((r) => (
                <option key={r.id} value={r.id} selected={query.get('reviewer_id') === r.id}>
                  {r.display_name}
                  {r.enabled ? '' : ' (disabled)'}
                </option>
              ))}
            </select>
          </label>
        )}
        <Select
          name="surface"
          label="Surface"
          options={SURFACES}
          value={query.get('surface')}
          blank="all (default)"
        />
        <Select
          name="sort"
          label="Sort"
          options={SORTS}
          value={query.get('sort')}
          blank="updated (default)"
        />
        <button type="submit">Apply</button>
      </form>
      <ExportButton filters={apiQuery} />
      <Notice text={notice} />
      {list.error && <ProblemNote error={list.error} />}
      {list.data && (
        <p class="counts" data-testid="counts" aria-live="polite">
          <strong>{total}</strong> tasks ·{' '}
          {REVIEW_STATES.map((s) => `${label(s)} ${list.data!.counts.review_states[s] ?? 0}`).join(' · ')} ·{' '}
          {DECISIONS.map((d) => `${label(d)} ${list.data!.counts.decisions[d] ?? 0}`).join(' · ')} · archived{' '}
          {list.data.counts.archived}
        </p>
      )}
      <table class="list" aria-label="Tasks" aria-busy={list.loading}>
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Title</th>
            <th scope="col">State</th>
            <th scope="col">Decision</th>
            {operator && <th scope="col">Assignee</th>}
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody ref={rows}>
          {items.map((task, index) => (
            <tr
              key={task.task_id}
              data-index={index}
              data-task-id={task.task_id}
              class={index === selected ? 'selected' : ''}
              aria-selected={index === selected}
              onClick={() => setSelected(index)}
            >
              <td>
                <a {...linkProps(`/math/tasks/${encodeURIComponent(task.task_id)}`)}>{task.task_id}</a>
              </td>
              <td>
                {task.title}
                {task.archived && <span class="badge">archived</span>}
              </td>
              <td>
                <StateBadge value={task.review_state} />
              </td>
              <td>
                <StateBadge value={task.decision} />
              </td>
              {operator && (
                <td>
                  {task.assignee_id ? (names.get(task.assignee_id) ?? `member ${task.assignee_id}`) : '—'}
                </td>
              )}
              <td>{formatTime(task.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data && items.length === 0 && <p class="muted">No task matches.</p>}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => go({ page: String(page - 1) })}>
          Previous page
        </button>
        <span>
          Page {page} of {lastPage}
        </span>
        <button type="button" disabled={page >= lastPage} onClick={() => go({ page: String(page + 1) })}>
          Next page
        </button>
      </nav>
      <p class="hint muted">
        <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>o</kbd> opens, <kbd>?</kbd> lists every shortcut.
      </p>
    </section>
  );
}

function Select(props: {
  name: string;
  label: string;
  options: readonly string[];
  value: string | null;
  blank?: string;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">{props.blank ?? 'any'}</option>
        {props.options.map((o) => (
          <option key={o} value={o} selected={o === props.value}>
            {label(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** An export as the math service shows it (docs/exports.md); only what the button reads. */
interface MathExport {
  id: string;
  state: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
  rows_written: number;
  rows_in_snapshot: number;
  size_bytes: number | null;
  sha256: string | null;
  error: string | null;
}

const exportIntent = new IntentKey();

/**
 * Exports the list's current filters (POST /api/math/exports), follows the export, downloads the file and saves it
 * only once its SHA-256 matches the export's.
 */
function ExportButton({ filters }: { filters: Record<string, string> }) {
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { page_size: _pageSize, ...exportFilters } = filters;
      const body = { filters: exportFilters, format: 'jsonl' };
      let exp = await writeJson<MathExport>('POST', '/api/math/exports', body, exportIntent.for(body));
      exportIntent.settled();
      while (exp.state === 'RUNNING') {
        setStatus(`Exporting: ${exp.rows_written} of ${exp.rows_in_snapshot} tasks written…`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        exp = await getJson<MathExport>(`/api/math/exports/${exp.id}`);
      }
      if (exp.state !== 'SUCCEEDED')
        throw new Error(`The export ${exp.state.toLowerCase()}${exp.error ? `: ${exp.error}` : ''}.`);
      const file = await download(`/api/math/exports/${exp.id}/download`);
      const digest = await sha256Hex(await file.blob.arrayBuffer());
      if (digest !== exp.sha256 || file.blob.size !== exp.size_bytes)
        throw new Error('The downloaded file does not match the export’s SHA-256; nothing was saved.');
      const url = URL.createObjectURL(file.blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename ?? `math-export-${exp.id}.jsonl`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setStatus(`Exported ${exp.rows_in_snapshot} tasks (SHA-256 ${digest.slice(0, 12)}… verified).`);
    } catch (error) {
      setStatus(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <p class="export">
      <button type="button" onClick={() => void run()} disabled={busy} data-testid="export-tasks">
        Export these tasks
      </button>{' '}
      {status && (
        <span role="status" data-testid="export-status">
          {status}
        </span>
      )}
    </p>
  );
}
