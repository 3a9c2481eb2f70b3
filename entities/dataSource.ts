import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { type PoolDeadlines, poolDeadlineOptions } from './poolDeadlines';
import { ApiKey } from './ApiKey';
import { DashboardAssertionUse } from './DashboardAssertionUse';
import { IdempotencyRecord } from './IdempotencyRecord';
import { IdentityAudit } from './IdentityAudit';
import { KeyEvent } from './KeyEvent';
import { MathArtifact } from './MathArtifact';
import { MathClient } from './MathClient';
import { MathClientEvent } from './MathClientEvent';
import { MathReport } from './MathReport';
import { MathRun } from './MathRun';
import { MathTask } from './MathTask';
import { MathTaskEvent } from './MathTaskEvent';
import { MathTopic } from './MathTopic';
import { Member } from './Member';
import { FileTransferLease } from './FileTransferLease';
import { MathAttachment } from './MathAttachment';
import { MathBugReport } from './MathBugReport';
import { MathTaskEvidence } from './MathTaskEvidence';
import { StorageAudit } from './StorageAudit';
import { GenomicsCampaign } from './GenomicsCampaign';
import { GenomicsClient } from './GenomicsClient';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsTopicCampaign } from './GenomicsTopicCampaign';
import { GenomicsTopicClient } from './GenomicsTopicClient';
import { GenomicsAssignment } from './GenomicsAssignment';
import { GenomicsReview } from './GenomicsReview';
import { GenomicsRevision } from './GenomicsRevision';
import { GenomicsReport } from './GenomicsReport';
import { GenomicsPublication } from './GenomicsPublication';
import { GenomicsMeasurement } from './GenomicsMeasurement';
import { GenomicsNote } from './GenomicsNote';
import { GenomicsEvent } from './GenomicsEvent';
import { GenomicsImport } from './GenomicsImport';
import { ImportRun } from './ImportRun';
import { ImportArtifactReceipt } from './ImportArtifactReceipt';
import { OperatorCheckpoint } from './OperatorCheckpoint';
import { ProjectionRepair } from './ProjectionRepair';
import { ConsoleSession } from './ConsoleSession';
import { ConsoleSignIn } from './ConsoleSignIn';
import { RateLimitBucket } from './RateLimitBucket';
import { WebhookAttempt } from './WebhookAttempt';
import { WebhookDelivery } from './WebhookDelivery';
import { WebhookEndpoint } from './WebhookEndpoint';
import { WebhookEvent } from './WebhookEvent';
import { WebhookDeliveryPolling } from './WebhookDeliveryPolling';
import { WebhookSubjectSequence } from './WebhookSubjectSequence';
import { Export } from './Export';
import { ExportPart } from './ExportPart';
import { ExportRow } from './ExportRow';
import { ScimToken } from './ScimToken';
import { ScimUser } from './ScimUser';
import { ScimGroup } from './ScimGroup';
import { ScimGroupMember } from './ScimGroupMember';
import { ScimAudit } from './ScimAudit';
import { Foundation1732200000000 } from './migrations/1732200000000-Foundation';
import { KeysAndAssertions1732300000000 } from './migrations/1732300000000-KeysAndAssertions';
import { MathReviewLists1732400000000 } from './migrations/1732400000000-MathReviewLists';
import { Genomics1732500000000 } from './migrations/1732500000000-Genomics';
import { MathFiles1732600000000 } from './migrations/1732600000000-MathFiles';
import { Imports1732700000000 } from './migrations/1732700000000-Imports';
import { RateLimits1732800000000 } from './migrations/1732800000000-RateLimits';
import { TransferLeaseFunction1732900000000 } from './migrations/1732900000000-TransferLeaseFunction';
import { ListChangeStamps1765000000000 } from './migrations/1765000000000-ListChangeStamps';
import { AuthChangeNotifications1765000000001 } from './migrations/1765000000001-AuthChangeNotifications';
import { OperatorTools1766000000000 } from './migrations/1766000000000-OperatorTools';
import { FencedTransitions1767000000000 } from './migrations/1767000000000-FencedTransitions';
import { Webhooks1767000000026 } from './migrations/1767000000026-Webhooks';
import { WebhookWithdrawals1767100000026 } from './migrations/1767100000026-WebhookWithdrawals';
import { IdempotencyClaimHolders1767200000041 } from './migrations/1767200000041-IdempotencyClaimHolders';
import { WebhookBatchDelivery1767300000040 } from './migrations/1767300000040-WebhookBatchDelivery';
import { ConsoleSessions1767300000042 } from './migrations/1767300000042-ConsoleSessions';
import { AuditAndSignInPurges1767600000057 } from './migrations/1767600000057-AuditAndSignInPurges';
import { WebhookDeliveryPolling1767500000040 } from './migrations/1767500000040-WebhookDeliveryPolling';
import { DashboardIndexes1767600000052 } from './migrations/1767600000052-DashboardIndexes';
import { WebhookDeliverySubjects1767400000040 } from './migrations/1767400000040-WebhookDeliverySubjects';
import { Exports1767600000051 } from './migrations/1767600000051-Exports';
import { ScimProvisioning1767600000056 } from './migrations/1767600000056-ScimProvisioning';

