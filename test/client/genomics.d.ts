/**
 * The Referee genomics workspace API, as `paths`/`operations` types for openapi-fetch.
 * Generated from /api/v1/openapi.json by `npm run generate:client`: do not edit.
 */

export interface paths {
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
}
export type webhooks = Record<string, never>;
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
}
