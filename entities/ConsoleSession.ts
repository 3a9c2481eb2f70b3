import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { CreatedAtColumn } from './columns';

/**
 * A console session opened by signing in with the OpenID Provider: revocable, ended by its idle and absolute
 * lifetimes. `subject` is the member claim's value, matched to members' `identity_id` in each service.
 */
// USING btree (subject) WHERE (ended_at IS NULL)
@Index('console_sessions_open_subject', { synchronize: false })
@Unique('console_sessions_secret_hash_key', ['secretHash'])
@Entity({ name: 'console_sessions' })
export class ConsoleSession {
  @PrimaryColumn({ type: 'uuid' }) id!: string;

  /** SHA-256 of the cookie's secret; the secret itself is never stored. */
  @Column({ type: 'bytea', name: 'secret_hash', select: false }) secretHash!: Buffer;
  @Column({ type: 'text' }) subject!: string;
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_seen_at', default: () => 'now()' }) lastSeenAt!: Date;
  @Column({ type: 'timestamptz', name: 'expires_at' }) expiresAt!: Date;
  @Column({ type: 'timestamptz', name: 'ended_at', nullable: true }) endedAt!: Date | null;
  @Column({ type: 'text', name: 'ended_reason', nullable: true }) endedReason!: string | null;
}
