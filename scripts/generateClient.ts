import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import * as prettier from 'prettier';
import { CONTRACT_PATHS } from '../api/docs/routes';
import { buildOpenApi } from '../api/kernel/openapi';
import type { ServiceDefinition } from '../api/kernel/operation';
import { CONTRACTS } from './exportOpenApi';

/**
 * Where the types of each service's contract live: checked in under the console's sources, which read the API
 * through them (the console's build and type check see console/src only); the tests' openapi-fetch client
 * imports the same files.
 */
export const clientTypesFile = (service: ServiceDefinition): string =>
  join(__dirname, '..', 'console', 'src', 'contract', `${service.name}.d.ts`);

/**
 * The TypeScript types `openapi-typescript` generates from a service's published contract, formatted
 * with the project's Prettier settings so the checked-in file passes `prettier --check`.
 */
export async function generateClientTypes(service: ServiceDefinition): Promise<string> {
  const ast = await openapiTS(buildOpenApi(service) as unknown as OpenAPI3, { alphabetize: false });
  const header =
    `/**\n * The ${service.title}, as \`paths\`/\`operations\` types for the console and openapi-fetch.\n` +
    ` * Generated from ${CONTRACT_PATHS[service.name]} by \`npm run generate:client\`: do not edit.\n */\n\n`;
  const target = clientTypesFile(service);
  const options = (await prettier.resolveConfig(target)) ?? {};
  return prettier.format(`${header}${astToString(ast)}`, { ...options, filepath: target });
}

/** Regenerates the checked-in client types; `--check` only reports the files that are out of date. */
async function main(check: boolean): Promise<void> {
  const stale: string[] = [];
  for (const { service } of CONTRACTS) {
    const target = clientTypesFile(service);
    const fresh = await generateClientTypes(service);
    const current = await readFile(target, 'utf8').catch(() => '');
    if (current === fresh) continue;
    stale.push(target);
    if (!check) await writeFile(target, fresh);
  }
  if (check && stale.length > 0) {
    console.error(`Out of date (run npm run generate:client):\n${stale.join('\n')}`);
    process.exit(1);
  }
  console.log(stale.length === 0 ? 'Client types are up to date.' : `Wrote:\n${stale.join('\n')}`);
}

if (require.main === module) {
  main(process.argv.includes('--check')).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
