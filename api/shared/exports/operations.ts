import { AbortMultipartUploadCommand, DeleteObjectCommand } from '@aws-sdk/client-s3';
import Joi from 'joi';
import { withStatementDeadline } from '../../../entities/poolDeadlines';
import {
  fetchVerifiedObject,
  StoredObjectMismatchError,
  StoredObjectMissingError,
} from '../../../storage/verifiedDownload';
import type { Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
import { ApiError, problemOf, problems } from '../../kernel/errors';
import { defineOperation, type Operation } from '../../kernel/operation';
import { mapTemporalError } from '../../kernel/temporal';
import type { SqlQuery } from '../sql';
import { SHARED_PROBLEM_TYPES } from '../problems';
import {
  deleteExport,
  EXPORT_LIST_LIMIT,
  type ExportRecord,
  findOwnExport,
  insertExportWithSnapshot,
  listOwnExports,
  lockAndCountRunning,
} from './queries';
import {
  createExportBody,
  type ExportCasing,
  exportSchemaOf,
  fieldName,
  presentExport,
  readExportBody,
  shownState,
} from './schemas';

/*
 * Exports of a service's task list (docs/exports.md), declared once for both services. Each passes what its
 * contract does differently: path prefix, spelling, id rule, the list's filters and how a snapshot of the list is
 * selected, and how its export workflow is named.
 */

/** What the retry of a refused export is told to wait: exports take a while, so not the two seconds of files. */
export const EXPORT_RETRY_AFTER_SECONDS = 30;

export interface ExportConventions<F> {
  service: 'math' | 'genomics';
  /** Where the service's paths start (`/api/math`, `/api/v1`). */
  pathPrefix: string;
  casing: ExportCasing;
  idempotency: 'optional' | 'required';
  /** The service's rule for a decimal id (an export's). */
  decimalId: () => Joi.StringSchema;
  /** The task list's filters (and order), as its query validates them: unknown ones are refused. */
  filters: Joi.ObjectSchema<F>;
  /** The list item's fields, in the presenter's order: the CSV columns. */
  columns: string[];
  /**
   * The rows the task list returns for this caller and these filters, in the list's order: `ordinal` (from 1),
   * `task_key`, `row_version` (what bounds its events) and `item` (the list item as JSON).
   */
  snapshot(principal: Principal, filters: F): SqlQuery;
  /** The export workflow: its registered name, id and the summary the Temporal UI lists. */
  workflow: {
    type: string;
    id(exportId: string): string;
    summary(exportId: string, rows: number, format: string): string;
  };
  createExample: { name: string; summary: string; value: Record<string, unknown> };
}

const exportProblem = (code: keyof typeof SHARED_PROBLEM_TYPES, detail: string, extras = {}) =>
  problemOf(SHARED_PROBLEM_TYPES, code, detail, extras);

export function exportOperationsOf<F>(c: ExportConventions<F>): Operation[] {
  const exportSchema = exportSchemaOf(c.casing);
  const idName = fieldName(c.casing, 'export_id');
  const params = { [idName]: c.decimalId().required() } as Record<string, Joi.Schema>;
  const paramsSchema = Joi.object<Record<string, string>>(params);
  const base = `${c.pathPrefix}/exports`;
  const one = `${base}/:${idName}`;
  // Reviewer*: what a Reviewer exports and lists holds only their assigned tasks. One export by id is its
  // creator's alone, whatever the role, so those operations are not Reviewer*-scoped: another's export is a 404.
  const ofOwnExport: Pick<Operation, 'minRole' | 'extension'> = { minRole: 'REVIEWER', extension: true };
  const declared: Pick<Operation, 'minRole' | 'reviewerScope' | 'extension'> = {
    ...ofOwnExport,
    reviewerScope: 'assigned-tasks',
  };
  const own = async (deps: AppDeps, principal: Principal, id: string): Promise<ExportRecord> => {
    const exp = await findOwnExport(deps.dataSource, c.service, principal.member.id, id);
    if (!exp) throw problems.notFound(`Export ${id}`);
    return exp;
  };

  const createExport = defineOperation<Record<string, never>, Record<string, never>, Record<string, unknown>>(
    {
      ...declared,
      operationId: `${c.service}.createExport`,
      summary:
        'Start an export of the task list with these filters: one snapshot of what the list returns now, with the ' +
        'caller’s visibility, written to one verified file by a durable workflow.',
      method: 'POST',
      path: base,
      scopes: ['read'],
      idempotency: c.idempotency,
      request: { body: createExportBody(c.casing, c.filters) },
      examples: {
        [c.createExample.name]: { summary: c.createExample.summary, value: c.createExample.value },
      },
      response: {
        status: 202,
        schema: exportSchema,
        description: 'The export, running: its snapshot is taken and counted.',
      },
      errors: [400, 'export_limit', 503],
      async handler({ body, principal, deps, transaction }) {
        const input = readExportBody(c.casing, body);
        const limits = deps.config.exports;
        return transaction(async (tx) => {
          const running = await lockAndCountRunning(tx, principal.member.id);
          if (running.member >= limits.maxRunningPerMember || running.all >= limits.maxRunning) {
            const mine = running.member >= limits.maxRunningPerMember;
            throw exportProblem(
              'export_limit',
              mine
                ? `You already have ${running.member} exports running (at most ${limits.maxRunningPerMember}); retry when one has finished.`
                : `${running.all} exports are running (at most ${limits.maxRunning}); retry shortly.`,
              { headers: { 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) } },
            );
          }
          const exp = await withStatementDeadline(tx, limits.snapshotTimeoutMs, () =>
            insertExportWithSnapshot(
              tx,
              {
                service: c.service,
                memberId: principal.member.id,
                format: input.format,
                includeEvents: input.includeEvents,
                filters: input.filters,
                columns: input.includeEvents ? [...c.columns, 'events'] : c.columns,
                retentionMs: limits.retentionMs,
              },
              c.snapshot(principal, input.filters as F),
            ),
          );
          // Started before the commit: if Temporal cannot take it, nothing is kept (503); the workflow's first
          // activity retries until the commit is visible.
          await startExportWorkflow(deps, c, exp);
          return { status: 202, body: presentExport(c.casing, exp) };
        });
      },
    },
  );

  const listExports = defineOperation({
    ...declared,
    operationId: `${c.service}.listExports`,
    summary: `The caller’s exports, newest first (at most ${EXPORT_LIST_LIMIT}).`,
    method: 'GET',
    path: base,
    scopes: ['read'],
    idempotency: 'none',
    request: {},
    response: {
      status: 200,
      schema: Joi.object({ items: Joi.array().items(exportSchema).max(EXPORT_LIST_LIMIT).required() }),
      description: 'Exports.',
    },
    async handler({ principal, deps }) {
      const rows = await listOwnExports(deps.dataSource, c.service, principal.member.id);
      return { body: { items: rows.map((exp) => presentExport(c.casing, exp)) } };
    },
  });

  const getExport = defineOperation<Record<string, string>>({
    ...ofOwnExport,
    operationId: `${c.service}.getExport`,
    summary:
      'One of the caller’s exports: state, rows written of the snapshot’s, and size and SHA-256 when done.',
    method: 'GET',
    path: one,
    scopes: ['read'],
    idempotency: 'none',
    request: { params: paramsSchema },
    response: { status: 200, schema: exportSchema, description: 'The export.' },
    errors: [404],
    async handler({ params, principal, deps }) {
      return { body: presentExport(c.casing, await own(deps, principal, params[idName])) };
    },
  });

  const downloadExport = defineOperation<Record<string, string>>({
    ...ofOwnExport,
    operationId: `${c.service}.downloadExport`,
    summary: 'Download a finished export; its size and SHA-256 are verified before any byte is sent.',
    method: 'GET',
    path: `${one}/download`,
    scopes: ['files:read'],
    idempotency: 'none',
    request: { params: paramsSchema },
    response: {
      status: 200,
      contentType: '*/*',
      description:
        'The verified file (`application/x-ndjson` or `text/csv`), with its length, ETag and Repr-Digest (SHA-256).',
    },
    errors: [404, 'export_not_ready', 'export_expired', 502, 503],
    async handler({ params, principal, deps, http }) {
      const exp = await own(deps, principal, params[idName]);
      const state = shownState(exp);
      if (state === 'EXPIRED')
        throw exportProblem(
          'export_expired',
          `Export ${exp.id} expired at ${exp.expires_at.toISOString()}; start a new export.`,
        );
      if (state !== 'SUCCEEDED' || exp.sha256 === null || exp.size_bytes === null)
        throw exportProblem(
          'export_not_ready',
          `Export ${exp.id} is ${state}: ${exp.rows_written} of ${exp.rows_in_snapshot} rows written.`,
          { extensions: { state } },
        );
      const clientGone = new AbortController();
      const onClose = () => {
        if (!http.response.writableFinished) clientGone.abort();
      };
      http.response.once('close', onClose);
      try {
        const verified = await fetchVerifiedObject(
          deps.s3,
          deps.config.s3.bucket,
          { key: exp.object_key, sizeBytes: Number(exp.size_bytes), sha256: exp.sha256 },
          { signal: clientGone.signal },
        );
        return {
          status: 200,
          body: verified.open(),
          headers: {
            'Content-Type': exp.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
            'Content-Length': exp.size_bytes,
            ETag: `"${exp.sha256}"`,
            'Repr-Digest': `sha-256=:${Buffer.from(exp.sha256, 'hex').toString('base64')}:`,
            'Content-Disposition': `attachment; filename="${c.service}-export-${exp.id}.${exp.format}"`,
            'Cache-Control': 'private, no-cache',
            'X-Content-Type-Options': 'nosniff',
          },
        };
      } catch (error) {
        throw downloadProblem(deps, exp, error);
      } finally {
        http.response.off('close', onClose);
      }
    },
  });

  const removeExport = defineOperation<Record<string, string>>({
    ...ofOwnExport,
    operationId: `${c.service}.deleteExport`,
    summary: 'Delete one of the caller’s exports: a running one is cancelled, its file removed.',
    method: 'DELETE',
    path: one,
    scopes: ['read'],
    idempotency: 'none',
    request: { params: paramsSchema },
    response: { status: 204, description: 'Deleted.' },
    errors: [404],
    async handler({ params, principal, deps }) {
      const exp = await own(deps, principal, params[idName]);
      const removed = await deps.dataSource.transaction((tx) => deleteExport(tx, exp.id));
      if (!removed) throw problems.notFound(`Export ${exp.id}`);
      if (exp.state === 'RUNNING') await cancelExportWorkflow(deps, c.workflow.id(exp.id));
      await removeObjects(deps, removed);
      return { status: 204 };
    },
  });

  return [createExport, listExports, getExport, downloadExport, removeExport];
}

