import type { ServiceName } from '../../../entities/types';
import { WebhookRefusal } from '../../../webhooks/management';
import { type ApiError, problems } from '../../kernel/errors';
import { sharedProblems } from '../problems';

/*
 * A refusal of webhook management (webhooks/management.ts) as both APIs answer it: each service's problem document.
 */

/** A refused target is 422 in math (its convention for an unusable reference), 400 in genomics. */
export const targetRefusedStatus = (service: ServiceName): 400 | 422 => (service === 'math' ? 422 : 400);

/** A refusal as the service answers it. */
function problemOf(service: ServiceName, refusal: WebhookRefusal): ApiError {
  switch (refusal.code) {
    case 'endpoint_not_found':
    case 'delivery_not_found':
      return problems.notFound(refusal.detail.missing ?? 'The resource');
    case 'webhooks_not_configured':
      return problems.webhooksNotConfigured();
    case 'webhook_target_refused': {
      const problem =
        targetRefusedStatus(service) === 422
          ? sharedProblems.unprocessable('webhook_target_refused', refusal.message)
          : sharedProblems.badRequest('webhook_target_refused', refusal.message);
      return Object.assign(problem, { extensions: { reason: refusal.detail.reason } });
    }
    default:
      return sharedProblems.conflict(refusal.code, refusal.message);
  }
}

/** Runs a management change, answering a refusal as the service's problem. */
export async function answerRefusals<T>(service: ServiceName, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof WebhookRefusal) throw problemOf(service, error);
    throw error;
  }
}
