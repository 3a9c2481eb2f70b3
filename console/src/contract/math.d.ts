/**
 * The Referee math review API, as `paths`/`operations` types for the console and openapi-fetch.
 * Generated from /api/openapi.json by `npm run generate:client`: do not edit.
 */

export interface paths {
  '/api/auth/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Latest 100 identity audit records: key creation and revocation, member sync, failed authentication. `before` (a record id) pages back; `kind` keeps one kind.
     * @description **Access:** role ADMIN or higher; key scopes: `read`.
     */
    get: operations['math.listIdentityAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Effective member role and key scopes of the calling API key.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['math.getSession'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/viewable-users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Dashboard compatibility: users viewable through the session; always empty with an API key.
     * @description **Access:** role ADMIN or higher; key scopes: `read`.
     */
    get: operations['math.listViewableUsers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/bug-reports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The latest 50 bug reports: Reviewers and Owners see their own, Admins all; with screenshot URLs.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['math.listBugReports'];
    put?: never;
    /**
     * Submit a bug report (multipart: description, optional page_path, optional picture PNG/JPEG/WebP up to 8 MiB judged by its bytes).
     * @description **Access:** role REVIEWER or higher; key scopes: `write`, `files:write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.createBugReport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/bug-reports/{report_id}/screenshot': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The verified screenshot of a bug report, for its submitter or an Admin only.
     * @description **Access:** role REVIEWER or higher; key scopes: `files:read`.
     */
    get: operations['math.getBugReportScreenshot'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Dashboard-compatible client summary (no descriptions or archived counts).
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listDashboardClients'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Up to 500 keys, newest first, expired and revoked ones included: own keys, or the workspace’s for an Admin.
     * @description **Access:** role REVIEWER or higher; key scopes: `keys:manage`.
     */
    get: operations['math.listKeys'];
    put?: never;
    /**
     * Create a key; its token is returned once. Defaults: yourself, your role and scopes, 90 days.
     * @description **Access:** role REVIEWER or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     *
     *     A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.
     */
    post: operations['math.createKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/keys/{key_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One key: your own, or any of the workspace’s for an Admin.
     * @description **Access:** role REVIEWER or higher; key scopes: `keys:manage`.
     */
    get: operations['math.getKey'];
    put?: never;
    post?: never;
    /**
     * Revoke a key at once, in every API process; a repeated revocation keeps the first revoked_at.
     * @description **Access:** role REVIEWER or higher; key scopes: `keys:manage`.
     */
    delete: operations['math.revokeKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/keys/{key_id}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Latest 100 events of a key (creation, revocation, write requests); empty for an unavailable key.
     * @description **Access:** role REVIEWER or higher; key scopes: `keys:manage`.
     */
    get: operations['math.listKeyEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Visible task workflow events and client audit events, newest first.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listActivity'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Review states, decisions, workload per reviewer, daily action trend and recent activity.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getAnalytics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/analytics/reviewers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Turnaround per reviewer (assignment to verdict, median and p90) over a window, open work and its ageing.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getReviewerAnalytics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/artifacts/{artifact_id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an artifact; its size and SHA-256 are verified before any byte is sent. Reviewers: only their mapped reports, assigned to every task sharing it.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:read`.
     */
    get: operations['math.downloadArtifact'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Clients by name with task counts; Reviewers see only clients linked to their assigned tasks.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listClients'];
    put?: never;
    /**
     * Create a client; the name is trimmed, 2 to 100 characters, unique ignoring case.
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.createClient'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/clients/{client_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Update a client: all four fields, with the exact current updated_at.
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.updateClient'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/exports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller’s exports, newest first (at most 100).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listExports'];
    put?: never;
    /**
     * Start an export of the task list with these filters: one snapshot of what the list returns now, with the caller’s visibility, written to one verified file by a durable workflow.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.createExport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/exports/{export_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One of the caller’s exports: state, rows written of the snapshot’s, and size and SHA-256 when done.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['math.getExport'];
    put?: never;
    post?: never;
    /**
     * Delete one of the caller’s exports: a running one is cancelled, its file removed.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    delete: operations['math.deleteExport'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/exports/{export_id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a finished export; its size and SHA-256 are verified before any byte is sent.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher; key scopes: `files:read`.
     */
    get: operations['math.downloadExport'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/monitor': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Assignment-scoped task counts and freshness timestamps of the imported data.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getMonitor'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/reports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Task report mappings, including null mappings; mapped_reports counts mappings, not unique objects.
     * @description **Access:** role OWNER or higher; key scopes: `read`.
     */
    get: operations['math.listReports'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * All matching imported runs, newest import first, with their aggregate review status.
     * @description **Access:** role OWNER or higher; key scopes: `read`.
     */
    get: operations['math.listRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/runs/{run_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Run details, its topics, a page of its tasks and of its reports, aggregate review status.
     * @description **Access:** role OWNER or higher; key scopes: `read`.
     */
    get: operations['math.getRun'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/runs/{run_id}/paths': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Storage paths of a run’s artifacts, excluding PRIVATE and PROVENANCE ones.
     * @description **Access:** role OWNER or higher; key scopes: `paths:read`.
     */
    get: operations['math.getRunPaths'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/seeds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tasks grouped by source question id; counts cover only the caller’s visible tasks.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listSeeds'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/seeds/{question_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Seed summary over the caller’s visible tasks.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getSeed'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/seeds/{question_id}/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tasks of a seed; the other task filters apply; archived included by default.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listSeedTasks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tasks, filtered, searched and sorted; archived included by default; counts of the whole result.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listTasks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A task: imported problem, report mapping and compact workflow summary.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getTask'];
    put?: never;
    /**
     * Apply a workflow action (start, feedback, verdict, reopen, assign, client, archive, restore).
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.applyTaskAction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}/attachments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Up to 200 active attachments of a task, newest first.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:read`.
     */
    get: operations['math.listAttachments'];
    put?: never;
    /**
     * Upload a supplementary file as raw bytes (application/octet-stream, 1 byte to 16 MiB); optional X-Filename (percent-encoded UTF-8) and Idempotency-Key.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.uploadAttachment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}/attachments/{attachment_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Metadata of an active attachment.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:read`.
     */
    get: operations['math.getAttachment'];
    put?: never;
    post?: never;
    /**
     * Hide an attachment (its bytes are kept). Reviewers remove only their own uploads while assigned; archived tasks must be restored first.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:write`.
     */
    delete: operations['math.removeAttachment'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}/attachments/{attachment_id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an attachment after task access is rechecked and its bytes match the stored receipt.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:read`.
     */
    get: operations['math.downloadAttachment'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}/notes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Nonempty comments of the task’s workflow events, newest version first; no total.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listTaskNotes'];
    put?: never;
    /**
     * Runs the feedback action: increments the version, may move ASSIGNED to IN_REVIEW.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.addTaskNote'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}/paths': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Source and imported identifiers of the task's current primary report, with its download URL. Reviewers must be assigned to every task sharing the report.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `paths:read`.
     */
    get: operations['math.getTaskPaths'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/tasks/{task_id}/workflow': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Current version, assignment, decision, allowed reviewer and client choices, latest 200 events.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getTaskWorkflow'];
    put?: never;
    /**
     * Apply a workflow action (start, feedback, verdict, reopen, assign, client, archive, restore). (alias of POST /api/math/tasks/:task_id)
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.applyTaskActionWorkflowAlias'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/topics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The latest imported run per topic; q searches titles, topic ids, run ids and problem text.
     * @description **Access:** role OWNER or higher; key scopes: `read`.
     */
    get: operations['math.listTopics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/workflow': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Same response and filters as GET /api/math/tasks; the default surface is `evaluations`.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listWorkflowTasks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/workflow/tasks/{task_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Current version, assignment, decision, allowed reviewer and client choices, latest 200 events. (alias of GET /api/math/tasks/:task_id/workflow)
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.getDashboardTaskWorkflow'];
    put?: never;
    /**
     * Apply a workflow action (start, feedback, verdict, reopen, assign, client, archive, restore). (alias of POST /api/math/tasks/:task_id)
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `write`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.applyDashboardTaskAction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/math/workflow/tasks/{task_id}/evidence': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * JSON projection of the task's rubric, review and quality gate from its report's evidence; parts may be null.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `files:read`.
     */
    get: operations['math.getTaskEvidence'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/reviewers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Reviewer: own member record. Operators: member choices without the primary admin; check `enabled`.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['math.listReviewers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read-only local member projections of the central identity service.
     * @description **Access:** role ADMIN or higher; key scopes: `read`.
     */
    get: operations['math.listUsers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The service’s webhook endpoints (at most 20), oldest first; never a secret.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     */
    get: operations['math.listWebhooks'];
    put?: never;
    /**
     * Register an endpoint for event types; its signing secret is returned this once.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     *
     *     A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.
     */
    post: operations['math.createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhook_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One webhook endpoint.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     */
    get: operations['math.getWebhook'];
    put?: never;
    /**
     * Change URL, description, event types; pause (PAUSED) or resume (ACTIVE, also after a 410 disabled it).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.updateWebhook'];
    /**
     * Delete an endpoint: nothing more is sent to it; its pending deliveries end as FAILED.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     */
    delete: operations['math.deleteWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhook_id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An endpoint’s deliveries, newest first, each with its attempts (status, latency, response excerpt).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     */
    get: operations['math.listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an ended delivery again, with the same webhook-id and a fresh retry schedule.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     */
    post: operations['math.redeliverWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhook_id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A new signing secret (returned this once); the previous one also signs for grace_period_hours (default 24, max 168).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** optional; honoured when sent.
     *
     *     A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.
     */
    post: operations['math.rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'math.task.assigned': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A task was assigned, reassigned or unassigned.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.assigned`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.assigned'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.started': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The assignee started the review.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.started`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.started'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.feedback_added': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Feedback (a note) was added.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.feedback_added`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.feedback_added'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.verdict_recorded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A verdict completed the review: the decision.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.verdict_recorded`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.verdict_recorded'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.reopened': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A completed review was reopened.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.reopened`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.reopened'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.client_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The task’s client was set or cleared.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.client_changed`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.client_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.archived': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The task was archived.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.archived`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.archived'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.restored': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The task was restored from the archive.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.task.restored`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.restored'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.import.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A run import finished (SUCCEEDED, or UNCHANGED when nothing differed).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.import.completed`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.import.completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.import.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A run import failed; `referee status` and the import’s record say why.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.import.failed`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.import.failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.key.revoked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An API key of the service was revoked (API or CLI).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `math.key.revoked`, signed per Standard Webhooks.
     */
    post: operations['webhook.math.key.revoked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'math.task.withdrawn': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A task event sent before was withdrawn: its transition never took effect.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent, whatever its event types, to every endpoint that an attempt of the withdrawn event may have reached; it cannot be subscribed to, signed per Standard Webhooks.
     */
    post: operations['webhook.math.task.withdrawn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /** @description RFC 9457 problem details. `code` is the stable machine-readable reason; `type` links to its explanation. Some problems carry further members (for example `current_version` on a stale version). */
    Problem: {
      /**
       * Format: uri-reference
       * @example /docs/problems#validation_failed
       */
      type: string;
      title: string;
      status: number;
      detail: string;
      code: string;
      /** @description The request path. */
      instance?: string;
      /** @description Validation failures, one per offending field. */
      errors?: {
        /** @example body.version */
        path: string;
        message: string;
      }[];
    };
  };
  responses: {
    /** @description Invalid request. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Missing or invalid credential. */
    Unauthorized: {
      headers: {
        /** @description The expected scheme: `Bearer`. */
        'WWW-Authenticate'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Permission denied: role, key scope, or a task not assigned to the Reviewer. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Not found, or not visible to the caller. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Conflict: a stale version or timestamp, a duplicate, or an Idempotency-Key reused for another request. */
    Conflict: {
      headers: {
        /** @description Sent with `idempotency_request_in_progress` only: seconds to wait before retrying with the same Idempotency-Key. */
        'Retry-After'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Gone. */
    Gone: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Payload too large. */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Unsupported media type. */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Unprocessable request: a referenced client cannot be used. */
    UnprocessableContent: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Too many requests. */
    TooManyRequests: {
      headers: {
        /** @description Seconds to wait before retrying. */
        'Retry-After'?: string;
        /** @description Requests a full bucket allows at once (the burst). */
        'RateLimit-Limit'?: string;
        /** @description Requests still allowed right now. */
        'RateLimit-Remaining'?: string;
        /** @description Seconds until the bucket is full again. */
        'RateLimit-Reset'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description A stored object failed verification (missing, or not the recorded size and SHA-256); nothing is served. */
    BadGateway: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description A dependency is unavailable; retry after `Retry-After` seconds. */
    ServiceUnavailable: {
      headers: {
        /** @description Seconds to wait before retrying. */
        'Retry-After'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
  };
  parameters: {
    /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
    IdempotencyKeyOptional: string;
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  'math.listIdentityAudit': {
    parameters: {
      query?: {
        /** @description Records older than this record id (the last id of the page before). */
        before?: string;
        /** @description Only records of this kind, e.g. `key_created` or `authentication_failed`. */
        kind?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Records newest first, each with an event-specific `detail`: the 100 latest, or the 100 before `before`. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            records: {
              id: string;
              kind: string;
              member_id: string | null;
              /** Format: uuid */
              key_id: string | null;
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getSession': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller, its effective role and its key scopes. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            member: {
              id: string;
              identity_id: string;
              username: string;
              display_name: string;
              email: string | null;
              /** @enum {string} */
              role: 'REVIEWER' | 'OWNER' | 'ADMIN';
              enabled: boolean;
            };
            /** @enum {string} */
            role: 'REVIEWER' | 'OWNER' | 'ADMIN';
            scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
            key: {
              /** Format: uuid */
              id: string;
              /** Format: date-time */
              expires_at: string;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listViewableUsers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An empty `users` list. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            users: unknown[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listBugReports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Bug reports, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            bug_reports: {
              report_id: string;
              submitter_id: string;
              description: string;
              page_path: string | null;
              picture: {
                /** @enum {string} */
                media_type: 'image/png' | 'image/jpeg' | 'image/webp';
                size_bytes: number;
                sha256: string;
              } | null;
              screenshot_url: string | null;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.createBugReport': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': Record<string, never>;
      };
    };
    responses: {
      /** @description The creation receipt. */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            report_id: string;
            page_path: string | null;
            picture: {
              /** @enum {string} */
              media_type: 'image/png' | 'image/jpeg' | 'image/webp';
              size_bytes: number;
              sha256: string;
            } | null;
            /** Format: date-time */
            created_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getBugReportScreenshot': {
    parameters: {
      query?: never;
      header?: {
        /** @description ETags the client holds (`"<sha256>"`, a list, or `*`); a match answers 304 without a body. */
        'If-None-Match'?: string;
      };
      path: {
        report_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The verified picture (PNG, JPEG or WebP), with length, ETag (SHA-256) and file name. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      502: components['responses']['BadGateway'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listDashboardClients': {
    parameters: {
      query?: {
        q?: string;
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of client summaries. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              name: string;
              enabled: boolean;
              task_count: number;
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listKeys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Key metadata; never a secret or hash. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            keys: {
              /** Format: uuid */
              id: string;
              member_id: string;
              identity_id: string;
              name: string;
              /** @enum {string} */
              role: 'REVIEWER' | 'OWNER' | 'ADMIN';
              scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              expires_at: string;
              /** Format: date-time */
              revoked_at: string | null;
              /** Format: date-time */
              last_used_at: string | null;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.createKey': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          member_id?: string;
          name?: string;
          /** @enum {string} */
          role?: 'REVIEWER' | 'OWNER' | 'ADMIN';
          scopes?: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
          expires_in_days?: number;
        };
      };
    };
    responses: {
      /** @description The new key and its token (shown this once). */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            member_id: string;
            identity_id: string;
            name: string;
            /** @enum {string} */
            role: 'REVIEWER' | 'OWNER' | 'ADMIN';
            scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            revoked_at: string | null;
            /** Format: date-time */
            last_used_at: string | null;
            token: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getKey': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        key_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Key metadata. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            member_id: string;
            identity_id: string;
            name: string;
            /** @enum {string} */
            role: 'REVIEWER' | 'OWNER' | 'ADMIN';
            scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            revoked_at: string | null;
            /** Format: date-time */
            last_used_at: string | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.revokeKey': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        key_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The revoked key. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            member_id: string;
            identity_id: string;
            name: string;
            /** @enum {string} */
            role: 'REVIEWER' | 'OWNER' | 'ADMIN';
            scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            revoked_at: string | null;
            /** Format: date-time */
            last_used_at: string | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listKeyEvents': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        key_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Events, newest first; reads show only in the key’s last_used_at. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            events: {
              id: string;
              /** @enum {string} */
              kind: 'created' | 'revoked' | 'write_request';
              method: string | null;
              path: string | null;
              status: number | null;
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listActivity': {
    parameters: {
      query?: {
        kind?: 'task' | 'client';
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of activity. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              /** @enum {string} */
              kind: 'task' | 'client';
              action: string;
              actor_id: string | null;
              task_id: string | null;
              client_id: string | null;
              version: number | null;
              comment: string | null;
              from_state: string | null;
              to_state: string | null;
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getAnalytics': {
    parameters: {
      query?: {
        days?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Analytics over the caller’s visible tasks. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            scope: 'all' | 'assigned';
            review_status: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
            workload: {
              reviewer_id: string;
              display_name: string;
              enabled: boolean;
              assigned: number;
              in_review: number;
              completed: number;
              total: number;
            }[];
            trend: {
              days: number;
              points: {
                date: string;
                actions: number;
                feedback: number;
                verdicts: number;
              }[];
            };
            recent_activity: {
              id: string;
              /** @enum {string} */
              kind: 'task' | 'client';
              action: string;
              actor_id: string | null;
              task_id: string | null;
              client_id: string | null;
              version: number | null;
              comment: string | null;
              from_state: string | null;
              to_state: string | null;
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getReviewerAnalytics': {
    parameters: {
      query?: {
        days?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Per reviewer figures over the caller’s visible tasks (a Reviewer: their own). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            scope: 'all' | 'assigned';
            days: number;
            reviewers: {
              reviewer_id: string;
              display_name: string;
              enabled: boolean;
              verdicts: number;
              median_seconds: number | null;
              p90_seconds: number | null;
              open: number;
              /** Format: date-time */
              oldest_assigned_at: string | null;
            }[];
            ageing: {
              buckets: {
                /** @enum {string} */
                bucket: 'under_1d' | '1d_to_3d' | '3d_to_7d' | '7d_to_14d' | '14d_to_30d' | 'over_30d';
                open: number;
              }[];
              /** Format: date-time */
              oldest_assigned_at: string | null;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.downloadArtifact': {
    parameters: {
      query?: never;
      header?: {
        /** @description ETags the client holds (`"<sha256>"`, a list, or `*`); a match answers 304 without a body. */
        'If-None-Match'?: string;
      };
      path: {
        artifact_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The verified bytes, with the recorded media type, length, ETag (SHA-256) and file name. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      502: components['responses']['BadGateway'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listClients': {
    parameters: {
      query?: {
        q?: string;
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of clients. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              name: string;
              description: string;
              enabled: boolean;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
              task_count: number;
              archived_task_count: number;
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.createClient': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          description?: string;
          enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description The creation receipt; read the client list to obtain updated_at. */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            description: string;
            enabled: boolean;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.updateClient': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        client_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          description: string;
          enabled: boolean;
          /** Format: date-time */
          updated_at: string;
        };
      };
    };
    responses: {
      /** @description The client with its new updated_at. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            description: string;
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            task_count: number;
            archived_task_count: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listExports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Exports. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              /** @enum {string} */
              state: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
              /** @enum {string} */
              format: 'jsonl' | 'csv';
              include_events: boolean;
              /** @description The list filters, as sent (with defaults). */
              filters: Record<string, never>;
              /** @description Rows the list returned at the snapshot: the rows of the file. */
              rows_in_snapshot: number;
              rows_written: number;
              size_bytes: number | null;
              sha256: string | null;
              error: string | null;
              /**
               * Format: date-time
               * @description When the snapshot was taken.
               */
              created_at: string;
              /** Format: date-time */
              finished_at: string | null;
              /**
               * Format: date-time
               * @description When the file is deleted (docs/exports.md).
               */
              expires_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.createExport': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @default {
           *       "special": "deep"
           *     }
           */
          filters?: {
            run_id?: string;
            reviewer_id?: string;
            client_id?: string;
            /** @enum {string} */
            review_state?: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
            /** @enum {string} */
            decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
            q?: string;
            /**
             * @default updated
             * @enum {string}
             */
            sort?: 'updated' | 'oldest' | 'topic';
            question_id?: string;
            /**
             * @default all
             * @enum {string}
             */
            surface?: 'all' | 'archive' | 'release' | 'evaluations';
          };
          /**
           * @description `jsonl` (one JSON object per line, the default) or `csv` (RFC 4180, a header row).
           * @default jsonl
           * @enum {string}
           */
          format?: 'jsonl' | 'csv';
          /**
           * @description Add each task’s workflow events up to the snapshot (`events`, oldest first).
           * @default false
           */
          include_events?: boolean;
        };
      };
    };
    responses: {
      /** @description The export, running: its snapshot is taken and counted. */
      202: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            /** @enum {string} */
            state: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
            /** @enum {string} */
            format: 'jsonl' | 'csv';
            include_events: boolean;
            /** @description The list filters, as sent (with defaults). */
            filters: Record<string, never>;
            /** @description Rows the list returned at the snapshot: the rows of the file. */
            rows_in_snapshot: number;
            rows_written: number;
            size_bytes: number | null;
            sha256: string | null;
            error: string | null;
            /**
             * Format: date-time
             * @description When the snapshot was taken.
             */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
            /**
             * Format: date-time
             * @description When the file is deleted (docs/exports.md).
             */
            expires_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getExport': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        export_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The export. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            /** @enum {string} */
            state: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
            /** @enum {string} */
            format: 'jsonl' | 'csv';
            include_events: boolean;
            /** @description The list filters, as sent (with defaults). */
            filters: Record<string, never>;
            /** @description Rows the list returned at the snapshot: the rows of the file. */
            rows_in_snapshot: number;
            rows_written: number;
            size_bytes: number | null;
            sha256: string | null;
            error: string | null;
            /**
             * Format: date-time
             * @description When the snapshot was taken.
             */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
            /**
             * Format: date-time
             * @description When the file is deleted (docs/exports.md).
             */
            expires_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.deleteExport': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        export_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.downloadExport': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        export_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The verified file (`application/x-ndjson` or `text/csv`), with its length, ETag and Repr-Digest (SHA-256). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      410: components['responses']['Gone'];
      429: components['responses']['TooManyRequests'];
      502: components['responses']['BadGateway'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getMonitor': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Counts and freshness. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            scope: 'all' | 'assigned';
            review_status: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
            assigned_to_you: number;
            freshness: {
              latest_run_id: string | null;
              /** Format: date-time */
              latest_run_imported_at: string | null;
              /** Format: date-time */
              latest_run_completed_at: string | null;
              /** Format: date-time */
              latest_completed_at: string | null;
              /** Format: date-time */
              latest_task_imported_at: string | null;
              /** Format: date-time */
              latest_task_updated_at: string | null;
              /** Format: date-time */
              latest_import_finished_at: string | null;
              /** @enum {string|null} */
              latest_import_status: 'SUCCEEDED' | 'UNCHANGED' | 'FAILED' | null;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listReports': {
    parameters: {
      query?: {
        run_id?: string;
        question_id?: string;
        mapped?: boolean;
        q?: string;
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of mappings in task id order with the counts of the whole filtered result. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              archived: boolean;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
            }[];
            page: number;
            page_size: number;
            total: number;
            mapped_reports: number;
            unique_reports: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listRuns': {
    parameters: {
      query?: {
        q?: string;
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of runs. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              run_id: string;
              title: string;
              source: string | null;
              /** Format: date-time */
              started_at: string | null;
              /** Format: date-time */
              completed_at: string | null;
              /** Format: date-time */
              imported_at: string;
              report_count: number;
              mapped_reports: number;
              review_status: {
                total: number;
                archived: number;
                unassigned: number;
                review_states: {
                  UNASSIGNED: number;
                  ASSIGNED: number;
                  IN_REVIEW: number;
                  COMPLETED: number;
                };
                decisions: {
                  ACCEPTED: number;
                  NEEDS_REVISION: number;
                  REJECTED: number;
                  NONE: number;
                };
              };
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getRun': {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
      };
      header?: never;
      path: {
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            run_id: string;
            title: string;
            source: string | null;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            completed_at: string | null;
            /** Format: date-time */
            imported_at: string;
            report_count: number;
            mapped_reports: number;
            review_status: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
            topics: {
              topic_id: string;
              title: string;
              latest: boolean;
            }[];
            tasks: {
              items: {
                task_id: string;
                run_id: string;
                topic_id: string;
                question_id: string;
                title: string;
                problem: string;
                report: {
                  report_id: string;
                  artifact_id: string;
                  source_id: string | null;
                } | null;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                assignee_id: string | null;
                client_id: string | null;
                archived: boolean;
                version: number;
                workflow: {
                  version: number;
                  /** @enum {string} */
                  review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                  /** @enum {string|null} */
                  decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                  event_count: number;
                  last_action: string | null;
                  /** Format: date-time */
                  last_action_at: string | null;
                };
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
              page: number;
              page_size: number;
              total: number;
            };
            reports: {
              items: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
                mapped_tasks: number;
              }[];
              page: number;
              page_size: number;
              total: number;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getRunPaths': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The permitted paths of the run. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            run_id: string;
            paths: {
              artifact_id: string;
              source_path: string;
              filename: string;
              media_type: string;
              size_bytes: number;
              sha256: string;
              download_url: string;
              /** @enum {string} */
              kind: 'REPORT' | 'CHECKPOINT' | 'PUBLIC_INPUT' | 'PUBLIC_TASKS' | 'EVIDENCE';
              /** @constant */
              class: 'STANDARD';
              reports: {
                report_id: string;
                source_id: string | null;
              }[];
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listSeeds': {
    parameters: {
      query?: {
        q?: string;
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of seeds in question id order. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              question_id: string;
              review_status: {
                total: number;
                archived: number;
                unassigned: number;
                review_states: {
                  UNASSIGNED: number;
                  ASSIGNED: number;
                  IN_REVIEW: number;
                  COMPLETED: number;
                };
                decisions: {
                  ACCEPTED: number;
                  NEEDS_REVISION: number;
                  REJECTED: number;
                  NONE: number;
                };
              };
              run_ids: string[];
              topic_ids: string[];
              /** Format: date-time */
              updated_at: string;
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getSeed': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        question_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The seed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            question_id: string;
            review_status: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
            run_ids: string[];
            topic_ids: string[];
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listSeedTasks': {
    parameters: {
      query?: {
        run_id?: string;
        reviewer_id?: string;
        client_id?: string;
        review_state?: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
        decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
        q?: string;
        sort?: 'updated' | 'oldest' | 'topic';
        page?: number;
        page_size?: number;
        surface?: 'all' | 'archive' | 'release' | 'evaluations';
      };
      header?: never;
      path: {
        question_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the seed’s tasks. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              problem: string;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              version: number;
              workflow: {
                version: number;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                event_count: number;
                last_action: string | null;
                /** Format: date-time */
                last_action_at: string | null;
              };
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            }[];
            page: number;
            page_size: number;
            total: number;
            counts: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listTasks': {
    parameters: {
      query?: {
        run_id?: string;
        reviewer_id?: string;
        client_id?: string;
        review_state?: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
        decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
        q?: string;
        sort?: 'updated' | 'oldest' | 'topic';
        page?: number;
        page_size?: number;
        question_id?: string;
        surface?: 'all' | 'archive' | 'release' | 'evaluations';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of tasks. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              problem: string;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              version: number;
              workflow: {
                version: number;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                event_count: number;
                last_action: string | null;
                /** Format: date-time */
                last_action_at: string | null;
              };
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            }[];
            page: number;
            page_size: number;
            total: number;
            counts: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getTask': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            run_id: string;
            topic_id: string;
            question_id: string;
            title: string;
            problem: string;
            report: {
              report_id: string;
              artifact_id: string;
              source_id: string | null;
            } | null;
            /** @enum {string} */
            review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
            /** @enum {string|null} */
            decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            version: number;
            workflow: {
              version: number;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              event_count: number;
              last_action: string | null;
              /** Format: date-time */
              last_action_at: string | null;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.applyTaskAction': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version: number;
          /** @enum {string} */
          action: 'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
          comment?: string | (string | null);
          assignee_id?: string | null;
          client_id?: string | null;
          /** @enum {string} */
          decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
        } & (unknown & unknown & unknown & unknown);
      };
    };
    responses: {
      /** @description The updated task and its workflow history. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              problem: string;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              version: number;
              workflow: {
                version: number;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                event_count: number;
                last_action: string | null;
                /** Format: date-time */
                last_action_at: string | null;
              };
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            };
            workflow: {
              task_id: string;
              version: number;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              allowed_actions: (
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore'
              )[];
              reviewer_choices: {
                id: string;
                enabled: boolean;
              }[];
              client_choices: {
                id: string;
                enabled: boolean;
              }[];
              events: {
                id: string;
                version: number;
                /** @enum {string} */
                action:
                  'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
                actor_id: string | null;
                comment: string | null;
                /** @enum {string} */
                from_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string} */
                to_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                detail: Record<string, never>;
                /** Format: date-time */
                created_at: string;
              }[];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listAttachments': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The active attachments. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            attachments: {
              attachment_id: string;
              task_id: string;
              filename: string | null;
              /** @constant */
              media_type: 'application/octet-stream';
              size_bytes: number;
              sha256: string;
              uploader_id: string;
              /** Format: date-time */
              created_at: string;
              download_url: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.uploadAttachment': {
    parameters: {
      query?: never;
      header?: {
        /** @description The file name, percent-encoded UTF-8 (at most 255 characters once decoded; no folders or control characters). Unicode format characters (bidi controls, zero-width characters) are removed. */
        'X-Filename'?: string;
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    /** @description The raw bytes. */
    requestBody: {
      content: {
        'application/octet-stream': string;
      };
    };
    responses: {
      /** @description The stored attachment’s receipt. */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            attachment_id: string;
            task_id: string;
            filename: string | null;
            /** @constant */
            media_type: 'application/octet-stream';
            size_bytes: number;
            sha256: string;
            uploader_id: string;
            /** Format: date-time */
            created_at: string;
            download_url: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getAttachment': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
        attachment_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The attachment. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            attachment_id: string;
            task_id: string;
            filename: string | null;
            /** @constant */
            media_type: 'application/octet-stream';
            size_bytes: number;
            sha256: string;
            uploader_id: string;
            /** Format: date-time */
            created_at: string;
            download_url: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.removeAttachment': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
        attachment_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.downloadAttachment': {
    parameters: {
      query?: never;
      header?: {
        /** @description ETags the client holds (`"<sha256>"`, a list, or `*`); a match answers 304 without a body. */
        'If-None-Match'?: string;
      };
      path: {
        task_id: string;
        attachment_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The verified bytes, with length, ETag (SHA-256) and file name. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      502: components['responses']['BadGateway'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listTaskNotes': {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
      };
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of notes; a page shorter than page_size is the last. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              version: number;
              /** @enum {string} */
              action:
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
              author_id: string | null;
              comment: string;
              /** Format: date-time */
              created_at: string;
            }[];
            page: number;
            page_size: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.addTaskNote': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version: number;
          comment: string;
        };
      };
    };
    responses: {
      /** @description The full workflow detail after the note. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            version: number;
            /** @enum {string} */
            review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
            /** @enum {string|null} */
            decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            allowed_actions: (
              'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore'
            )[];
            reviewer_choices: {
              id: string;
              enabled: boolean;
            }[];
            client_choices: {
              id: string;
              enabled: boolean;
            }[];
            events: {
              id: string;
              version: number;
              /** @enum {string} */
              action:
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
              actor_id: string | null;
              comment: string | null;
              /** @enum {string} */
              from_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string} */
              to_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getTaskPaths': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task's report path. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            run_id: string;
            report_id: string;
            source_id: string | null;
            artifact_id: string;
            source_path: string;
            filename: string;
            media_type: string;
            size_bytes: number;
            sha256: string;
            download_url: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getTaskWorkflow': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task workflow. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            version: number;
            /** @enum {string} */
            review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
            /** @enum {string|null} */
            decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            allowed_actions: (
              'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore'
            )[];
            reviewer_choices: {
              id: string;
              enabled: boolean;
            }[];
            client_choices: {
              id: string;
              enabled: boolean;
            }[];
            events: {
              id: string;
              version: number;
              /** @enum {string} */
              action:
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
              actor_id: string | null;
              comment: string | null;
              /** @enum {string} */
              from_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string} */
              to_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.applyTaskActionWorkflowAlias': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version: number;
          /** @enum {string} */
          action: 'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
          comment?: string | (string | null);
          assignee_id?: string | null;
          client_id?: string | null;
          /** @enum {string} */
          decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
        } & (unknown & unknown & unknown & unknown);
      };
    };
    responses: {
      /** @description The updated task and its workflow history. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              problem: string;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              version: number;
              workflow: {
                version: number;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                event_count: number;
                last_action: string | null;
                /** Format: date-time */
                last_action_at: string | null;
              };
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            };
            workflow: {
              task_id: string;
              version: number;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              allowed_actions: (
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore'
              )[];
              reviewer_choices: {
                id: string;
                enabled: boolean;
              }[];
              client_choices: {
                id: string;
                enabled: boolean;
              }[];
              events: {
                id: string;
                version: number;
                /** @enum {string} */
                action:
                  'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
                actor_id: string | null;
                comment: string | null;
                /** @enum {string} */
                from_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string} */
                to_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                detail: Record<string, never>;
                /** Format: date-time */
                created_at: string;
              }[];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listTopics': {
    parameters: {
      query?: {
        q?: string;
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of topics, most recently imported first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              topic_id: string;
              title: string;
              latest_run: {
                run_id: string;
                title: string;
                /** Format: date-time */
                imported_at: string;
                /** Format: date-time */
                completed_at: string | null;
              };
              review_status: {
                total: number;
                archived: number;
                unassigned: number;
                review_states: {
                  UNASSIGNED: number;
                  ASSIGNED: number;
                  IN_REVIEW: number;
                  COMPLETED: number;
                };
                decisions: {
                  ACCEPTED: number;
                  NEEDS_REVISION: number;
                  REJECTED: number;
                  NONE: number;
                };
              };
              /** Format: date-time */
              updated_at: string;
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listWorkflowTasks': {
    parameters: {
      query?: {
        run_id?: string;
        reviewer_id?: string;
        client_id?: string;
        review_state?: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
        decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
        q?: string;
        sort?: 'updated' | 'oldest' | 'topic';
        page?: number;
        page_size?: number;
        question_id?: string;
        surface?: 'all' | 'archive' | 'release' | 'evaluations';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of tasks. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              problem: string;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              version: number;
              workflow: {
                version: number;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                event_count: number;
                last_action: string | null;
                /** Format: date-time */
                last_action_at: string | null;
              };
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            }[];
            page: number;
            page_size: number;
            total: number;
            counts: {
              total: number;
              archived: number;
              unassigned: number;
              review_states: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                COMPLETED: number;
              };
              decisions: {
                ACCEPTED: number;
                NEEDS_REVISION: number;
                REJECTED: number;
                NONE: number;
              };
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getDashboardTaskWorkflow': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task workflow. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            version: number;
            /** @enum {string} */
            review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
            /** @enum {string|null} */
            decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            allowed_actions: (
              'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore'
            )[];
            reviewer_choices: {
              id: string;
              enabled: boolean;
            }[];
            client_choices: {
              id: string;
              enabled: boolean;
            }[];
            events: {
              id: string;
              version: number;
              /** @enum {string} */
              action:
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
              actor_id: string | null;
              comment: string | null;
              /** @enum {string} */
              from_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string} */
              to_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              detail: Record<string, never>;
              /** Format: date-time */
              created_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.applyDashboardTaskAction': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version: number;
          /** @enum {string} */
          action: 'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
          comment?: string | (string | null);
          assignee_id?: string | null;
          client_id?: string | null;
          /** @enum {string} */
          decision?: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED';
        } & (unknown & unknown & unknown & unknown);
      };
    };
    responses: {
      /** @description The updated task and its workflow history. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task: {
              task_id: string;
              run_id: string;
              topic_id: string;
              question_id: string;
              title: string;
              problem: string;
              report: {
                report_id: string;
                artifact_id: string;
                source_id: string | null;
              } | null;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              version: number;
              workflow: {
                version: number;
                /** @enum {string} */
                review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string|null} */
                decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
                event_count: number;
                last_action: string | null;
                /** Format: date-time */
                last_action_at: string | null;
              };
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            };
            workflow: {
              task_id: string;
              version: number;
              /** @enum {string} */
              review_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
              /** @enum {string|null} */
              decision: 'ACCEPTED' | 'NEEDS_REVISION' | 'REJECTED' | null;
              assignee_id: string | null;
              client_id: string | null;
              archived: boolean;
              allowed_actions: (
                'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore'
              )[];
              reviewer_choices: {
                id: string;
                enabled: boolean;
              }[];
              client_choices: {
                id: string;
                enabled: boolean;
              }[];
              events: {
                id: string;
                version: number;
                /** @enum {string} */
                action:
                  'assign' | 'start' | 'feedback' | 'verdict' | 'reopen' | 'client' | 'archive' | 'restore';
                actor_id: string | null;
                comment: string | null;
                /** @enum {string} */
                from_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                /** @enum {string} */
                to_state: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'COMPLETED';
                detail: Record<string, never>;
                /** Format: date-time */
                created_at: string;
              }[];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getTaskEvidence': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task's evidence. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            task_id: string;
            report_id: string | null;
            rubric: Record<string, never> | null;
            review: Record<string, never> | null;
            quality_gate: Record<string, never> | null;
            /** Format: date-time */
            imported_at: string | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listReviewers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Members to assign, by display name. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            reviewers: {
              id: string;
              identity_id: string;
              username: string;
              display_name: string;
              /** @enum {string} */
              role: 'REVIEWER' | 'OWNER' | 'ADMIN';
              enabled: boolean;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listUsers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every math member, enabled or not. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            users: {
              id: string;
              identity_id: string;
              username: string;
              display_name: string;
              /** @enum {string} */
              role: 'REVIEWER' | 'OWNER' | 'ADMIN';
              enabled: boolean;
              email: string | null;
              primary_admin: boolean;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listWebhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Endpoints. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            webhooks: {
              /** Format: uuid */
              id: string;
              url: string;
              description: string;
              event_types: (
                | 'math.task.assigned'
                | 'math.task.started'
                | 'math.task.feedback_added'
                | 'math.task.verdict_recorded'
                | 'math.task.reopened'
                | 'math.task.client_changed'
                | 'math.task.archived'
                | 'math.task.restored'
                | 'math.import.completed'
                | 'math.import.failed'
                | 'math.key.revoked'
              )[];
              /** @enum {string} */
              status: 'ACTIVE' | 'PAUSED' | 'DISABLED';
              /** @description Why it was disabled: `gone` (the receiver answered 410) or `failing` (5 days of failed attempts without a success). */
              disabled_reason: string | null;
              /** Format: date-time */
              previous_secret_expires_at: string | null;
              max_in_flight: number;
              /** @description Failed attempts since the last success; from 5 the circuit breaker sends only probes. */
              consecutive_failures: number;
              /**
               * Format: date-time
               * @description The first failed attempt since the last success; 5 days of it disable the endpoint.
               */
              failing_since: string | null;
              /** Format: date-time */
              last_success_at: string | null;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.createWebhook': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uri */
          url: string;
          description?: string;
          event_types: (
            | 'math.task.assigned'
            | 'math.task.started'
            | 'math.task.feedback_added'
            | 'math.task.verdict_recorded'
            | 'math.task.reopened'
            | 'math.task.client_changed'
            | 'math.task.archived'
            | 'math.task.restored'
            | 'math.import.completed'
            | 'math.import.failed'
            | 'math.key.revoked'
          )[];
          /** @description How many deliveries are sent to the endpoint at once, each of another subject (default 16); omitted on update: unchanged. */
          max_in_flight?: number;
        };
      };
    };
    responses: {
      /** @description The endpoint and its secret (shown once). */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            url: string;
            description: string;
            event_types: (
              | 'math.task.assigned'
              | 'math.task.started'
              | 'math.task.feedback_added'
              | 'math.task.verdict_recorded'
              | 'math.task.reopened'
              | 'math.task.client_changed'
              | 'math.task.archived'
              | 'math.task.restored'
              | 'math.import.completed'
              | 'math.import.failed'
              | 'math.key.revoked'
            )[];
            /** @enum {string} */
            status: 'ACTIVE' | 'PAUSED' | 'DISABLED';
            /** @description Why it was disabled: `gone` (the receiver answered 410) or `failing` (5 days of failed attempts without a success). */
            disabled_reason: string | null;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
            max_in_flight: number;
            /** @description Failed attempts since the last success; from 5 the circuit breaker sends only probes. */
            consecutive_failures: number;
            /**
             * Format: date-time
             * @description The first failed attempt since the last success; 5 days of it disable the endpoint.
             */
            failing_since: string | null;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            secret: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.getWebhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            url: string;
            description: string;
            event_types: (
              | 'math.task.assigned'
              | 'math.task.started'
              | 'math.task.feedback_added'
              | 'math.task.verdict_recorded'
              | 'math.task.reopened'
              | 'math.task.client_changed'
              | 'math.task.archived'
              | 'math.task.restored'
              | 'math.import.completed'
              | 'math.import.failed'
              | 'math.key.revoked'
            )[];
            /** @enum {string} */
            status: 'ACTIVE' | 'PAUSED' | 'DISABLED';
            /** @description Why it was disabled: `gone` (the receiver answered 410) or `failing` (5 days of failed attempts without a success). */
            disabled_reason: string | null;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
            max_in_flight: number;
            /** @description Failed attempts since the last success; from 5 the circuit breaker sends only probes. */
            consecutive_failures: number;
            /**
             * Format: date-time
             * @description The first failed attempt since the last success; 5 days of it disable the endpoint.
             */
            failing_since: string | null;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.updateWebhook': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uri */
          url: string;
          description: string;
          event_types: (
            | 'math.task.assigned'
            | 'math.task.started'
            | 'math.task.feedback_added'
            | 'math.task.verdict_recorded'
            | 'math.task.reopened'
            | 'math.task.client_changed'
            | 'math.task.archived'
            | 'math.task.restored'
            | 'math.import.completed'
            | 'math.import.failed'
            | 'math.key.revoked'
          )[];
          /** @enum {string} */
          status: 'ACTIVE' | 'PAUSED';
          /** @description How many deliveries are sent to the endpoint at once, each of another subject (default 16); omitted on update: unchanged. */
          max_in_flight?: number;
        };
      };
    };
    responses: {
      /** @description The endpoint as changed. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            url: string;
            description: string;
            event_types: (
              | 'math.task.assigned'
              | 'math.task.started'
              | 'math.task.feedback_added'
              | 'math.task.verdict_recorded'
              | 'math.task.reopened'
              | 'math.task.client_changed'
              | 'math.task.archived'
              | 'math.task.restored'
              | 'math.import.completed'
              | 'math.import.failed'
              | 'math.key.revoked'
            )[];
            /** @enum {string} */
            status: 'ACTIVE' | 'PAUSED' | 'DISABLED';
            /** @description Why it was disabled: `gone` (the receiver answered 410) or `failing` (5 days of failed attempts without a success). */
            disabled_reason: string | null;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
            max_in_flight: number;
            /** @description Failed attempts since the last success; from 5 the circuit breaker sends only probes. */
            consecutive_failures: number;
            /**
             * Format: date-time
             * @description The first failed attempt since the last success; 5 days of it disable the endpoint.
             */
            failing_since: string | null;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.deleteWebhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint is deleted. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.listWebhookDeliveries': {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
      };
      header?: never;
      path: {
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of deliveries. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              message_id: string;
              event_type: string;
              subject: string;
              /** @enum {string} */
              status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
              /** @description The body’s `sequence`: its number among its subject’s deliveries here; null until first sent. */
              sequence: number | null;
              attempt_count: number;
              /** Format: date-time */
              next_attempt_at: string | null;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              finished_at: string | null;
              attempts: {
                /** Format: date-time */
                attempted_at: string;
                status_code: number | null;
                error: string | null;
                latency_ms: number;
                response_excerpt: string;
              }[];
            }[];
            page: number;
            page_size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.redeliverWebhookDelivery': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        webhook_id: string;
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery, pending again. */
      202: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            message_id: string;
            event_type: string;
            subject: string;
            /** @enum {string} */
            status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
            /** @description The body’s `sequence`: its number among its subject’s deliveries here; null until first sent. */
            sequence: number | null;
            attempt_count: number;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
            attempts: {
              /** Format: date-time */
              attempted_at: string;
              status_code: number | null;
              error: string | null;
              latency_ms: number;
              response_excerpt: string;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'math.rotateWebhookSecret': {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Optional; honoured when sent. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default 24 */
          grace_period_hours?: number;
        };
      };
    };
    responses: {
      /** @description The endpoint, with the new secret (shown once) and until when the previous one signs. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            url: string;
            description: string;
            event_types: (
              | 'math.task.assigned'
              | 'math.task.started'
              | 'math.task.feedback_added'
              | 'math.task.verdict_recorded'
              | 'math.task.reopened'
              | 'math.task.client_changed'
              | 'math.task.archived'
              | 'math.task.restored'
              | 'math.import.completed'
              | 'math.import.failed'
              | 'math.key.revoked'
            )[];
            /** @enum {string} */
            status: 'ACTIVE' | 'PAUSED' | 'DISABLED';
            /** @description Why it was disabled: `gone` (the receiver answered 410) or `failing` (5 days of failed attempts without a success). */
            disabled_reason: string | null;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
            max_in_flight: number;
            /** @description Failed attempts since the last success; from 5 the circuit breaker sends only probes. */
            consecutive_failures: number;
            /**
             * Format: date-time
             * @description The first failed attempt since the last success; 5 days of it disable the endpoint.
             */
            failing_since: string | null;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            secret: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'webhook.math.task.assigned': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.assigned';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.started': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.started';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.feedback_added': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.feedback_added';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.verdict_recorded': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.verdict_recorded';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.reopened': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.reopened';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.client_changed': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.client_changed';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.archived': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.archived';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.restored': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.restored';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The task event, as `/api/math/activity` lists it. */
            event_id: string;
            action: string;
            /** @description The task version this transition made. */
            version: number;
            from_state: string;
            to_state: string;
            review_state: string;
            decision: string | null;
            assignee_id: string | null;
            client_id: string | null;
            archived: boolean;
            /** @description The member who acted. */
            actor_id: string;
            comment: string | null;
            detail: Record<string, never>;
            /** Format: date-time */
            occurred_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.import.completed': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.import.completed';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            import_id: string;
            /** @description The math run id, or `<batch>/<bundle_id>` of a genomics bundle. */
            subject_id: string;
            /** @enum {string} */
            status: 'SUCCEEDED' | 'UNCHANGED' | 'FAILED';
            /** @description Records by kind, as the import counted them. */
            counts: Record<string, never>;
            files_uploaded: number;
            bytes_uploaded: number;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.import.failed': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.import.failed';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            import_id: string;
            /** @description The math run id, or `<batch>/<bundle_id>` of a genomics bundle. */
            subject_id: string;
            /** @enum {string} */
            status: 'SUCCEEDED' | 'UNCHANGED' | 'FAILED';
            /** @description Records by kind, as the import counted them. */
            counts: Record<string, never>;
            files_uploaded: number;
            bytes_uploaded: number;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.key.revoked': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.key.revoked';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** Format: uuid */
            key_id: string;
            /** @description The key’s owner. */
            member_id: string;
            /** @description Null when an operator revoked it (CLI). */
            revoked_by_member_id: string | null;
            /** Format: date-time */
            revoked_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'webhook.math.task.withdrawn': {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every attempt and redelivery of this event (deduplicate on it). */
        'webhook-id': string;
        /** @description Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each current secret (two during a rotation’s grace period); one valid signature suffices. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'math.task.withdrawn';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The task (as in `/api/math/tasks/{task_id}`). */
            task_id: string;
            /** @description The `webhook-id` of the withdrawn event: it must be treated as never having happened. */
            withdrawn_webhook_id: string;
            /** @description The withdrawn event’s type. */
            withdrawn_type: string;
            /** @description The withdrawn event’s `data.event_id`. */
            withdrawn_event_id: string;
            /**
             * @description Its transition was committed by a workflow task that never completed (no client was told) and was replaced by the workflow’s next transition.
             * @constant
             */
            reason: 'unacknowledged_transition';
            /** Format: date-time */
            withdrawn_at: string;
          };
        };
      };
    };
    responses: {
      /** @description Gone: the endpoint is disabled and receives nothing more until resumed. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the delivery succeeded. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
