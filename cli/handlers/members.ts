import { readFile } from 'node:fs/promises';
import {
  listMembers,
  type MemberPlan,
  memberSyncFileSchema,
  type MemberSyncFile,
  summarizePlan,
  syncMembers,
  type SyncMode,
} from '../../access/members';
import {
  endSessionsOfSubject,
  insertConsoleAudit,
  membersOfSubject,
} from '../../access/consoleSessionsQueries';
import type * as declared from '../commands/members';
import type { CommandInput } from '../kernel/command';
import type { CommandContext } from '../kernel/context';
import { openDatabase } from '../kernel/database';
import { OpsError } from '../kernel/output';

export async function membersList(
  ctx: CommandContext,
  { options: { service } }: CommandInput<typeof declared.membersList>,
): Promise<void> {
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const members = await listMembers(dataSource, service);
    ctx.out.result(
      members.length === 0
        ? 'No members.'
        : members
            .map(
              (m) =>
                `${m.service.padEnd(8)} ${m.identity_id.padEnd(24)} ${m.role.padEnd(8)} ` +
                `${(m.enabled ? 'enabled' : 'disabled').padEnd(8)} ${m.active_keys} active key(s)  ${m.display_name}` +
                `${m.primary_admin ? '  (primary admin)' : ''}`,
            )
            .join('\n'),
      { members },
    );
  } finally {
    await dataSource.destroy();
  }
}

/** Reads and validates a member file before any connection is made; every problem is named with the file. */
async function readMemberFile(file: string): Promise<MemberSyncFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new OpsError('file_not_found', `${file} does not exist`);
    if (code === 'EISDIR') throw new OpsError('not_a_file', `${file} is a folder, not a member file`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new OpsError('invalid_member_file', `${file} is not JSON: ${(error as Error).message}`);
  }
  const { value, error } = memberSyncFileSchema.validate(parsed, { abortEarly: false });
  if (error) {
    throw new OpsError('invalid_member_file', `${file}: ${error.details.map((d) => d.message).join('; ')}`);
  }
  return value;
}

function describePlan(plan: MemberPlan, dryRun: boolean): string {
  const s = summarizePlan(plan);
  const verb = dryRun ? 'would be ' : '';
  const lines = [
    `${plan.service}: ${s.created} ${verb}created, ${s.updated} ${verb}updated, ${s.disabled} ${verb}disabled, ` +
      `${s.unchanged} unchanged`,
  ];
  if (dryRun) {
    for (const m of plan.create) lines.push(`  + ${m.identity_id} (${m.role})`);
    for (const u of plan.update) {
      const fields = Object.entries(u.changes).map(([f, c]) => `${f} ${String(c.from)} -> ${String(c.to)}`);
      lines.push(`  ~ ${u.member.identity_id}: ${fields.join(', ')}`);
    }
    for (const d of plan.disable) lines.push(`  - ${d.identity_id} (absent from the file)`);
  }
  return lines.join('\n');
}

/** `members upsert`: adds and updates the file's members; disables nobody. */
export async function membersUpsert(
  ctx: CommandContext,
  { positionals: { file } }: CommandInput<typeof declared.membersUpsert>,
): Promise<void> {
  await applyMemberFile(ctx, { mode: 'upsert', file, dryRun: false });
}

/** `members sync`: a full replacement, which also disables the members absent from the file. */
export async function membersSync(
  ctx: CommandContext,
  { options, positionals: { file } }: CommandInput<typeof declared.membersSync>,
): Promise<void> {
  await applyMemberFile(ctx, { mode: 'sync', file, dryRun: options['dry-run'] });
}

async function applyMemberFile(
  ctx: CommandContext,
  { mode, file, dryRun }: { mode: SyncMode; file: string; dryRun: boolean },
): Promise<void> {
  const members = await readMemberFile(file);
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const plans = await syncMembers(dataSource, members, { mode, dryRun });
    ctx.out.result(
      (dryRun ? 'Dry run: nothing was changed.\n' : '') +
        plans.map((p) => describePlan(p, dryRun)).join('\n'),
      {
        dry_run: dryRun,
        mode,
        services: plans.map((p) => ({
          ...summarizePlan(p),
          create: p.create.map((m) => m.identity_id),
          update: p.update.map((u) => ({ identity_id: u.member.identity_id, changes: u.changes })),
          disable: p.disable.map((d) => d.identity_id),
        })),
      },
    );
  } finally {
    await dataSource.destroy();
  }
}

/** Ends an identity's console sessions; records it in each service's identity audit where it is a member. */
export async function membersEndSessions(
  ctx: CommandContext,
  { positionals: { 'identity-id': identityId } }: CommandInput<typeof declared.membersEndSessions>,
): Promise<void> {
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const ended = await dataSource.transaction(async (tx) => {
      const count = await endSessionsOfSubject(tx, identityId, 'ended_by_operator');
      const members = await membersOfSubject(tx, identityId);
      await insertConsoleAudit(
        tx,
        members.map((m) => ({
          service: m.service,
          kind: 'console_sessions_ended',
          memberId: m.id,
          detail: { sessions: count, by: 'referee members end-sessions' },
        })),
      );
      return count;
    });
    ctx.out.result(`Ended ${ended} console session(s) of ${identityId}.`, { identity_id: identityId, ended });
  } finally {
    await dataSource.destroy();
  }
}