async function startExportWorkflow<F>(deps: AppDeps, c: ExportConventions<F>, exp: ExportRecord) {
  const client = deps.temporal.client;
  try {
    await client.withDeadline(Date.now() + deps.config.temporal.callTimeoutMs, () =>
      client.workflow.start(c.workflow.type, {
        workflowId: c.workflow.id(exp.id),
        taskQueue: deps.config.temporal.taskQueue,
        args: [{ exportId: exp.id }],
        workflowIdConflictPolicy: 'FAIL',
        staticSummary: c.workflow.summary(exp.id, exp.rows_in_snapshot, exp.format),
        staticDetails: `Filters: ${JSON.stringify(exp.filters)}; events: ${exp.include_events ? 'yes' : 'no'}.`,
      }),
    );
  } catch (error) {
    const mapped = mapTemporalError(error, () => problems.internal());
    throw mapped instanceof ApiError ? mapped : problems.unavailable('temporal');
  }
}

/** Cancels a running export's workflow; one already closed (or never started) is left as it is. */
async function cancelExportWorkflow(deps: AppDeps, workflowId: string): Promise<void> {
  const client = deps.temporal.client;
  try {
    await client.withDeadline(Date.now() + deps.config.temporal.callTimeoutMs, () =>
      client.workflow.getHandle(workflowId).cancel(),
    );
  } catch (error) {
    deps.logger.warn(
      { err: error, workflowId },
      'export workflow not cancelled; its activity finds it deleted',
    );
  }
}

