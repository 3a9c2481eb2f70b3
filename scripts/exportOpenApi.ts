import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { genomicsService } from '../api/genomics';
import { buildOpenApi } from '../api/kernel/openapi';
import { mathService } from '../api/math';
import { scimOpenApi } from '../api/scim/openapi';

/** Services whose contracts are published, with the file name each is exported under. */
export const CONTRACTS = [
  { file: 'math.openapi.json', service: mathService },
  { file: 'genomics.openapi.json', service: genomicsService },
] as const;

/** The SCIM 2.0 service provider's contract (api/scim/openapi.ts), written beside the services'. */
export const SCIM_CONTRACT_FILE = 'scim.openapi.json';

/**
 * Writes every published OpenAPI document (both services' and SCIM's) to a folder (default `.referee/openapi`), for
 * the linter and for anyone who wants the files: `tsx scripts/exportOpenApi.ts [folder]`.
 */
export async function exportOpenApi(folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const written: string[] = [];
  for (const { file, service } of CONTRACTS) {
    const target = join(folder, file);
    await writeFile(target, `${JSON.stringify(buildOpenApi(service), null, 2)}\n`);
    written.push(target);
  }
  const scim = join(folder, SCIM_CONTRACT_FILE);
  await writeFile(scim, `${JSON.stringify(scimOpenApi(), null, 2)}\n`);
  written.push(scim);
  return written;
}

if (require.main === module) {
  exportOpenApi(resolve(process.argv[2] ?? '.referee/openapi')).then(
    (files) => console.log(files.join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
