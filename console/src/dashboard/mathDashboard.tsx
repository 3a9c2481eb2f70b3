import { useCallback } from 'preact/hooks';
import type { MathResponse } from '../contract/types';
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

type Analytics = MathResponse<'/api/math/analytics'>;
type ReviewerAnalytics = MathResponse<'/api/math/analytics/reviewers'>;
type Monitor = MathResponse<'/api/math/monitor'>;

/** The three answers the page is drawn from; the names are the `data-source` of every figure it shows. */
export const MATH_DASHBOARD_SOURCES = {
  analytics: '/api/math/analytics',
  reviewers: '/api/math/analytics/reviewers',
  monitor: '/api/math/monitor',
} as const;

/**
 * The math dashboard: review states and decisions, the action trend over the chosen window, workload and
 * turnaround per reviewer, the ageing of assigned work and the freshness of imports, all from the API's answers
 * over the caller's visible tasks (a Reviewer: their own).
 */
export function MathDashboard({ query }: { query: URLSearchParams }) {
  const session = useSession();
  const days = windowOf(query);
  const data = useAsync(
    () =>
      Promise.all([
        getJson<Analytics>(MATH_DASHBOARD_SOURCES.analytics, { days }),
        getJson<ReviewerAnalytics>(MATH_DASHBOARD_SOURCES.reviewers, { days }),
        getJson<Monitor>(MATH_DASHBOARD_SOURCES.monitor),
      ]),
    [days],
  );
  usePolling(useCallback(() => data.reload(), [data.reload]));
  return (
    <div class="dashboard">
      <h1>Math dashboard</h1>
      <p class="muted" data-testid="scope">
        {isOperator(session) ? 'Every task of the service.' : 'The tasks assigned to you.'} Refreshed every
        minute.
      </p>
      <WindowChooser path="/math/dashboard" days={days} />
      {data.error && <ProblemNote error={data.error} />}
      {!data.data && !data.error && <p class="muted">Loading…</p>}
      {data.data && <MathFigures days={days} answers={data.data} />}
    </div>
  );
}

function MathFigures({
  days,
  answers: [analytics, reviewers, monitor],
}: {
  days: number;
  answers: [Analytics, ReviewerAnalytics, Monitor];
}) {
  const workload = new Map(analytics.workload.map((w, i) => [w.reviewer_id, i]));
  const workloadColumn = (title: string, field: 'assigned' | 'in_review' | 'completed') => ({
    title,
    cell: (r: { reviewer_id: string }) => {
      const i = workload.get(r.reviewer_id);
      return i === undefined
        ? null
        : { source: 'analytics', path: `workload.${i}.${field}`, value: analytics.workload[i][field] };
    },
  });
  const f = monitor.freshness;
  return (
    <>
      <div class="dashboard-grid">
        <CountsFigure
          id="states"
          title="Review states"
          source="analytics"
          path="review_status.review_states"
          counts={analytics.review_status.review_states}
        />
        <CountsFigure
          id="decisions"
          title="Decisions"
          source="analytics"
          path="review_status.decisions"
          counts={analytics.review_status.decisions}
        />
      </div>
      <TrendFigure
        source="analytics"
        path="trend.points"
        days={days}
        points={analytics.trend.points}
        series={[
          { field: 'actions', label: 'actions' },
          { field: 'feedback', label: 'feedback' },
          { field: 'verdicts', label: 'verdicts' },
        ]}
      />
      <TurnaroundFigure
        source="reviewers"
        days={days}
        reviewers={reviewers.reviewers}
        extraColumns={[
          workloadColumn('Assigned', 'assigned'),
          workloadColumn('In review', 'in_review'),
          workloadColumn('Completed', 'completed'),
        ]}
      />
      <div class="dashboard-grid">
        <AgeingFigure source="reviewers" path="ageing" ageing={reviewers.ageing} />
        <Freshness
          source="monitor"
          path="freshness"
          rows={[
            {
              field: 'latest_import_finished_at',
              label: 'Last import finished',
              value: f.latest_import_finished_at,
            },
            { field: 'latest_import_status', label: 'Its outcome', value: f.latest_import_status },
            { field: 'latest_run_id', label: 'Newest run', value: f.latest_run_id },
            {
              field: 'latest_run_imported_at',
              label: 'Newest run imported',
              value: f.latest_run_imported_at,
            },
            {
              field: 'latest_task_imported_at',
              label: 'Newest task imported',
              value: f.latest_task_imported_at,
            },
            { field: 'latest_task_updated_at', label: 'Last task change', value: f.latest_task_updated_at },
          ]}
        />
      </div>
    </>
  );
}
