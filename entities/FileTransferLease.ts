import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One upload or download in flight for an API key. The per-key file-concurrency limit counts live leases,
 * so it holds across API processes; a lease of a crashed process expires unless its holder renews it.
 */
@Entity({ name: 'file_transfer_leases' })
export class FileTransferLease {
  @PrimaryColumn({ type: 'uuid', name: 'lease_id' })
  leaseId!: string;

  @Column({ type: 'uuid', name: 'key_id' })
  keyId!: string;

  @Column({ type: 'text' })
  direction!: 'upload' | 'download';

  @Column({ type: 'text', name: 'operation_id' })
  operationId!: string;

  @Column({ type: 'timestamptz', name: 'acquired_at' })
  acquiredAt!: Date;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt!: Date;
}
