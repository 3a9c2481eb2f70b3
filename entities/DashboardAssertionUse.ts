import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A genomics dashboard assertion that has been used; kept until it expires so a replay is refused. */
@Entity({ name: 'dashboard_assertion_uses' })
export class DashboardAssertionUse {
  @PrimaryColumn({ type: 'text' })
  jti!: string;

  @Column({ type: 'bigint', name: 'member_id' })
  memberId!: string;

  @Column({ type: 'text' })
  method!: string;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', name: 'used_at' })
  usedAt!: Date;
}
