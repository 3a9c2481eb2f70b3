import { useCallback } from 'preact/hooks';
import type { GenomicsResponse } from '../contract/types';
import { getJson } from '../rest';
import { isOperator, ProblemNote, useAsync, useSession } from '../ui';
import { windowOf } from './charts';
import {
  AgeingFigure,
  CountsFigure,
  Freshness,
  TrendFigure,
  TurnaroundFigure,
  usePolling,
  WindowChooser,
} from './parts';

type Analytics = GenomicsResponse<'/api/v1/analytics'>;

/** The answer the page is drawn from; the name is the `data-source` of every figure it shows. */
export const GENOMICS_DASHBOARD_SOURCES = { analytics: '/api/v1/analytics' } as const;

/**
 * The genomics dashboard: topic states, decisions and dispositions, the event trend over the chosen window,
 * open work and turnaround per reviewer, ageing and freshness, from `GET /api/v1/analytics` over the topics
 * `GET /api/v1/tasks` shows the caller.
 */
export function GenomicsDashboard({ query }: { query: URLSearchParams }) {
  const session = useSession();
  const days = windowOf(query);
  const data = useAsync(() => getJson<Analytics>(GENOMICS_DASHBOARD_SOURCES.analytics, { days }), [days]);
  usePolling(useCallback(() => data.reload(), [data.reload]));
  const a = data.data;
  return (
    <div class="dashboard">
      <h1>Genomics dashboard</h1>
      <p class="muted" data-testid="scope">
        {isOperator(session)
          ? 'Every topic of the workspace.'
          : 'The topics you are the reviewer of or hold an open or submitted assignment on.'}{' '}
        Refreshed every minute.
      </p>
      <WindowChooser path="/genomics/dashboard" days={days} />
      {data.error && <ProblemNote error={data.error} />}
      {!a && !data.error && <p class="muted">Loading…</p>}
      {a && (
        <>
          <div class="dashboard-grid three">
            <CountsFigure
              id="states"
              title="Workflow status"
              source="analytics"
              path="topics.workflow_statuses"
              counts={a.topics.workflow_statuses}
            />
            <CountsFigure
              id="decisions"
              title="Decisions"
              source="analytics"
              path="topics.decisions"
              counts={a.topics.decisions}
            />
            <CountsFigure
              id="dispositions"
              title="Dispositions"
              source="analytics"
              path="topics.dispositions"
              counts={a.topics.dispositions}
            />
          </div>
          <TrendFigure
            source="analytics"
            path="trend"
            days={days}
            points={a.trend}
            series={[
              { field: 'events', label: 'events' },
              { field: 'reviews', label: 'reviews' },
              { field: 'comments', label: 'comments' },
            ]}
          />
          <TurnaroundFigure source="analytics" days={days} reviewers={a.reviewers} />
          <div class="dashboard-grid">
            <AgeingFigure source="analytics" path="ageing" ageing={a.ageing} />
            <Freshness
              source="analytics"
              path="freshness"
              rows={[
                {
                  field: 'latest_import_finished_at',
                  label: 'Last import finished',
                  value: a.freshness.latest_import_finished_at,
                },
                {
                  field: 'latest_import_status',
                  label: 'Its outcome',
                  value: a.freshness.latest_import_status,
                },
                {
                  field: 'latest_topic_created_at',
                  label: 'Newest topic',
                  value: a.freshness.latest_topic_created_at,
                },
                {
                  field: 'latest_topic_updated_at',
                  label: 'Last topic change',
                  value: a.freshness.latest_topic_updated_at,
                },
              ]}
            />
          </div>
        </>
      )}
    </div>
  );
}
