import { Check, Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { CreatedAtColumn, ForeignKey, IdentityPrimaryColumn, UpdatedAtColumn } from './columns';
import { Member } from './Member';
import { GenomicsRevision } from './GenomicsRevision';
import { GenomicsCampaign } from './GenomicsCampaign';
import type { Disposition, TopicDecision, WorkflowStatus } from '../workflows/genomicsTask/state';

/**
 * A genomics topic and its one task. Brief fields (title, category, markdown, tags) are written by the
 * API; the review projection (decision … workflow_version) only by the task workflow's persisting activity.
 */
// USING gin (category gin_trgm_ops)
@Index('genomics_topics_category_trgm', { synchronize: false })
@Index('genomics_topics_disposition_keyset', ['disposition', 'batch', 'topic'])
@Index('genomics_topics_planned_reviewer', ['plannedReviewerId'], {
  where: '(planned_reviewer_id IS NOT NULL)',
})
// USING gin (title gin_trgm_ops)
@Index('genomics_topics_title_trgm', { synchronize: false })
// USING gin (uid gin_trgm_ops)
@Index('genomics_topics_uid_trgm', { synchronize: false })
@Check(
  'genomics_topics_decision_check',
  "(decision = ANY (ARRAY['PENDING'::text, 'READY'::text, 'MINOR_REPAIR'::text, 'MAJOR_REPAIR'::text, 'REJECTED'::text]))",
)
@Check(
  'genomics_topics_disposition_check',
  "(disposition = ANY (ARRAY['ACTIVE'::text, 'REJECTED'::text, 'DISCARDED'::text, 'TIMED_OUT'::text]))",
)
@Check('genomics_topics_origin_check', "(origin = ANY (ARRAY['api'::text, 'import'::text]))")
@Check('genomics_topics_topic_check', '(topic >= 1)')
@Check('genomics_topics_uid_check', '((char_length(uid) >= 1) AND (char_length(uid) <= 256))')
@Check(
  'genomics_topics_workflow_status_check',
  "(workflow_status = ANY (ARRAY['UNASSIGNED'::text, 'ASSIGNED'::text, 'IN_REVIEW'::text, 'REVIEWED'::text]))",
)
@Unique('genomics_topics_batch_topic_key', ['batch', 'topic'])
@Unique('genomics_topics_uid_key', ['uid'])
@Entity({ name: 'genomics_topics' })
export class GenomicsTopic {
  @IdentityPrimaryColumn() id!: string;

  /** The topicUid of the API: `<batch>:<topic>`. */
  @Column({ type: 'text' }) uid!: string;
  @Column({ type: 'text', collation: 'C' }) batch!: string;
  @Column({ type: 'bigint' }) topic!: string;
  @Column({ type: 'text', nullable: true }) title!: string | null;
  @Column({ type: 'text', nullable: true }) category!: string | null;
  @Column({ type: 'text', nullable: true }) markdown!: string | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) tags!: string[];

  @Column({ type: 'text', name: 'workflow_status', default: () => "'UNASSIGNED'" })
  workflowStatus!: WorkflowStatus;

  @Column({ type: 'text', default: () => "'PENDING'" }) decision!: TopicDecision;
  @Column({ type: 'text', name: 'previous_decision', nullable: true }) previousDecision!: string | null;
  @Column({ type: 'boolean', name: 'requires_re_review', default: () => 'false' }) requiresReReview!: boolean;
  @Column({ type: 'text', name: 'decision_campaign_id', nullable: true }) decisionCampaignId!: string | null;

  @Column({ type: 'text', name: 'submission_campaign_id', nullable: true })
  submissionCampaignId!: string | null;

  @Column({ type: 'text', name: 'campaign_id', nullable: true }) campaignId!: string | null;
  @Column({ type: 'text', default: () => "'ACTIVE'" }) disposition!: Disposition;
  @Column({ type: 'bigint', name: 'planned_reviewer_id', nullable: true }) plannedReviewerId!: string | null;

  @Column({ type: 'bigint', name: 'current_package_version_id', nullable: true })
  currentPackageVersionId!: string | null;

  @Column({ type: 'bigint', name: 'deliverable_selection_revision', default: () => "'0'" })
  deliverableSelectionRevision!: string;

  @Column({ type: 'text', nullable: true }) status!: string | null;
  @Column({ type: 'text', nullable: true }) phase!: string | null;
  @Column({ type: 'text', nullable: true }) classification!: string | null;

  /** Bumped by every workflow transition; the persisting activity writes only from the version it expects. */
  @Column({ type: 'integer', name: 'workflow_version', default: () => "'0'" }) workflowVersion!: number;
  @Column({ type: 'text' }) origin!: 'api' | 'import';
  @Column({ type: 'bigint', name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;

  @ManyToOne(() => GenomicsCampaign)
  @ForeignKey('genomics_topics_campaign_id_fkey', 'campaign_id')
  campaign?: Relation<GenomicsCampaign>;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_topics_created_by_fkey', 'created_by')
  createdByMember?: Relation<Member>;

  @ManyToOne(() => GenomicsRevision)
  @ForeignKey('genomics_topics_current_package_version', 'current_package_version_id')
  currentPackageVersion?: Relation<GenomicsRevision>;

  @ManyToOne(() => GenomicsCampaign)
  @ForeignKey('genomics_topics_decision_campaign_id_fkey', 'decision_campaign_id')
  decisionCampaign?: Relation<GenomicsCampaign>;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_topics_planned_reviewer_id_fkey', 'planned_reviewer_id')
  plannedReviewer?: Relation<Member>;

  @ManyToOne(() => GenomicsCampaign)
  @ForeignKey('genomics_topics_submission_campaign_id_fkey', 'submission_campaign_id')
  submissionCampaign?: Relation<GenomicsCampaign>;
}
