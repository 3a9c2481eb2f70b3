import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../rest';
import { useShortcuts } from '../keyboard';
import { linkProps, navigate } from '../router';
import { label, ProblemNote, StateBadge, useAsync } from '../ui';
import { DISPOSITIONS, type TopicList as TopicPage } from './types';

const PAGE_SIZE = 25;

/**
 * Topics, one cursor page at a time (GET /api/v1/topics with `afterBatch`/`afterTopic`). The cursor and the
 * filters live in the URL, so the browser's Back returns to the previous page.
 */
export function TopicList({ query }: { query: URLSearchParams }) {
  const queryText = query.toString();
  const list = useAsync(
    () =>
      getJson<TopicPage>('/api/v1/topics', {
        limit: PAGE_SIZE,
        search: query.get('search'),
        disposition: query.get('disposition'),
        afterBatch: query.get('afterBatch'),
        afterTopic: query.get('afterTopic'),
      }),
    [queryText],
  );
  const [selected, setSelected] = useState(0);
  useEffect(() => setSelected(0), [queryText]);
  const items = list.data?.items ?? [];
  const go = (params: Record<string, string | null>) => {
    const next = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value) next.set(name, value);
    const text = next.toString();
    navigate(text ? `/genomics?${text}` : '/genomics');
  };
  const filters = { search: query.get('search'), disposition: query.get('disposition') };
  const nextPage = () => {
    const cursor = list.data?.next;
    if (cursor) go({ ...filters, afterBatch: cursor.batch, afterTopic: String(cursor.topic) });
  };
  const open = (index: number) => {
    const topic = items[index];
    if (topic) navigate(`/genomics/topics/${encodeURIComponent(topic.uid)}`);
  };
  useShortcuts([
    {
      key: 'j',
      label: 'Next topic in the list',
      run: () => setSelected((s) => Math.min(s + 1, items.length - 1)),
    },
    { key: 'k', label: 'Previous topic in the list', run: () => setSelected((s) => Math.max(s - 1, 0)) },
    { key: 'o', label: 'Open the selected topic', run: () => open(selected), enabled: items.length > 0 },
    { key: 'Enter', label: 'Open the selected topic', run: () => open(selected), enabled: items.length > 0 },
    { key: ']', label: 'Next page', run: nextPage, enabled: Boolean(list.data?.next) },
    { key: '/', label: 'Search', run: () => document.getElementById('topics-search')?.focus() },
  ]);

  const onFilter = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    go({
      search: (form.get('search') as string) || null,
      disposition: (form.get('disposition') as string) || null,
    });
  };

  return (
    <section aria-labelledby="topics-title">
      <h1 id="topics-title">Topics</h1>
      <form class="filters" onSubmit={onFilter} key={queryText} aria-label="Filter topics">
        <label>
          Search
          <input
            id="topics-search"
            name="search"
            type="search"
            maxLength={200}
            defaultValue={filters.search ?? ''}
          />
        </label>
        <label>
          Disposition
          <select name="disposition">
            <option value="">any</option>
            {DISPOSITIONS.map((d) => (
              <option key={d} value={d} selected={filters.disposition === d}>
                {label(d)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Apply</button>
      </form>
      {list.error && <ProblemNote error={list.error} />}
      <table class="list" aria-label="Topics" aria-busy={list.loading}>
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col">Title</th>
            <th scope="col">Category</th>
            <th scope="col">Workflow</th>
            <th scope="col">Decision</th>
            <th scope="col">Disposition</th>
          </tr>
        </thead>
        <tbody>
          {items.map((t, index) => (
            <tr
              key={t.uid}
              data-uid={t.uid}
              class={index === selected ? 'selected' : ''}
              aria-selected={index === selected}
              onClick={() => setSelected(index)}
            >
              <td>
                <a {...linkProps(`/genomics/topics/${encodeURIComponent(t.uid)}`)}>{t.uid}</a>
              </td>
              <td>{t.title ?? '—'}</td>
              <td>{t.category ?? '—'}</td>
              <td>{label(t.workflow_status)}</td>
              <td>
                <StateBadge value={t.decision} />
                {t.requires_re_review && <span class="badge">re-review</span>}
              </td>
              <td>
                <StateBadge value={t.disposition} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data && items.length === 0 && <p class="muted">No topic matches.</p>}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={!query.get('afterBatch')} onClick={() => go(filters)}>
          First page
        </button>
        <button type="button" disabled={!list.data?.next} onClick={nextPage}>
          Next page
        </button>
      </nav>
      <p class="hint muted">
        <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>o</kbd> opens, <kbd>?</kbd> lists every shortcut.
      </p>
    </section>
  );
}
