import { Check, Column, Entity, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import type { ServiceName } from './types';

/** The committed receipt of an Idempotency-Key request, scoped to the calling member. */
@Check('idempotency_records_state_check', "(state = ANY (ARRAY['IN_PROGRESS'::text, 'COMPLETED'::text]))")
@Entity({ name: 'idempotency_records' })
export class IdempotencyRecord {
  @PrimaryColumn({ type: 'text' }) service!: ServiceName;
  @PrimaryColumn({ type: 'bigint', name: 'member_id' }) memberId!: string;
  @PrimaryColumn({ type: 'text', name: 'idempotency_key' }) idempotencyKey!: string;
  @Column({ type: 'text', name: 'operation_id' }) operationId!: string;

  /** SHA-256 of method, path and canonical body: the same key with another request is a conflict. */
  @Column({ type: 'text', name: 'request_hash' }) requestHash!: string;
  @Column({ type: 'text' }) state!: 'IN_PROGRESS' | 'COMPLETED';

  /** An in-progress claim older than this was abandoned by a crashed or stuck process and may be taken over. */
  @Column({ type: 'timestamptz', name: 'locked_until', nullable: true }) lockedUntil!: Date | null;

  /**
   * The backend pid of the claiming API process's liveness session: once PostgreSQL no longer has that session
   * (this pid with `holderStarted`), the holder is dead and the claim may be taken over before `lockedUntil`.
   */
  @Column({ type: 'integer', name: 'holder_pid', nullable: true }) holderPid!: number | null;

  /** When the holder's liveness session began (its `backend_start`): tells a reused pid from the holder's. */
  @Column({ type: 'timestamptz', name: 'holder_started', nullable: true }) holderStarted!: Date | null;
  @Column({ type: 'integer', name: 'response_status', nullable: true }) responseStatus!: number | null;
  @Column({ type: 'jsonb', name: 'response_body', nullable: true }) responseBody!: unknown;
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'completed_at', nullable: true }) completedAt!: Date | null;

  @ManyToOne(() => Member)
  @ForeignKey('idempotency_records_member_id_fkey', 'member_id')
  member?: Relation<Member>;
}
