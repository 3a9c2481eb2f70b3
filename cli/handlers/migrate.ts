import type { CommandContext } from '../kernel/context';
import { describeDatabase, openDatabase } from '../kernel/database';

export async function migrate(ctx: CommandContext): Promise<void> {
  const { config } = ctx.system();
  const dataSource = await openDatabase(config, { migrate: true });
  await dataSource.destroy();
  ctx.out.result(`Schema of ${describeDatabase(config.databaseUrl)} is up to date.`, {
    database: describeDatabase(config.databaseUrl),
  });
}
