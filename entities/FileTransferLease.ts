import { Check, Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { ApiKey } from './ApiKey';

/**
 * One upload or download in flight for an API key. The per-key file-concurrency limit counts live leases,
 * so it holds across API processes; a lease of a crashed process expires unless its holder renews it.
 */
@Index('file_transfer_leases_key', ['keyId', 'expiresAt'])
@Check('file_transfer_leases_direction_check', "(direction = ANY (ARRAY['upload'::text, 'download'::text]))")
@Entity({ name: 'file_transfer_leases' })
export class FileTransferLease {
  @PrimaryColumn({ type: 'uuid', name: 'lease_id' }) leaseId!: string;
  @Column({ type: 'uuid', name: 'key_id' }) keyId!: string;
  @Column({ type: 'text' }) direction!: 'upload' | 'download';
  @Column({ type: 'text', name: 'operation_id' }) operationId!: string;
  @Column({ type: 'timestamptz', name: 'acquired_at', default: () => 'now()' }) acquiredAt!: Date;
  @Column({ type: 'timestamptz', name: 'expires_at' }) expiresAt!: Date;

  @ManyToOne(() => ApiKey)
  @ForeignKey('file_transfer_leases_key_id_fkey', 'key_id')
  key?: Relation<ApiKey>;
}
