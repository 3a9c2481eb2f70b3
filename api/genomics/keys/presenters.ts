import { presentKeyRecord } from '../../shared/keyPresenters';
import type { KeyRow } from '../../../access/keys';

/** API key metadata as the genomics spec lists it; `actor_id` is the member the key acts for. */
export const presentKeyMetadata = (k: KeyRow) => presentKeyRecord(k, 'actor_id');
