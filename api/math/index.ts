import type { ServiceDefinition } from '../kernel/operation';
import { exportOperations } from './exports/operations';
import { mathProblemTypes } from './problems';
import { activityOperations } from './activity/operations';
import { analyticsOperations } from './analytics/operations';
import { artifactOperations } from './artifacts/operations';
import { attachmentOperations } from './attachments/operations';
import { bugReportOperations } from './bugReports/operations';
import { clientOperations } from './clients/operations';
import { evidenceOperations } from './evidence/operations';
import { keyOperations } from './keys/operations';
import { memberOperations } from './members/operations';
import { monitorOperations } from './monitor/operations';
import { noteOperations } from './notes/operations';
import { reportOperations } from './reports/operations';
import { runOperations } from './runs/operations';
import { seedOperations } from './seeds/operations';
import { sessionOperations } from './session/operations';
import { taskOperations } from './tasks/operations';
import { topicOperations } from './topics/operations';
import { webhookOperations } from './webhooks/operations';
import { mathOpenApi } from './openapi';

/** The math review API, mounted under /api. */
export const mathService: ServiceDefinition = {
  name: 'math',
  title: 'Referee math review API',
  version: '1.0.0',
  openApi: mathOpenApi,
  problemTypes: mathProblemTypes,
  operations: [
    ...sessionOperations,
    ...taskOperations,
    ...exportOperations,
    ...noteOperations,
    ...seedOperations,
    ...topicOperations,
    ...runOperations,
    ...reportOperations,
    ...monitorOperations,
    ...activityOperations,
    ...analyticsOperations,
    ...clientOperations,
    ...memberOperations,
    ...keyOperations,
    ...artifactOperations,
    ...evidenceOperations,
    ...attachmentOperations,
    ...bugReportOperations,
    ...webhookOperations,
  ],
};
