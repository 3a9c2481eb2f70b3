/**
 * The Referee genomics workspace API, as `paths`/`operations` types for the console and openapi-fetch.
 * Generated from /api/v1/openapi.json by `npm run generate:client`: do not edit.
 */

export interface paths {
  '/api/v1/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Topic states, decisions and dispositions, a daily event trend, turnaround and open work per reviewer, ageing and freshness.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['genomics.getAnalytics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/exports': {
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
    get: operations['genomics.listExports'];
    put?: never;
    /**
     * Start an export of the task list with these filters: one snapshot of what the list returns now, with the caller’s visibility, written to one verified file by a durable workflow.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.createExport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/exports/{exportId}': {
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
    get: operations['genomics.getExport'];
    put?: never;
    post?: never;
    /**
     * Delete one of the caller’s exports: a running one is cancelled, its file removed.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    delete: operations['genomics.deleteExport'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/exports/{exportId}/download': {
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
    get: operations['genomics.downloadExport'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * API key metadata: your own keys, or every workspace key for an ADMIN (newest first, up to 500).
     * @description **Access:** role REVIEWER or higher; key scopes: `keys:manage`.
     */
    get: operations['genomics.listKeys'];
    put?: never;
    /**
     * Create an API key (an OWNER for themselves, an ADMIN for any enabled member); the token is shown once.
     * @description **Access:** role OWNER or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** required.
     *
     *     A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.
     */
    post: operations['genomics.createKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a key immediately: an OWNER their own keys, an ADMIN any workspace key.
     * @description **Access:** role OWNER or higher; key scopes: `keys:manage`.
     */
    delete: operations['genomics.revokeKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The session user, the workspace and the API key in use.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['genomics.getSession'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tasks in (batch, topic) order with cursor pagination; a Reviewer sees only their own.
     * @description **Access:** role REVIEWER or higher (Reviewer*: a Reviewer sees and acts only on tasks assigned to them); key scopes: `read`.
     */
    get: operations['genomics.listTasks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Topics in (batch, topic) order with cursor pagination.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['genomics.listTopics'];
    put?: never;
    /**
     * Create a topic and its task record (starts no computation).
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.createTopic'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A topic: brief (with markdown), task state, campaigns and clients.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`, `paths:read`.
     */
    get: operations['genomics.getTopic'];
    /**
     * Update a topic’s title and category.
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    put: operations['genomics.updateTopic'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/assignments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The topic’s reviewer assignments, newest first.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['genomics.listAssignments'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/decision': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Override the decision, if it still is `expectedDecision` (else 409).
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.overrideDecision'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/disposition': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Change the task disposition, if it still is `expectedDisposition` (else 409).
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    put: operations['genomics.setDisposition'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The topic’s events, newest first.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['genomics.listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/measurements': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Original-report and public-package-rerun pass-rate measurements (separate scopes, never merged).
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['genomics.getMeasurements'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/notes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The topic’s notes (topic and campaign notes), newest first.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`.
     */
    get: operations['genomics.listNotes'];
    put?: never;
    /**
     * Add a topic note (campaignId null) or a campaign note.
     * @description **Access:** role REVIEWER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.createNote'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/notes/{noteId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Edit a note, if its body still has the SHA-256 the editor saw (else 409, nothing changed).
     * @description **Access:** role REVIEWER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    put: operations['genomics.editNote'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/paths': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Object-storage paths, sizes and SHA-256 of the reports, completed revisions and publications.
     * @description **Access:** role REVIEWER or higher; key scopes: `paths:read`.
     */
    get: operations['genomics.getPaths'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/reopen': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reopen the submitted review, if the decision still is `expectedDecision` (else 409).
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.reopenReview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/reports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The topic’s imported reports with storage paths, newest first.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`, `paths:read`.
     */
    get: operations['genomics.listReports'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/reviewer': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Assign a reviewer (with instructions and an optional due date) or remove the reviewer (null).
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    put: operations['genomics.setReviewer'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/reviews': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit a review verdict or a comment on the caller’s assignment.
     * @description **Access:** role REVIEWER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.submitReview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/revisions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The topic’s package revisions (started and completed), newest first.
     * @description **Access:** role REVIEWER or higher; key scopes: `read`, `paths:read`.
     */
    get: operations['genomics.listRevisions'];
    put?: never;
    /**
     * Start a package revision for a campaign, or resume the unfinished one.
     * @description **Access:** role REVIEWER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.startRevision'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/topics/{topicUid}/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Replace the whole tag set (duplicates dropped, first occurrences kept in order).
     * @description **Access:** role OWNER or higher; key scopes: `write`.
     *
     *     **Idempotency-Key:** required.
     */
    put: operations['genomics.replaceTags'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The workspace’s webhook endpoints (at most 20), oldest first; never a secret.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     */
    get: operations['genomics.listWebhooks'];
    put?: never;
    /**
     * Register an endpoint for event types; its signing secret is returned this once.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** required.
     *
     *     A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.
     */
    post: operations['genomics.createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{webhookId}': {
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
    get: operations['genomics.getWebhook'];
    /**
     * Replace URL, description, event types and status: PAUSED pauses, ACTIVE resumes (also after a 410).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** required.
     */
    put: operations['genomics.updateWebhook'];
    post?: never;
    /**
     * Delete an endpoint: nothing more is sent to it; its pending deliveries end as FAILED.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     */
    delete: operations['genomics.deleteWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{webhookId}/deliveries': {
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
    get: operations['genomics.listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
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
     *     **Idempotency-Key:** required.
     */
    post: operations['genomics.redeliverWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A new signing secret (returned this once); the previous one also signs for gracePeriodHours (0 to 168).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     **Access:** role ADMIN or higher; key scopes: `keys:manage`.
     *
     *     **Idempotency-Key:** required.
     *
     *     A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.
     */
    post: operations['genomics.rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'genomics.topic.reviewer_assigned': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A reviewer was assigned (an assignment created).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.reviewer_assigned`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.reviewer_assigned'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.reviewer_removed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The planned reviewer was removed; an active assignment cancelled.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.reviewer_removed`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.reviewer_removed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.comment_added': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A COMMENT review was submitted (no decision change).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.comment_added`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.comment_added'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.review_submitted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A review was submitted and decided the topic.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.review_submitted`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.review_submitted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.decision_overridden': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An owner overrode the decision.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.decision_overridden`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.decision_overridden'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.review_reopened': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A submitted review was reopened.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.review_reopened`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.review_reopened'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.disposition_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The disposition changed.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.disposition_changed`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.disposition_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.revision_started': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A package revision was started.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.revision_started`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.revision_started'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.revision_resumed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An open package revision was resumed.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.revision_resumed`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.revision_resumed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.assignment_expired': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An assignment passed its due date (actor null: the timer).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.topic.assignment_expired`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.assignment_expired'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.import.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A bundle import finished (SUCCEEDED or UNCHANGED).
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.import.completed`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.import.completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.import.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A bundle import failed.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent to every endpoint subscribed to `genomics.import.failed`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.import.failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.key.revoked': {
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
     *     Sent to every endpoint subscribed to `genomics.key.revoked`, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.key.revoked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'genomics.topic.withdrawn': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A topic event sent before was withdrawn: its transition never took effect.
     * @description **Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).
     *
     *     Sent, whatever its event types, to every endpoint that an attempt of the withdrawn event may have reached; it cannot be subscribed to, signed per Standard Webhooks.
     */
    post: operations['webhook.genomics.topic.withdrawn'];
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
    /** @description Permission denied. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Not found in your workspace. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description State or idempotency conflict. */
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
    /** @description Evidence validation failed. */
    UnprocessableContent: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Rate or file concurrency limit. */
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
    /** @description A stored object failed verification; nothing is served. */
    BadGateway: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Maintenance, unavailable authority or dependency. */
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
    /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
    IdempotencyKey: string;
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  'genomics.getAnalytics': {
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
      /** @description Figures over the topics `GET /api/v1/tasks` shows the caller; a Reviewer’s per-reviewer figures are their own. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            scope: 'all' | 'assigned';
            days: number;
            topics: {
              total: number;
              requires_re_review: number;
              workflow_statuses: {
                UNASSIGNED: number;
                ASSIGNED: number;
                IN_REVIEW: number;
                REVIEWED: number;
              };
              decisions: {
                PENDING: number;
                READY: number;
                MINOR_REPAIR: number;
                MAJOR_REPAIR: number;
                REJECTED: number;
              };
              dispositions: {
                ACTIVE: number;
                REJECTED: number;
                DISCARDED: number;
                TIMED_OUT: number;
              };
            };
            trend: {
              date: string;
              events: number;
              reviews: number;
              comments: number;
            }[];
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
            freshness: {
              /** Format: date-time */
              latest_topic_created_at: string | null;
              /** Format: date-time */
              latest_topic_updated_at: string | null;
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
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.listExports': {
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
              includeEvents: boolean;
              /** @description The list filters, as sent (with defaults). */
              filters: Record<string, never>;
              /** @description Rows the list returned at the snapshot: the rows of the file. */
              rowsInSnapshot: number;
              rowsWritten: number;
              sizeBytes: number | null;
              sha256: string | null;
              error: string | null;
              /**
               * Format: date-time
               * @description When the snapshot was taken.
               */
              createdAt: string;
              /** Format: date-time */
              finishedAt: string | null;
              /**
               * Format: date-time
               * @description When the file is deleted (docs/exports.md).
               */
              expiresAt: string;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.createExport': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
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
            /** @description Case-insensitive literal substring of uid, title or category. */
            search?: string;
            /** @enum {string} */
            disposition?: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
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
          includeEvents?: boolean;
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
            includeEvents: boolean;
            /** @description The list filters, as sent (with defaults). */
            filters: Record<string, never>;
            /** @description Rows the list returned at the snapshot: the rows of the file. */
            rowsInSnapshot: number;
            rowsWritten: number;
            sizeBytes: number | null;
            sha256: string | null;
            error: string | null;
            /**
             * Format: date-time
             * @description When the snapshot was taken.
             */
            createdAt: string;
            /** Format: date-time */
            finishedAt: string | null;
            /**
             * Format: date-time
             * @description When the file is deleted (docs/exports.md).
             */
            expiresAt: string;
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
  'genomics.getExport': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        exportId: string;
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
            includeEvents: boolean;
            /** @description The list filters, as sent (with defaults). */
            filters: Record<string, never>;
            /** @description Rows the list returned at the snapshot: the rows of the file. */
            rowsInSnapshot: number;
            rowsWritten: number;
            sizeBytes: number | null;
            sha256: string | null;
            error: string | null;
            /**
             * Format: date-time
             * @description When the snapshot was taken.
             */
            createdAt: string;
            /** Format: date-time */
            finishedAt: string | null;
            /**
             * Format: date-time
             * @description When the file is deleted (docs/exports.md).
             */
            expiresAt: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.deleteExport': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        exportId: string;
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
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.downloadExport': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        exportId: string;
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
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      502: components['responses']['BadGateway'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.listKeys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Key metadata, revoked and expired included. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              /** Format: uuid */
              id: string;
              actor_id: string;
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
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.createKey': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          identityId: string;
          name: string;
          /** @enum {string} */
          role: 'REVIEWER' | 'OWNER' | 'ADMIN';
          scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
          expiresInDays: number;
        };
      };
    };
    responses: {
      /** @description The new key; its token is never shown again. */
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
            token: string;
            /** @enum {string} */
            role: 'REVIEWER' | 'OWNER' | 'ADMIN';
            scopes: ('read' | 'write' | 'files:read' | 'files:write' | 'paths:read' | 'keys:manage')[];
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
  'genomics.revokeKey': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key is revoked (again, if it already was). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            /** @constant */
            revoked: true;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.getSession': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Session user, workspace and key id. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            user: {
              id: string;
              username: string;
              display_name: string;
              email: string | null;
              enabled: boolean;
              /** @enum {string} */
              role: 'REVIEWER' | 'OWNER' | 'ADMIN';
              identityId: string;
            };
            workspace: {
              /** @constant */
              id: 'ws_genomics';
              /** @constant */
              environment: 'production';
            };
            apiKeyId: string | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.listTasks': {
    parameters: {
      query?: {
        limit?: number;
        /** @description Case-insensitive literal substring of uid, title or category. */
        search?: string;
        disposition?: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
        /** @description Cursor: the `next.batch` of the previous page; needs afterTopic. */
        afterBatch?: string;
        /** @description Cursor: the `next.topic` of the previous page; needs afterBatch. */
        afterTopic?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of tasks and the next cursor. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            }[];
            next: {
              batch: string;
              topic: number;
            } | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.listTopics': {
    parameters: {
      query?: {
        limit?: number;
        /** @description Case-insensitive literal substring of uid, title or category. */
        search?: string;
        disposition?: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
        /** @description Cursor: the `next.batch` of the previous page; needs afterTopic. */
        afterBatch?: string;
        /** @description Cursor: the `next.topic` of the previous page; needs afterBatch. */
        afterTopic?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of topics and the next cursor. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            }[];
            next: {
              batch: string;
              topic: number;
            } | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.createTopic': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          batch: string;
          topic: number;
          title: string;
          category: string;
          markdown: string;
        };
      };
    };
    responses: {
      /** @description The new topic’s uid, as a receipt. */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.getTopic': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The topic, its campaigns and clients. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
              markdown: string | null;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            };
            campaigns: {
              id: string;
              name: string;
              status: string;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
            }[];
            clients: {
              id: string;
              name: string;
              enabled: boolean;
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
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.updateTopic': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          title: string;
          category: string;
        };
      };
    };
    responses: {
      /** @description Receipt of the update. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.listAssignments': {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Assignments, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              reviewer_id: string;
              /** @enum {string} */
              status: 'ACTIVE' | 'SUBMITTED' | 'CANCELLED' | 'EXPIRED';
              instructions: string;
              /** Format: date-time */
              due_at: string | null;
              assigned_by: string | null;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
              /** Format: date-time */
              submitted_at: string | null;
              /** Format: date-time */
              closed_at: string | null;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.overrideDecision': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          expectedDecision: 'READY' | 'MINOR_REPAIR' | 'MAJOR_REPAIR' | 'REJECTED';
          /** @enum {string} */
          decision: 'READY' | 'MINOR_REPAIR' | 'MAJOR_REPAIR' | 'REJECTED';
          campaignId: string;
          reason: string;
        };
      };
    };
    responses: {
      /** @description Receipt of the override. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.setDisposition': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
          /**
           * @description The disposition the caller saw; a mismatch is a 409 and changes nothing.
           * @enum {string}
           */
          expectedDisposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
          reason: string;
        };
      };
    };
    responses: {
      /** @description Receipt of the change. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.listEvents': {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Events, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              kind: string;
              actor_id: string | null;
              workflow_version: number | null;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.getMeasurements': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The topic’s measurements. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              source_id: string;
              model_id: string;
              /** @enum {string} */
              scope: 'original_report' | 'public_package_rerun';
              /** @enum {string} */
              status: 'MEASURED' | 'UNAVAILABLE';
              scientific_passes: number | null;
              completed: number | null;
              pass_rate: number | null;
              /** Format: date-time */
              measured_at: string;
              artifact_sha256: string;
              reason: string | null;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.listNotes': {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Notes, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              campaign_id: string | null;
              /** @enum {string} */
              kind: 'topic' | 'campaign';
              author_id: string;
              body: string;
              body_sha256: string;
              edit_count: number;
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
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.createNote': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          body: string;
          campaignId: string | null;
        };
      };
    };
    responses: {
      /** @description Receipt naming the new note. */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.editNote': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
        noteId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          body: string;
          expectedBodySha256: string;
        };
      };
    };
    responses: {
      /** @description Receipt naming the edited note. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.getPaths': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Reports, revisions and publications with their storage paths and checksums. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            reports: {
              id: string;
              source_id: string;
              title: string;
              media_type: string;
              path: string;
              size: number;
              sha256: string;
              /** Format: date-time */
              reported_at: string | null;
            }[];
            revisions: {
              id: string;
              campaign_id: string;
              number: number;
              /** @enum {string} */
              status: 'IN_PROGRESS' | 'COMPLETED';
              notes: string;
              started_by: string | null;
              source_id: string | null;
              path: string | null;
              size: number | null;
              sha256: string | null;
              media_type: string | null;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              completed_at: string | null;
            }[];
            publications: {
              id: string;
              source_id: string;
              revision_id: string | null;
              title: string;
              media_type: string;
              path: string;
              size: number;
              sha256: string;
              /** Format: date-time */
              published_at: string | null;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.reopenReview': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          expectedDecision: string;
          campaignId: string;
          reason: string;
        };
      };
    };
    responses: {
      /** @description Receipt naming the reopened assignment. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
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
  'genomics.listReports': {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Reports, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              source_id: string;
              title: string;
              media_type: string;
              path: string;
              size: number;
              sha256: string;
              /** Format: date-time */
              reported_at: string | null;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.setReviewer': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          reviewerId: string | null;
          instructions: string;
          dueAt: null | (string | null);
        } & unknown;
      };
    };
    responses: {
      /** @description The reviewer and the new assignment (both null after a removal), with the receipt. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
            topicUid: string;
            reviewerId: string | null;
            assignmentId: string | null;
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
  'genomics.submitReview': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          assignmentId: string;
          /** @enum {string} */
          verdict: 'COMMENT' | 'READY_AS_IS' | 'MINOR_REPAIR' | 'MAJOR_REPAIR' | 'REJECTED';
          body: string;
        };
      };
    };
    responses: {
      /** @description The feedback id and the assignment’s status after it, with the receipt. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
            feedbackId: string;
            assignmentStatus: string;
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
  'genomics.listRevisions': {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revisions, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              id: string;
              campaign_id: string;
              number: number;
              /** @enum {string} */
              status: 'IN_PROGRESS' | 'COMPLETED';
              notes: string;
              started_by: string | null;
              source_id: string | null;
              path: string | null;
              size: number | null;
              sha256: string | null;
              media_type: string | null;
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              completed_at: string | null;
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.startRevision': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          campaignId: string;
          notes: string;
        };
      };
    };
    responses: {
      /** @description Receipt naming the started or resumed revision. */
      201: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
            revisionId: string;
            resumed: boolean;
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
  'genomics.replaceTags': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        topicUid: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          tags: string[];
        };
      };
    };
    responses: {
      /** @description The stored tags, with the receipt. */
      200: {
        headers: {
          /** @description `true` when this response is the stored receipt of an earlier request with the same key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            topicUid: string;
            /** @enum {string} */
            recordType: 'topic' | 'note' | 'assignment' | 'review' | 'revision';
            /** @description The record id; the topicUid when the record is the topic. */
            recordId: string;
            eventId: string;
            topic: {
              uid: string;
              batch: string;
              topic: string;
              title: string | null;
              category: string | null;
              /** @enum {string} */
              workflow_status: 'UNASSIGNED' | 'ASSIGNED' | 'IN_REVIEW' | 'REVIEWED';
              decision: string;
              previous_decision: string | null;
              requires_re_review: boolean;
              decision_campaign_id: string | null;
              submission_campaign_id: string | null;
              /** @enum {string} */
              disposition: 'ACTIVE' | 'REJECTED' | 'DISCARDED' | 'TIMED_OUT';
              planned_reviewer_id: string | null;
              current_package_version_id: string | null;
              deliverable_selection_revision: string;
              client_ids: string[];
              /** @enum {string} */
              exclusivity: 'NONE' | 'EXCLUSIVE' | 'SHARED';
              campaign_id: string | null;
              status: string | null;
              phase: string | null;
              classification: string | null;
              tags: string[];
            };
            record: Record<string, never> | null;
            tags: string[];
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
  'genomics.listWebhooks': {
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
            items: {
              /** Format: uuid */
              id: string;
              url: string;
              description: string;
              event_types: (
                | 'genomics.topic.reviewer_assigned'
                | 'genomics.topic.reviewer_removed'
                | 'genomics.topic.comment_added'
                | 'genomics.topic.review_submitted'
                | 'genomics.topic.decision_overridden'
                | 'genomics.topic.review_reopened'
                | 'genomics.topic.disposition_changed'
                | 'genomics.topic.revision_started'
                | 'genomics.topic.revision_resumed'
                | 'genomics.topic.assignment_expired'
                | 'genomics.import.completed'
                | 'genomics.import.failed'
                | 'genomics.key.revoked'
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
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.createWebhook': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uri */
          url: string;
          description: string;
          eventTypes: (
            | 'genomics.topic.reviewer_assigned'
            | 'genomics.topic.reviewer_removed'
            | 'genomics.topic.comment_added'
            | 'genomics.topic.review_submitted'
            | 'genomics.topic.decision_overridden'
            | 'genomics.topic.review_reopened'
            | 'genomics.topic.disposition_changed'
            | 'genomics.topic.revision_started'
            | 'genomics.topic.revision_resumed'
            | 'genomics.topic.assignment_expired'
            | 'genomics.import.completed'
            | 'genomics.import.failed'
            | 'genomics.key.revoked'
          )[];
          /** @description How many deliveries are sent to the endpoint at once, each of another subject (default 16); omitted on update: unchanged. */
          maxInFlight?: number;
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
              | 'genomics.topic.reviewer_assigned'
              | 'genomics.topic.reviewer_removed'
              | 'genomics.topic.comment_added'
              | 'genomics.topic.review_submitted'
              | 'genomics.topic.decision_overridden'
              | 'genomics.topic.review_reopened'
              | 'genomics.topic.disposition_changed'
              | 'genomics.topic.revision_started'
              | 'genomics.topic.revision_resumed'
              | 'genomics.topic.assignment_expired'
              | 'genomics.import.completed'
              | 'genomics.import.failed'
              | 'genomics.key.revoked'
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.getWebhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
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
              | 'genomics.topic.reviewer_assigned'
              | 'genomics.topic.reviewer_removed'
              | 'genomics.topic.comment_added'
              | 'genomics.topic.review_submitted'
              | 'genomics.topic.decision_overridden'
              | 'genomics.topic.review_reopened'
              | 'genomics.topic.disposition_changed'
              | 'genomics.topic.revision_started'
              | 'genomics.topic.revision_resumed'
              | 'genomics.topic.assignment_expired'
              | 'genomics.import.completed'
              | 'genomics.import.failed'
              | 'genomics.key.revoked'
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.updateWebhook': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uri */
          url: string;
          description: string;
          eventTypes: (
            | 'genomics.topic.reviewer_assigned'
            | 'genomics.topic.reviewer_removed'
            | 'genomics.topic.comment_added'
            | 'genomics.topic.review_submitted'
            | 'genomics.topic.decision_overridden'
            | 'genomics.topic.review_reopened'
            | 'genomics.topic.disposition_changed'
            | 'genomics.topic.revision_started'
            | 'genomics.topic.revision_resumed'
            | 'genomics.topic.assignment_expired'
            | 'genomics.import.completed'
            | 'genomics.import.failed'
            | 'genomics.key.revoked'
          )[];
          /** @enum {string} */
          status: 'ACTIVE' | 'PAUSED';
          /** @description How many deliveries are sent to the endpoint at once, each of another subject (default 16); omitted on update: unchanged. */
          maxInFlight?: number;
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
              | 'genomics.topic.reviewer_assigned'
              | 'genomics.topic.reviewer_removed'
              | 'genomics.topic.comment_added'
              | 'genomics.topic.review_submitted'
              | 'genomics.topic.decision_overridden'
              | 'genomics.topic.review_reopened'
              | 'genomics.topic.disposition_changed'
              | 'genomics.topic.revision_started'
              | 'genomics.topic.revision_resumed'
              | 'genomics.topic.assignment_expired'
              | 'genomics.import.completed'
              | 'genomics.import.failed'
              | 'genomics.key.revoked'
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.deleteWebhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
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
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.listWebhookDeliveries': {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deliveries; page on with `before`. */
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
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.redeliverWebhookDelivery': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        webhookId: string;
        deliveryId: string;
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
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'genomics.rotateWebhookSecret': {
    parameters: {
      query?: never;
      header: {
        /** @description Makes the request safe to retry: the same key with the same request returns the stored receipt; the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` (for example a UUID). Required. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          gracePeriodHours: number;
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
              | 'genomics.topic.reviewer_assigned'
              | 'genomics.topic.reviewer_removed'
              | 'genomics.topic.comment_added'
              | 'genomics.topic.review_submitted'
              | 'genomics.topic.decision_overridden'
              | 'genomics.topic.review_reopened'
              | 'genomics.topic.disposition_changed'
              | 'genomics.topic.revision_started'
              | 'genomics.topic.revision_resumed'
              | 'genomics.topic.assignment_expired'
              | 'genomics.import.completed'
              | 'genomics.import.failed'
              | 'genomics.key.revoked'
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
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  'webhook.genomics.topic.reviewer_assigned': {
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
          type: 'genomics.topic.reviewer_assigned';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.reviewer_removed': {
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
          type: 'genomics.topic.reviewer_removed';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.comment_added': {
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
          type: 'genomics.topic.comment_added';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.review_submitted': {
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
          type: 'genomics.topic.review_submitted';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.decision_overridden': {
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
          type: 'genomics.topic.decision_overridden';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.review_reopened': {
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
          type: 'genomics.topic.review_reopened';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.disposition_changed': {
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
          type: 'genomics.topic.disposition_changed';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.revision_started': {
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
          type: 'genomics.topic.revision_started';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.revision_resumed': {
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
          type: 'genomics.topic.revision_resumed';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.topic.assignment_expired': {
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
          type: 'genomics.topic.assignment_expired';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
            /** @description The topic event, as `/api/v1/topics/{topicUid}/events` lists it. */
            event_id: string;
            kind: string;
            workflow_version: number;
            decision: string;
            previous_decision: string | null;
            requires_re_review: boolean;
            disposition: string;
            campaign_id: string | null;
            planned_reviewer_id: string | null;
            workflow_status: string;
            status: string;
            phase: string;
            /** @description The member who acted; null for the due-date timer. */
            actor_id: string | null;
            /** @description The event’s detail, with the ids of records it created. */
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
  'webhook.genomics.import.completed': {
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
          type: 'genomics.import.completed';
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
  'webhook.genomics.import.failed': {
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
          type: 'genomics.import.failed';
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
  'webhook.genomics.key.revoked': {
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
          type: 'genomics.key.revoked';
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
  'webhook.genomics.topic.withdrawn': {
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
          type: 'genomics.topic.withdrawn';
          /**
           * Format: date-time
           * @description When the event committed (UTC).
           */
          timestamp: string;
          /** @description This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery. */
          sequence: number;
          data: {
            /** @description The topic (as in `/api/v1/topics/{topicUid}`). */
            topic_uid: string;
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
