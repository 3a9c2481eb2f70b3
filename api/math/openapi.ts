import { MATH_WEBHOOK_EVENTS } from '../../webhooks/payloads';
import { API_KEY_SECURITY_DESCRIPTION } from '../kernel/openapi';
import type { ServiceOpenApi } from '../kernel/operation';

/** What the math service's published OpenAPI document says of itself. */
export const mathOpenApi: ServiceOpenApi = {
  description:
    'Imported math research runs, tasks and their versioned review workflow, reports and artifacts, ' +
    'clients, members and API keys. Generated from the service’s operation declarations. ' +
    'Errors are `application/problem+json`; their `type` URIs are explained at `/docs/problems`.',
  pathPrefixes: ['/api/math/', '/api/'],
  bearerFormat: 'rfm_<key id>_<secret>',
  securityDescription: API_KEY_SECURITY_DESCRIPTION,
  webhooks: MATH_WEBHOOK_EVENTS,
  problemDescriptions: {
    400: 'Invalid request.',
    401: 'Missing or invalid credential.',
    403: 'Permission denied: role, key scope, or a task not assigned to the Reviewer.',
    404: 'Not found, or not visible to the caller.',
    409: 'Conflict: a stale version or timestamp, a duplicate, or an Idempotency-Key reused for another request.',
    413: 'Payload too large.',
    415: 'Unsupported media type.',
    422: 'Unprocessable request: a referenced client cannot be used.',
    429: 'Too many requests.',
    502: 'A stored object failed verification (missing, or not the recorded size and SHA-256); nothing is served.',
    503: 'A dependency is unavailable; retry after `Retry-After` seconds.',
  },
};
