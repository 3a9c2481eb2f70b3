import { apiKeyAuthenticator } from '../kernel/authenticate';
import type { ServiceDefinition } from '../kernel/operation';
import { exportOperations } from './exports/operations';
import { genomicsProblemTypes } from './problems';
import { dashboardAssertionAuthenticator } from './dashboardAssertion/authenticator';
import { analyticsOperations } from './analytics/operations';
import { keyOperations } from './keys/operations';
import { noteOperations } from './notes/operations';
import { recordOperations } from './records/operations';
import { reviewOperations } from './review/operations';
import { sessionOperations } from './session/operations';
import { topicOperations } from './topics/operations';
import { webhookOperations } from './webhooks/operations';
import { genomicsOpenApi } from './openapi';

/** The genomics workspace API v1, mounted under /api/v1. */
export const genomicsService: ServiceDefinition = {
  name: 'genomics',
  title: 'Referee genomics workspace API',
  version: '1.0.0',
  openApi: genomicsOpenApi,
  problemTypes: genomicsProblemTypes,
  authenticators: [dashboardAssertionAuthenticator, apiKeyAuthenticator],
  operations: [
    ...sessionOperations,
    ...keyOperations,
    ...topicOperations,
    ...exportOperations,
    ...recordOperations,
    ...noteOperations,
    ...reviewOperations,
    ...analyticsOperations,
    ...webhookOperations,
  ],
};
