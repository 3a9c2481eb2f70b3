import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAtColumn } from './columns';

/**
 * The shared request budget of one API key (`key:<uuid>`) or dashboard-assertion member (`member:<id>`),
 * as a GCRA token bucket: `tat` is when the bucket is full again, so `tat - now()` is the debt left.
 */
@Entity({ name: 'rate_limit_buckets' })
export class RateLimitBucket {
  @PrimaryColumn({ type: 'text' }) subject!: string;

  @Column({
    type: 'timestamptz',
    comment:
      'Theoretical arrival time (GCRA): the bucket is full again at this instant; tat - now() is its debt.',
  })
  tat!: Date;

  @UpdatedAtColumn() updatedAt!: Date;
}
