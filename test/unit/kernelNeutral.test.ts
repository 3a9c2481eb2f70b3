import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { KERNEL_PROBLEM_TYPES } from '../../api/kernel/errors';
import { genomicsService } from '../../api/genomics';
import { mathService } from '../../api/math';

/**
 * The kernel (api/kernel/) serves every service and must know none of them: a service's texts, facts and
 * credentials live in its own folder. Any spelling of a service's name fails here, except the `Math` global, and so
 * does any problem code a service declares (its vocabulary) that is not the kernel's own.
 */
const KERNEL = join(__dirname, '..', '..', 'api', 'kernel');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** Every occurrence of a service's name, case-insensitive, except the exact `Math` global followed by a dot. */
function serviceMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/genomics|math/gi)) {
    const at = match.index;
    const isMathGlobal =
      match[0] === 'Math' && text[at + 4] === '.' && !/[A-Za-z0-9_$]/.test(text[at - 1] ?? '');
    if (!isMathGlobal) found.push(text.slice(Math.max(0, at - 20), at + 24).replace(/\n/g, ' '));
  }
  return found;
}

describe('the kernel names no service', () => {
  it('finds service names and ignores only the Math global', () => {
    expect(serviceMentions('Math.max(1, 2) + Math.floor(x)')).toEqual([]);
    expect(serviceMentions('the math service')).toHaveLength(1);
    expect(serviceMentions("service === 'MATH'")).toHaveLength(1);
    expect(serviceMentions('aftermath.x')).toHaveLength(1);
    expect(serviceMentions('xMath.max')).toHaveLength(1);
    expect(serviceMentions('Math service')).toHaveLength(1);
    expect(serviceMentions('/api/Genomics/')).toHaveLength(1);
  });

  it('api/kernel/ mentions neither service', () => {
    const files = filesUnder(KERNEL);
    expect(files.length).toBeGreaterThan(0);
    const mentions = files.flatMap((file) =>
      serviceMentions(readFileSync(file, 'utf8')).map((m) => `${relative(KERNEL, file)}: ${m}`),
    );
    expect(mentions).toEqual([]);
  });
});

describe("the kernel knows no service's problem codes", () => {
  const kernelCodes = new Set(Object.keys(KERNEL_PROBLEM_TYPES));
  const serviceCodes = [mathService, genomicsService]
    .flatMap((service) => Object.keys(service.problemTypes))
    .filter((code) => !kernelCodes.has(code));

  it('the services declare codes of their own', () => {
    expect(serviceCodes).toEqual(
      expect.arrayContaining(['task_archived', 'topic_closed', 'not_due', 'active_key_limit']),
    );
  });

  it('api/kernel/ quotes none of them', () => {
    const quoted = filesUnder(KERNEL).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return serviceCodes
        .filter((code) => new RegExp(`['"\`]${code}['"\`]`).test(text))
        .map((code) => `${relative(KERNEL, file)}: ${code}`);
    });
    expect(quoted).toEqual([]);
  });
});
