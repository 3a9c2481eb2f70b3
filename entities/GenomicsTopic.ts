import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Disposition, TopicDecision, WorkflowStatus } from '../workflows/genomicsTask/state';

/**
 * A genomics topic and its one task. Brief fields (title, category, markdown, tags) are written by the
 * API; the review projection (decision … workflow_version) only by the task workflow's persisting activity.
 */
@Entity({ name: 'genomics_topics' })
export class GenomicsTopic {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  /** The topicUid of the API: `<batch>:<topic>`. */
  @Column({ type: 'text' })
  uid!: string;

  @Column({ type: 'text' })
  batch!: string;

  @Column({ type: 'bigint' })
  topic!: string;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  category!: string | null;

  @Column({ type: 'text', nullable: true })
  markdown!: string | null;

  @Column({ type: 'text', array: true })
  tags!: string[];

  @Column({ type: 'text', name: 'workflow_status' })
  workflowStatus!: WorkflowStatus;

  @Column({ type: 'text' })
  decision!: TopicDecision;

  @Column({ type: 'text', name: 'previous_decision', nullable: true })
  previousDecision!: string | null;

  @Column({ type: 'boolean', name: 'requires_re_review' })
  requiresReReview!: boolean;

  @Column({ type: 'text', name: 'decision_campaign_id', nullable: true })
  decisionCampaignId!: string | null;

  @Column({ type: 'text', name: 'submission_campaign_id', nullable: true })
  submissionCampaignId!: string | null;

  @Column({ type: 'text', name: 'campaign_id', nullable: true })
  campaignId!: string | null;

  @Column({ type: 'text' })
  disposition!: Disposition;

  @Column({ type: 'bigint', name: 'planned_reviewer_id', nullable: true })
  plannedReviewerId!: string | null;

  @Column({ type: 'bigint', name: 'current_package_version_id', nullable: true })
  currentPackageVersionId!: string | null;

  @Column({ type: 'bigint', name: 'deliverable_selection_revision' })
  deliverableSelectionRevision!: string;

  @Column({ type: 'text', nullable: true })
  status!: string | null;

  @Column({ type: 'text', nullable: true })
  phase!: string | null;

  @Column({ type: 'text', nullable: true })
  classification!: string | null;

  /** Bumped by every workflow transition; the persisting activity writes only from the version it expects. */
  @Column({ type: 'integer', name: 'workflow_version' })
  workflowVersion!: number;

  @Column({ type: 'text' })
  origin!: 'api' | 'import';

  @Column({ type: 'bigint', name: 'created_by', nullable: true })
  createdBy!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
