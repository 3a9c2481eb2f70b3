import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A change stamp for the math task lists' counts (api/math/tasks/listCounts.ts). Every statement that
 * writes `math_tasks` draws a new value from `math_task_change_stamp` and, until its transaction ends,
 * holds a shared advisory lock: a reader that can take the lock exclusively at the moment it reads the
 * stamp knows every change drawn so far is committed, so counts computed afterwards may be reused while
 * the stamp stays the same. Writers never wait on each other (shared locks, a sequence).
 */
export class ListChangeStamps1765000000000 implements MigrationInterface {
  name = 'ListChangeStamps1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE math_task_change_stamp`);
    await q.query(`
      CREATE FUNCTION stamp_math_task_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(hashtextextended('referee:math-task-change', 0));
        PERFORM nextval('math_task_change_stamp');
        RETURN NULL;
      END
      $$;
    `);
    await q.query(`
      CREATE TRIGGER math_tasks_change_stamp AFTER INSERT OR UPDATE OR DELETE ON math_tasks
        FOR EACH STATEMENT EXECUTE FUNCTION stamp_math_task_change()`);
    await q.query(`
      CREATE TRIGGER math_tasks_truncate_stamp AFTER TRUNCATE ON math_tasks
        FOR EACH STATEMENT EXECUTE FUNCTION stamp_math_task_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER math_tasks_truncate_stamp ON math_tasks`);
    await q.query(`DROP TRIGGER math_tasks_change_stamp ON math_tasks`);
    await q.query(`DROP FUNCTION stamp_math_task_change()`);
    await q.query(`DROP SEQUENCE math_task_change_stamp`);
  }
}
