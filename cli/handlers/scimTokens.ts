import {
  createProvisioningToken,
  listProvisioningTokens,
  revokeProvisioningToken,
} from '../../access/provisioningTokens';
import type * as declared from '../commands/scimTokens';
import type { CommandInput } from '../kernel/command';
import type { CommandContext } from '../kernel/context';
import { openDatabase } from '../kernel/database';
import { OpsError, UsageError } from '../kernel/output';

const MAX_NAME = 100;

export async function scimTokensCreate(
  ctx: CommandContext,
  { options }: CommandInput<typeof declared.scimTokensCreate>,
): Promise<void> {
  const trimmed = (options.name ?? 'identity service').trim();
  if (trimmed === '' || trimmed.length > MAX_NAME)
    throw new UsageError(`--name must be 1 to ${MAX_NAME} characters`);
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const created = await createProvisioningToken(dataSource, { name: trimmed, createdBy: 'ops' });
    ctx.out.result(
      `Created provisioning token ${created.id} ("${created.name}") for /scim/v2.\n` +
        `Token (shown once, store it now):\n${created.token}`,
      { id: created.id, name: created.name, token: created.token, created_at: created.created_at },
    );
  } finally {
    await dataSource.destroy();
  }
}

export async function scimTokensList(ctx: CommandContext): Promise<void> {
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const tokens = await listProvisioningTokens(dataSource);
    const state = (t: (typeof tokens)[number]) => (t.revoked_at ? 'revoked' : 'active');
    const day = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 19) + 'Z' : 'never');
    ctx.out.result(
      tokens.length === 0
        ? 'No provisioning tokens.'
        : tokens
            .map(
              (t) =>
                `${t.id}  ${state(t).padEnd(7)} "${t.name}"  created ${day(t.created_at)}  last used ${day(t.last_used_at)}`,
            )
            .join('\n'),
      { tokens: tokens.map((t) => ({ ...t, state: state(t) })) },
    );
  } finally {
    await dataSource.destroy();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function scimTokensRevoke(
  ctx: CommandContext,
  { positionals: { 'token-id': tokenId } }: CommandInput<typeof declared.scimTokensRevoke>,
): Promise<void> {
  if (!UUID.test(tokenId))
    throw new UsageError(`"${tokenId}" is not a token id (a UUID, see "referee scim-tokens list")`);
  const dataSource = await openDatabase(ctx.system().config, { migrate: false });
  try {
    const revoked = await revokeProvisioningToken(dataSource, tokenId.toLowerCase());
    if (!revoked) throw new OpsError('token_not_found', `no provisioning token has id ${tokenId}`);
    const { token, alreadyRevoked } = revoked;
    ctx.out.result(
      alreadyRevoked
        ? `Token ${token.id} was already revoked at ${new Date(token.revoked_at!).toISOString()}; nothing changed.`
        : `Revoked provisioning token ${token.id} ("${token.name}"); SCIM refuses it from now on.`,
      { token, already_revoked: alreadyRevoked },
    );
  } finally {
    await dataSource.destroy();
  }
}
