import { WebhookRefusal } from '../../../webhooks/management';
import { type ApiError, problems } from '../../kernel/errors';
import { sharedProblems } from '../problems';

/*
 * A refusal of webhook management (webhooks/management.ts) as both APIs answer it.
 */

/** A refusal as both services answer it. */
function problemOf(refusal: WebhookRefusal): ApiError {
  switch (refusal.code) {
    case 'endpoint_not_found':
    case 'delivery_not_found':
      return problems.notFound(refusal.detail.missing ?? 'The resource');
    case 'webhooks_not_configured':
      return problems.webhooksNotConfigured();
    case 'webhook_target_refused':
      return sharedProblems.badRequest('webhook_target_refused', refusal.message, {
        reason: refusal.detail.reason,
      });
    default:
      return sharedProblems.conflict(refusal.code, refusal.message);
  }
}

/** Runs a management change, answering a refusal as a problem. */
export async function answerRefusals<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof WebhookRefusal) throw problemOf(error);
    throw error;
  }
}
