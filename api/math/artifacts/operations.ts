import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { serveVerifiedFile } from '../files/download';
import { downloadHeaders } from '../files/headers';
import { heldTransferSlot, transferLease, transferRefusal } from '../files/transfers';
import { findVisibleTask } from '../tasks/queries';
import { taskParams } from '../tasks/schemas';
import { presentRunPaths, presentTaskPaths } from './presenters';
import {
  findDownloadableArtifact,
  findTaskReportPath,
  listRunPaths,
  reviewerReportAccess,
  sharedReportRefusal,
} from './queries';
import { artifactParams, runParams, runPathsSchema, taskPathsSchema } from './schemas';

export const downloadArtifact = defineOperation({
  operationId: 'math.downloadArtifact',
  summary:
    'Download an artifact; its size and SHA-256 are verified before any byte is sent. Reviewers: only their mapped reports, assigned to every task sharing it.',
  method: 'GET',
  path: '/api/math/artifacts/:artifact_id/download',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:read'],
  idempotency: 'none',
  request: { params: artifactParams, headers: downloadHeaders },
  response: {
    status: 200,
    // Served with the media type the bundle recorded (text/markdown, application/gzip, application/json, …).
    contentType: '*/*',
    description: 'The verified bytes, with the recorded media type, length, ETag (SHA-256) and file name.',
  },
  errors: [403, 404, 429, 502, 503],
  async handler({ params, headers, principal, deps, http }) {
    // A revalidation (If-None-Match) may answer 304 and takes no slot; any other request takes it in the lookup.
    const lease = headers['if-none-match']
      ? undefined
      : transferLease(deps, principal, 'download', 'math.downloadArtifact');
    const artifact = await findDownloadableArtifact(deps.dataSource, principal, params.artifact_id, lease);
    if (lease && !artifact.lease_taken) throw transferRefusal(deps, principal);
    return serveVerifiedFile(
      {
        deps,
        principal,
        http,
        ifNoneMatch: headers['if-none-match'],
        operationId: 'math.downloadArtifact',
        slot: lease ? heldTransferSlot(deps, lease.leaseId) : undefined,
      },
      {
        subjectType: 'artifact',
        subjectId: artifact.artifact_id,
        label: `Artifact ${artifact.artifact_id}`,
        objectKey: artifact.object_key,
        sizeBytes: Number(artifact.size_bytes),
        sha256: artifact.sha256,
        mediaType: artifact.media_type,
        filename: artifact.filename,
      },
    );
  },
});

export const getTaskPaths = defineOperation({
  operationId: 'math.getTaskPaths',
  summary:
    "Source and imported identifiers of the task's current primary report, with its download URL. Reviewers must be assigned to every task sharing the report.",
  method: 'GET',
  path: '/api/math/tasks/:task_id/paths',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['paths:read'],
  idempotency: 'none',
  request: { params: taskParams },
  response: { status: 200, schema: taskPathsSchema, description: "The task's report path." },
  errors: [403, 404],
  async handler({ params, principal, deps }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    const path = task.report_id ? await findTaskReportPath(deps.dataSource, task.report_id) : null;
    if (!path) throw problems.notFound(`A permitted report path of task ${task.task_id}`);
    if (principal.role === 'REVIEWER') {
      const access = await reviewerReportAccess(deps.dataSource, principal, path.artifact_id);
      if (access !== 'allowed') throw sharedReportRefusal(`The report of task ${task.task_id}`);
    }
    return { body: presentTaskPaths(task, path) };
  },
});

export const getRunPaths = defineOperation({
  operationId: 'math.getRunPaths',
  summary: 'Storage paths of a run’s artifacts, excluding PRIVATE and PROVENANCE ones.',
  method: 'GET',
  path: '/api/math/runs/:run_id/paths',
  minRole: 'OWNER',
  scopes: ['paths:read'],
  idempotency: 'none',
  request: { params: runParams },
  response: { status: 200, schema: runPathsSchema, description: 'The permitted paths of the run.' },
  errors: [404],
  async handler({ params, deps }) {
    const rows = await listRunPaths(deps.dataSource, params.run_id);
    if (rows.length === 0) throw problems.notFound(`A permitted path of run ${params.run_id}`);
    return { body: presentRunPaths(params.run_id, rows) };
  },
});

export const artifactOperations = [downloadArtifact, getTaskPaths, getRunPaths];
