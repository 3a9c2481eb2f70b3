import { Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { Member } from './Member';

/** A genomics dashboard assertion that has been used; kept until it expires so a replay is refused. */
@Index('dashboard_assertion_uses_expires', ['expiresAt'])
@Entity({ name: 'dashboard_assertion_uses' })
export class DashboardAssertionUse {
  @PrimaryColumn({ type: 'text' }) jti!: string;
  @Column({ type: 'bigint', name: 'member_id' }) memberId!: string;
  @Column({ type: 'text' }) method!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ type: 'timestamptz', name: 'expires_at' }) expiresAt!: Date;
  @Column({ type: 'timestamptz', name: 'used_at', default: () => 'now()' }) usedAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('dashboard_assertion_uses_member_id_fkey', 'member_id')
  member?: Relation<Member>;
}
