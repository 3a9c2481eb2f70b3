import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';

/**
 * The key sealing webhook secrets for `npm start`: read from `<data dir>/webhook-secret.key`, made once (32 random
 * bytes, base64, mode 0600) when absent. Losing it makes the stored secrets unreadable (docs/webhooks.md).
 */
export function localWebhookSecretKey(dataDir: string): string {
  const file = join(dataDir, 'webhook-secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('base64');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
