import type { KeyEventRow, KeyRow } from '../../../access/keys';
import { presentKeyRecord } from '../../shared/keyPresenters';

/** A math API key record: metadata only, never the secret or its hash. */
export const presentKey = (k: KeyRow) => presentKeyRecord(k, 'member_id');

export function presentKeyEvent(e: KeyEventRow) {
  return {
    id: e.id,
    kind: e.kind,
    method: e.method,
    path: e.path,
    status: e.status,
    detail: e.detail,
    created_at: e.created_at.toISOString(),
  };
}
