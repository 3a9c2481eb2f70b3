import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Transitions persisted inside the update's own workflow task (docs/decisions-system.md, "Transitions persisted in the
 * update's workflow task"): each transition's event carries the start time of the workflow task that decided it
 * (the fence that orders competing workflow tasks of one workflow), a genomics event what undoes its record
 * changes, one workflow version of a topic is written at most once, and a repair says why it was made.
 */
export class FencedTransitions1767000000000 implements MigrationInterface {
  name = 'FencedTransitions1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE math_task_events ADD COLUMN workflow_task_time timestamptz;
      ALTER TABLE genomics_events ADD COLUMN workflow_task_time timestamptz, ADD COLUMN undo jsonb;
      CREATE UNIQUE INDEX genomics_events_topic_workflow_version
        ON genomics_events (topic_id, workflow_version) WHERE workflow_version IS NOT NULL;
      ALTER TABLE projection_repairs
        ADD COLUMN cause text NOT NULL DEFAULT 'reconcile'
          CONSTRAINT projection_repairs_cause_check CHECK (cause IN ('reconcile', 'unacknowledged_transition'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projection_repairs DROP COLUMN cause;
      DROP INDEX genomics_events_topic_workflow_version;
      ALTER TABLE genomics_events DROP COLUMN workflow_task_time, DROP COLUMN undo;
      ALTER TABLE math_task_events DROP COLUMN workflow_task_time;
    `);
  }
}
