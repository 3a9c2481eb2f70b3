import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { problemsPage } from '../../api/docs/page';
import {
  CODE_TAKING_FACTORIES,
  PROBLEM_CATALOGUE,
  PROBLEM_DESCRIPTIONS,
  problemTypes,
} from '../../api/docs/problemTypes';
import { problems } from '../../api/kernel/errors';
import { genomicsService } from '../../api/genomics';
import { mathService } from '../../api/math';
import { projectRoot } from '../../infra/paths';

/** Every TypeScript source file under the given folders. */
function sources(...folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

describe('the error-type page /docs/problems', () => {
  const services = [mathService, genomicsService].map((service) => service.problemTypes);
  const types = () => problemTypes(services);
  const documented = new Set<string>(types().map((t) => t.code));

  it('has an entry for every factory of the error catalogue', () => {
    expect(Object.keys(PROBLEM_CATALOGUE).sort()).toEqual(Object.keys(problems).sort());
  });

  it('lists an error for every code the kernel and the services describe, and a code under each status it is answered with', () => {
    const described = new Set([
      ...Object.keys(PROBLEM_DESCRIPTIONS),
      ...services.flatMap((service) => Object.keys(service.descriptions)),
    ]);
    expect([...documented].sort()).toEqual([...described].sort());
    expect(types().every((t) => t.description)).toBe(true);
    expect(
      types()
        .find((t) => t.code === 'key_outlives_issuer')
        ?.statuses.sort(),
    ).toEqual([403]);
  });

  it('documents every literal code the API passes to a code-taking factory', () => {
    // The kernel's factories (`problems.…`) and each service's own (`mathProblems.…`, `sharedProblems.…`).
    const factories = [...CODE_TAKING_FACTORIES, 'forbidden', 'unprocessable'].join('|');
    const call = new RegExp(
      `(?<![A-Za-z])(?:problems|[a-z]+Problems)\\.(?:${factories})\\(\\s*'([a-z0-9_]+)'`,
      'g',
    );
    const used = new Map<string, string>();
    for (const file of sources('api', 'activities', 'workflows')) {
      for (const match of readFileSync(file, 'utf8').matchAll(call)) used.set(match[1], file);
    }
    expect(used.size).toBeGreaterThan(5);
    const missing = [...used]
      .filter(([code]) => !documented.has(code))
      .map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });

  it('is the anchor every problem type URI points to', () => {
    const page = problemsPage(types());
    for (const code of documented) expect(page).toContain(`id="${code}"`);
    expect(problems.notFound('Task x').toProblem('/api/math/tasks/x').type).toBe('/docs/problems#not_found');
  });

  it('takes status and title from the catalogue itself', () => {
    expect(types().find((t) => t.code === 'stale_version')).toMatchObject({
      status: 409,
      title: 'Conflict',
    });
    expect(types().find((t) => t.code === 'validation_failed')).toMatchObject({ status: 400 });
  });
});
