import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { problemsPage } from '../../api/docs/page';
import {
  type ApiError,
  CODE_TAKING_FACTORIES,
  composeCatalogues,
  KERNEL_PROBLEM_TYPES,
  type ProblemCatalogue,
  problems,
  problemTypeDocs,
} from '../../api/kernel/errors';
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

/** The status each code-taking factory answers with (`problems.…`, `mathProblems.…`, `sharedProblems.…`). */
const FACTORY_STATUS: Record<string, number> = {
  badRequest: 400,
  forbidden: 403,
  conflict: 409,
  unprocessable: 422,
  storedObjectInvalid: 502,
};

/** Each literal code the sources pass to a code-taking factory, with the factory and the file. */
function literalCodes(): { code: string; factory: string; file: string }[] {
  const call = new RegExp(
    `(?<![A-Za-z])(?:problems|[a-z]+Problems)\\.(${Object.keys(FACTORY_STATUS).join('|')})\\(\\s*'([a-z0-9_]+)'`,
    'g',
  );
  return sources('api', 'activities', 'workflows').flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(call)].map((m) => ({
      code: m[2],
      factory: m[1],
      file: relative(projectRoot, file),
    })),
  );
}

const services: Record<'math' | 'genomics', ProblemCatalogue> = {
  math: mathService.problemTypes,
  genomics: genomicsService.problemTypes,
};

describe('the error-type page /docs/problems', () => {
  const types = () => problemTypeDocs(Object.values(services));
  const documented = new Set<string>(types().map((t) => t.code));

  it('lists every code of the kernel and of each service once, with a description', () => {
    const declared = new Set([
      ...Object.keys(KERNEL_PROBLEM_TYPES),
      ...Object.values(services).flatMap((catalogue) => Object.keys(catalogue)),
    ]);
    expect(types().map((t) => t.code)).toHaveLength(declared.size);
    expect([...documented].sort()).toEqual([...declared].sort());
    expect(types().every((t) => t.description)).toBe(true);
  });

  it('has a code for every fixed-code factory of the kernel', () => {
    const fixed = Object.entries(problems).filter(
      ([name]) => !(CODE_TAKING_FACTORIES as readonly string[]).includes(name),
    );
    for (const [name, factory] of fixed) {
      const error = (factory as (...args: unknown[]) => ApiError)([], 1);
      expect([name, documented.has(error.code)]).toEqual([name, true]);
    }
  });

  it('documents every literal code the API passes to a code-taking factory', () => {
    const used = literalCodes();
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter(({ code }) => !documented.has(code))).toEqual([]);
  });

  it('is the anchor every problem type URI points to', () => {
    const page = problemsPage(types());
    for (const code of documented) expect(page).toContain(`id="${code}"`);
    expect(problems.notFound('Task x').toProblem('/api/math/tasks/x').type).toBe('/docs/problems#not_found');
  });

  it('takes status and title from the catalogue itself', () => {
    expect(types().find((t) => t.code === 'stale_version')).toMatchObject({ status: 409, title: 'Conflict' });
    expect(types().find((t) => t.code === 'malformed_json')).toMatchObject({
      status: 400,
      title: 'Malformed JSON body',
    });
    expect(problems.malformedJson('x')).toMatchObject({ status: 400, title: 'Malformed JSON body' });
  });
});

describe('one status per problem code, in both services', () => {
  it('a code both services answer is one entry, with one status (docs/decisions.md)', () => {
    const shared = Object.keys(services.math).filter((code) => Object.hasOwn(services.genomics, code));
    expect(shared).toEqual(
      expect.arrayContaining(['unknown_member', 'key_outlives_issuer', 'active_key_limit']),
    );
    for (const code of shared) expect([code, services.math[code]]).toEqual([code, services.genomics[code]]);
    expect(services.math.key_outlives_issuer.status).toBe(403);
    expect(services.genomics.webhook_target_refused.status).toBe(400);
  });

  it('no service redeclares a kernel code, and all catalogues compose', () => {
    for (const catalogue of Object.values(services)) {
      expect(Object.keys(catalogue).filter((code) => Object.hasOwn(KERNEL_PROBLEM_TYPES, code))).toEqual([]);
    }
    expect(() => composeCatalogues(KERNEL_PROBLEM_TYPES, services.math, services.genomics)).not.toThrow();
  });

  it('refuses a code declared twice with two statuses', () => {
    const a: ProblemCatalogue = { unknown_thing: { status: 400, description: 'a' } };
    const b: ProblemCatalogue = { unknown_thing: { status: 422, description: 'b' } };
    expect(() => composeCatalogues(a, b)).toThrow('unknown_thing is declared twice');
  });

  it('every literal code goes through a factory of its status', () => {
    const all: ProblemCatalogue = composeCatalogues(KERNEL_PROBLEM_TYPES, services.math, services.genomics);
    const wrong = literalCodes().filter(({ code, factory }) => all[code]?.status !== FACTORY_STATUS[factory]);
    expect(wrong).toEqual([]);
  });

  it('no problem is built by hand: ApiError is constructed in the catalogue module only', () => {
    const byHand = sources('api', 'activities', 'workflows')
      .filter((file) => /new ApiError\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(projectRoot, file));
    expect(byHand).toEqual(['api/kernel/errors.ts']);
  });

  it('the page shows each code under its one status', () => {
    const page = problemsPage(problemTypeDocs(Object.values(services)));
    expect(page).toMatch(/id="key_exceeds_member">.*?<\/td><td>403<\/td>/);
  });
});
