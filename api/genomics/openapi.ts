import { GENOMICS_WEBHOOK_EVENTS } from '../../webhooks/payloads';
import { API_KEY_SECURITY_DESCRIPTION } from '../kernel/openapi';
import type { ServiceOpenApi } from '../kernel/operation';

/** What the genomics service's published OpenAPI document says of itself. */
export const genomicsOpenApi: ServiceOpenApi = {
  description:
    'The genomics review workspace: topics and tasks, measurements, storage paths, notes, reviews, ' +
    'decisions and dispositions, API keys. Contract version 1.0.0, generated from the service’s operation ' +
    'declarations. Errors are `application/problem+json`; their `type` URIs are explained at `/docs/problems`.',
  pathPrefixes: ['/api/v1/'],
  bearerFormat: 'rfg_<key id>_<secret>',
  securityDescription:
    `${API_KEY_SECURITY_DESCRIPTION} The dashboard may instead send a request-bound dashboard assertion, ` +
    '`Authorization: Assertion <compact JWS>`, subject to the same role and scope checks.',
  // The genomics spec: "Every operation may answer with the statuses below."
  everyOperationMayAnswer: [404, 409, 413, 422, 429, 503],
  webhooks: GENOMICS_WEBHOOK_EVENTS,
  problemDescriptions: {
    400: 'Invalid request.',
    401: 'Missing or invalid credential.',
    403: 'Permission denied.',
    404: 'Not found in your workspace.',
    409: 'State or idempotency conflict.',
    413: 'Payload too large.',
    415: 'Unsupported media type.',
    422: 'Evidence validation failed.',
    429: 'Rate or file concurrency limit.',
    502: 'A stored object failed verification; nothing is served.',
    503: 'Maintenance, unavailable authority or dependency.',
  },
};
