import type { S3Client } from '@aws-sdk/client-s3';
import type { Client, Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import type { ApiMetrics } from '../../observability/apiMetrics';
import type { AuthFailureAudit } from './authFailureAudit';
import type { KeyWithMemberRow, LastUsedRecorder } from './authenticate';
import type { KeyCache } from './keyCache';
import type { LivenessSession } from './livenessSession';
import type { RateLimiter } from './rateLimit';

/**
 * What a service adds to the dependencies its handlers get: each service declares its own members by augmenting
 * this interface in its own folder; the kernel names none of them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the services fill it
export interface ServiceDeps {}

/** What handlers may use; built once per API process. */
export interface AppDeps extends ServiceDeps {
  config: Config;
  dataSource: DataSource;
  temporal: { client: Client; connection: Connection };
  s3: S3Client;
  logger: Logger;
  /** The process's metrics (docs/observability.md). */
  metrics: ApiMetrics;
  lastUsed: LastUsedRecorder;
  /** Refused credentials, counted and written to the identity audit per interval (authFailureAudit.ts). */
  authFailures: AuthFailureAudit;
  /** The process's own PostgreSQL session, named by its Idempotency-Key claims (docs/decisions.md). */
  liveness: LivenessSession;
  /** API keys looked up recently, ended by LISTEN/NOTIFY; absent: one query per request. */
  keyCache?: KeyCache<KeyWithMemberRow>;
  /** The per-key request rate limit (docs/limits.md); absent: no request rate limit. */
  rateLimiter?: RateLimiter;
  /** Validate every success response against its declared schema (on in tests). */
  validateResponses: boolean;
}