export const entities = [
  Member,
  ApiKey,
  IdempotencyRecord,
  KeyEvent,
  IdentityAudit,
  DashboardAssertionUse,
  MathRun,
  MathTopic,
  MathArtifact,
  MathReport,
  MathClient,
  MathTask,
  MathTaskEvent,
  MathClientEvent,
  MathTaskEvidence,
  MathAttachment,
  MathBugReport,
  StorageAudit,
  FileTransferLease,
  GenomicsCampaign,
  GenomicsClient,
  GenomicsTopic,
  GenomicsTopicCampaign,
  GenomicsTopicClient,
  GenomicsAssignment,
  GenomicsReview,
  GenomicsRevision,
  GenomicsReport,
  GenomicsPublication,
  GenomicsMeasurement,
  GenomicsNote,
  GenomicsEvent,
  GenomicsImport,
  RateLimitBucket,
  ImportRun,
  ImportArtifactReceipt,
  OperatorCheckpoint,
  ProjectionRepair,
  WebhookEndpoint,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
  WebhookSubjectSequence,
  WebhookDeliveryPolling,
  ConsoleSession,
  ConsoleSignIn,
  Export,
  ExportRow,
  ExportPart,
  ScimToken,
  ScimUser,
  ScimGroup,
  ScimGroupMember,
  ScimAudit,
];

export const migrations = [
  Foundation1732200000000,
  KeysAndAssertions1732300000000,
  MathReviewLists1732400000000,
  Genomics1732500000000,
  MathFiles1732600000000,
  Imports1732700000000,
  RateLimits1732800000000,
  TransferLeaseFunction1732900000000,
  ListChangeStamps1765000000000,
  AuthChangeNotifications1765000000001,
  OperatorTools1766000000000,
  FencedTransitions1767000000000,
  Webhooks1767000000026,
  WebhookWithdrawals1767100000026,
  IdempotencyClaimHolders1767200000041,
  WebhookBatchDelivery1767300000040,
  ConsoleSessions1767300000042,
  WebhookDeliverySubjects1767400000040,
  WebhookDeliveryPolling1767500000040,
  Exports1767600000051,
  DashboardIndexes1767600000052,
  ScimProvisioning1767600000056,
  AuditAndSignInPurges1767600000057,
];

/**
 * Builds (does not connect) the project's data source. The schema comes from migrations only. The API and the
 * worker pass `deadlines` (entities/poolDeadlines.ts); the ops CLI's long statements (imports, migrations) run
 * without.
 */
export function createDataSource(url: string, poolSize = 10, deadlines?: PoolDeadlines): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    extra: { max: poolSize, application_name: 'referee', ...(deadlines && poolDeadlineOptions(deadlines)) },
    logging: ['error'],
  });
}

/** The connection pool's state (node-postgres's counters), for the processes' pool metrics; null before it connects. */
export function poolStateOf(dataSource: DataSource) {
  const pool = (
    dataSource.driver as {
      master?: { totalCount: number; idleCount: number; waitingCount: number; options?: { max?: number } };
    }
  ).master;
  if (!pool) return null;
  return {
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options?.max ?? 10,
  };
}

/** Connects and brings the schema up to date. */
export async function connectAndMigrate(url: string, poolSize = 10): Promise<DataSource> {
  const dataSource = createDataSource(url, poolSize);
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
