import { insertApiKey, listKeys, revokeKeyAsOperator } from '../../access/keys';
import { ROLES, SCOPES, type Scope } from '../../entities/types';
import type * as declared from '../commands/keys';
import type { CommandInput } from '../kernel/command';
import { openDatabase } from '../kernel/database';
import { OpsError, UsageError } from '../kernel/output';
import type { CommandContext } from '../kernel/context';
import { selectMemberForKey } from './keysQueries';

/**
 * The scopes of a new key: all of them only when `--scopes` is absent. An empty list or an unknown scope is
 * refused, never read as "all".
 */
export function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return [...SCOPES];
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (scopes.length === 0) {
    throw new UsageError(`--scopes is empty; list at least one of ${SCOPES.join(', ')} (or omit it for all)`);
  }
  const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

export async function keysCreate(
  ctx: CommandContext,
  { options: opts }: CommandInput<typeof declared.keysCreate>,
): Promise<void> {
  // Every value is checked before any connection is made.
  const request = {
    service: opts.service,
    identityId: opts.member,
    name: opts.name ?? `ops key for ${opts.member}`,
    role: opts.role,
    scopes: parseScopes(opts.scopes),
    days: opts['expires-in-days'],
  };
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const created = await dataSource.transaction(async (tx) => {
      const member = await selectMemberForKey(tx, request.service, request.identityId);
      if (!member) {
        throw new OpsError(
          'member_not_found',
          `no ${request.service} member has identity id "${request.identityId}"; ` +
            `see "referee members list --service ${request.service}", or add one with "members upsert"`,
        );
      }
      if (!member.enabled) {
        throw new OpsError('member_disabled', `member ${request.identityId} is disabled`);
      }
      const role = request.role ?? member.role;
      if (ROLES.indexOf(role) > ROLES.indexOf(member.role)) {
        throw new OpsError('key_exceeds_member', `role ${role} exceeds the member's role ${member.role}`);
      }
      return insertApiKey(tx, {
        service: request.service,
        memberId: member.id,
        name: request.name,
        role,
        scopes: request.scopes,
        expiresAt: new Date(Date.now() + request.days * 86_400_000),
        createdByKeyId: null,
        issuer: 'ops',
      });
    });
    ctx.out.result(
      `Created ${request.service} key ${created.id} for ${request.identityId} (${created.role}; ` +
        `${created.scopes.join(', ')}; expires ${created.expiresAt.toISOString()}).\n` +
        `Token (shown once, store it now):\n${created.token}`,
      {
        id: created.id,
        service: request.service,
        member: request.identityId,
        token: created.token,
        role: created.role,
        scopes: created.scopes,
        expires_at: created.expiresAt,
      },
    );
  } finally {
    await dataSource.destroy();
  }
}

export async function keysList(
  ctx: CommandContext,
  { options: { service } }: CommandInput<typeof declared.keysList>,
): Promise<void> {
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const keys = await listKeys(dataSource, service);
    const now = Date.now();
    const state = (k: (typeof keys)[number]) =>
      k.revoked_at ? 'revoked' : new Date(k.expires_at).getTime() <= now ? 'expired' : 'active';
    ctx.out.result(
      keys.length === 0
        ? 'No keys.'
        : keys
            .map(
              (k) =>
                `${k.id}  ${k.service.padEnd(8)} ${state(k).padEnd(7)} ${k.role.padEnd(8)} ${k.identity_id}  ` +
                `"${k.name}"  expires ${new Date(k.expires_at).toISOString().slice(0, 10)}`,
            )
            .join('\n'),
      { keys: keys.map((k) => ({ ...k, state: state(k) })) },
    );
  } finally {
    await dataSource.destroy();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function keysRevoke(
  ctx: CommandContext,
  { positionals: { 'key-id': keyId } }: CommandInput<typeof declared.keysRevoke>,
): Promise<void> {
  if (!UUID.test(keyId)) throw new UsageError(`"${keyId}" is not a key id (a UUID, see "referee keys list")`);
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const revoked = await revokeKeyAsOperator(dataSource, keyId.toLowerCase(), 'ops');
    if (!revoked) throw new OpsError('key_not_found', `no key has id ${keyId}`);
    const { key, alreadyRevoked } = revoked;
    ctx.out.result(
      alreadyRevoked
        ? `Key ${key.id} was already revoked at ${new Date(key.revoked_at!).toISOString()}; nothing changed.`
        : `Revoked ${key.service} key ${key.id} of ${key.identity_id}; the API refuses it from now on.`,
      { key, already_revoked: alreadyRevoked },
    );
  } finally {
    await dataSource.destroy();
  }
}
