import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { genomicsService } from '../api/genomics';
import { buildOpenApi } from '../api/kernel/openapi';
import { mathService } from '../api/math';

/** Services whose contracts are published, with the file name each is exported under. */
export const CONTRACTS = [
  { file: 'math.openapi.json', service: mathService },
  { file: 'genomics.openapi.json', service: genomicsService },
] as const;

/**
 * Writes both published OpenAPI documents to a folder (default `.referee/openapi`), for the linter and for
 * anyone who wants the files: `tsx scripts/exportOpenApi.ts [folder]`.
 */
export async function exportOpenApi(folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const written: string[] = [];
  for (const { file, service } of CONTRACTS) {
    const target = join(folder, file);
    await writeFile(target, `${JSON.stringify(buildOpenApi(service), null, 2)}\n`);
    written.push(target);
  }
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