/** Removes a deleted export's object and unfinished upload; a failure is logged (the bucket's lifecycle is the backstop). */
async function removeObjects(deps: AppDeps, removed: { object_key: string; upload_id: string | null }) {
  const Bucket = deps.config.s3.bucket;
  try {
    if (removed.upload_id) {
      await deps.s3
        .send(
          new AbortMultipartUploadCommand({ Bucket, Key: removed.object_key, UploadId: removed.upload_id }),
        )
        .catch(() => undefined);
    }
    await deps.s3.send(new DeleteObjectCommand({ Bucket, Key: removed.object_key }));
  } catch (error) {
    deps.logger.warn({ err: error, key: removed.object_key }, 'deleted export’s object not removed from S3');
  }
}

function downloadProblem(deps: AppDeps, exp: ExportRecord, error: unknown): ApiError {
  if (error instanceof StoredObjectMissingError || error instanceof StoredObjectMismatchError) {
    const missing = error instanceof StoredObjectMissingError;
    deps.metrics.downloadRefused(missing ? 'missing' : 'mismatch');
    deps.logger.error(
      { export: exp.id, key: exp.object_key, err: error.message },
      'export file failed verification',
    );
    return problems.storedObjectInvalid(
      missing ? 'stored_object_missing' : 'stored_object_mismatch',
      `The file of export ${exp.id} ${missing ? 'is missing from storage' : 'does not match its recorded size and SHA-256'}; no byte was served. Start a new export.`,
    );
  }
  if (error instanceof ApiError) return error;
  if ((error as Error)?.name === 'AbortError')
    return problems.badRequest('client_closed_request', 'The client closed the request.');
  deps.logger.warn({ err: error, key: exp.object_key }, 'object storage read failed');
  return problems.unavailable('object storage');
}
