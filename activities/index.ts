import type { S3Client } from '@aws-sdk/client-s3';
import type { DataSource } from 'typeorm';
import { exportActivities } from './exports';
import { ForegroundWork } from './foreground';
import { genomicsImportActivities } from './genomicsImport';
import { genomicsTransitionActivities } from './genomicsTransitions';
import { importCommonActivities } from './importCommon';
import { mathImportActivities } from './mathImport';
import { mathTransitionActivities } from './mathTransitions';
import { webhookDeliveryActivities, type WebhookDeliveryDeps } from './webhookDelivery';

/** Dependencies injected into every activity; the worker builds them once. */
export interface ActivityDeps {
  dataSource: DataSource;
  s3: S3Client;
  /** Bucket holding imported artifacts and uploads. */
  bucket: string;
  webhooks: WebhookDeliveryDeps;
  /** Bytes per part of an export's upload (`EXPORT_PART_BYTES`); default 8 MiB. */
  exportPartBytes?: number;
  /** An export's share of the time while transitions run (`EXPORT_SHARE_UNDER_LOAD`); default 1, none given way. */
  exportShareUnderLoad?: number;
}

/** All activities of the worker, closed over their clients (workflows `import type` this only). */
export function createActivities(deps: ActivityDeps) {
  const foreground = new ForegroundWork();
  return {
    ...mathTransitionActivities(deps.dataSource, foreground),
    ...importCommonActivities(deps),
    ...mathImportActivities(deps),
    ...genomicsTransitionActivities(deps.dataSource, foreground),
    ...genomicsImportActivities(deps),
    ...webhookDeliveryActivities(deps.dataSource, deps.webhooks),
    ...exportActivities({
      dataSource: deps.dataSource,
      s3: deps.s3,
      bucket: deps.bucket,
      partBytes: deps.exportPartBytes ?? 8 * 1024 * 1024,
      foreground,
      shareUnderLoad: deps.exportShareUnderLoad ?? 1,
    }),
  };
}
