import type { Queryable } from '../../entities/queryable';
import type { Role, ServiceName } from '../../entities/types';

/** The member a new key is minted for, when the service has one of that identity id. */
export async function selectMemberForKey(
  tx: Queryable,
  service: ServiceName,
  identityId: string,
): Promise<{ id: string; role: Role; enabled: boolean } | undefined> {
  const [member]: Array<{ id: string; role: Role; enabled: boolean }> = await tx.query(
    'SELECT id::text, role, enabled FROM members WHERE service = $1 AND identity_id = $2',
    [service, identityId],
  );
  return member;
}
