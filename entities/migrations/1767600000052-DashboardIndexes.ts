import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the review dashboards poll (docs/console.md, "Dashboards"): a math task's latest assignment (its
 * `assign` events, newest version first, with their time), the genomics events of a window, and the genomics
 * assignments submitted in a window. Each keeps a dashboard read to the rows of its window or its open work.
 */
export class DashboardIndexes1767600000052 implements MigrationInterface {
  name = 'DashboardIndexes1767600000052';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX math_task_events_assign ON math_task_events (task_id, version DESC)
        INCLUDE (created_at) WHERE action = 'assign';
      CREATE INDEX genomics_events_created ON genomics_events (created_at);
      CREATE INDEX genomics_assignments_submitted ON genomics_assignments (submitted_at)
        WHERE submitted_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX genomics_assignments_submitted;
      DROP INDEX genomics_events_created;
      DROP INDEX math_task_events_assign;
    `);
  }
}
