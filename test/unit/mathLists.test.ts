import Joi from 'joi';
import { createClientBody, updateClientBody } from '../../api/math/clients/schemas';
import { limitOffset, pageOf, pageQueryKeys, pageSchema } from '../../api/math/shared/pagination';
import { presentReviewStatus, reviewStatusColumns } from '../../api/math/shared/reviewStatus';
import { containsPattern } from '../../api/math/shared/search';
import { countShapeKey } from '../../api/math/tasks/listCounts';
import { taskListWhere } from '../../api/math/tasks/queries';
import { taskListQuery } from '../../api/math/tasks/schemas';
import type { Principal } from '../../api/kernel/authenticate';

const principal = (role: Principal['role'], id = '7'): Principal =>
  ({ role, member: { id }, key: null, assertion: null, scopes: ['read'] }) as unknown as Principal;

describe('containsPattern', () => {
  it('escapes the LIKE wildcards and the escape character so q matches literally', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('x_1')).toBe('%x\\_1%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
    expect(containsPattern('plain')).toBe('%plain%');
  });
});

describe('page query and envelope', () => {
  const query = Joi.object(pageQueryKeys);
  const check = (value: Record<string, unknown>) => query.validate(value, { convert: true });

  it('defaults to page 1 of 25', () => {
    expect(check({}).value).toEqual({ page: 1, page_size: 25 });
  });

  it.each([
    [{ page: '0' }, false],
    [{ page: '1' }, true],
    [{ page: '100000' }, true],
    [{ page: '100001' }, false],
    [{ page_size: '0' }, false],
    [{ page_size: '1' }, true],
    [{ page_size: '100' }, true],
    [{ page_size: '101' }, false],
  ])('%j valid: %s', (value, valid) => {
    expect(check(value).error === undefined).toBe(valid);
  });

  it('turns a page into LIMIT and OFFSET', () => {
    expect(limitOffset({ page: 1, page_size: 25 })).toEqual([25, 0]);
    expect(limitOffset({ page: 3, page_size: 10 })).toEqual([10, 20]);
  });

  it('names the envelope fields once, with or without a total', () => {
    expect(pageOf(['a'], { page: 2, page_size: 1 }, 5)).toEqual({
      items: ['a'],
      page: 2,
      page_size: 1,
      total: 5,
    });
    expect(pageOf(['a'], { page: 2, page_size: 1 })).toEqual({ items: ['a'], page: 2, page_size: 1 });
    expect(
      pageSchema(Joi.string(), { total: false }).validate({ items: [], page: 1, page_size: 1, total: 0 })
        .error,
    ).toBeDefined();
    expect(
      pageSchema(Joi.string()).validate({ items: ['x'], page: 1, page_size: 1, total: 0 }).error,
    ).toBeUndefined();
  });
});

describe('task list query', () => {
  it('defaults the surface per route and the sort to updated', () => {
    expect(taskListQuery('all').validate({}).value).toEqual({
      page: 1,
      page_size: 25,
      sort: 'updated',
      surface: 'all',
    });
    expect(taskListQuery('evaluations').validate({}).value.surface).toBe('evaluations');
  });

  it('accepts unassigned for reviewer_id and client_id, and refuses question_id where the path fixes it', () => {
    expect(
      taskListQuery('all').validate({ reviewer_id: 'unassigned', client_id: 'unassigned' }).error,
    ).toBeUndefined();
    expect(taskListQuery('all').validate({ reviewer_id: 'someone' }).error).toBeDefined();
    expect(
      taskListQuery('all', { questionIdInPath: true }).validate({ question_id: 'q1' }).error,
    ).toBeDefined();
  });

  it('puts the Reviewer rule first and lets filters only narrow it', () => {
    const params: unknown[] = [];
    const where = taskListWhere(principal('REVIEWER', '7'), { reviewer_id: '9', surface: 'archive' }, params);
    expect(where).toBe('t.assignee_id = $1 AND t.archived AND t.assignee_id = $2');
    expect(params).toEqual(['7', '9']);
    const operator: unknown[] = [];
    expect(
      taskListWhere(principal('OWNER'), { reviewer_id: 'unassigned', surface: 'release' }, operator),
    ).toBe(
      "TRUE AND NOT t.archived AND t.review_state = 'COMPLETED' AND t.decision = 'ACCEPTED' AND t.report_id IS NOT NULL AND t.assignee_id IS NULL",
    );
    expect(operator).toEqual([]);
  });
});

describe('review status', () => {
  it('always lists every state and decision, with NONE for undecided', () => {
    expect(
      presentReviewStatus({
        total: 3,
        archived: 1,
        unassigned: 1,
        rs_completed: 2,
        dc_accepted: 2,
        dc_none: 1,
      }),
    ).toEqual({
      total: 3,
      archived: 1,
      unassigned: 1,
      review_states: { UNASSIGNED: 0, ASSIGNED: 0, IN_REVIEW: 0, COMPLETED: 2 },
      decisions: { ACCEPTED: 2, NEEDS_REVISION: 0, REJECTED: 0, NONE: 1 },
    });
    expect(reviewStatusColumns('t')).toContain(
      `FILTER (WHERE t.review_state = 'IN_REVIEW')::int AS rs_in_review`,
    );
  });
});

describe('count cache key', () => {
  it('is one key per shape whatever the order of the filters, and differs for any filter value', () => {
    const owner = principal('OWNER');
    const a = countShapeKey(owner, { q: 'orbit', run_id: 'r1', surface: 'all' });
    expect(countShapeKey(owner, { surface: 'all', run_id: 'r1', q: 'orbit' })).toBe(a);
    expect(countShapeKey(owner, { q: 'orbit', run_id: 'r2', surface: 'all' })).not.toBe(a);
    expect(countShapeKey(owner, { q: 'orbit', run_id: 'r1', surface: 'archive' })).not.toBe(a);
    expect(countShapeKey(owner, { q: 'orbit', surface: 'all' })).not.toBe(a);
  });

  it('gives every Reviewer a key of their own; Owners and Admins share the unscoped one', () => {
    const filters = { surface: 'all' as const };
    expect(countShapeKey(principal('REVIEWER', '7'), filters)).not.toBe(
      countShapeKey(principal('REVIEWER', '8'), filters),
    );
    expect(countShapeKey(principal('REVIEWER', '7'), filters)).not.toBe(
      countShapeKey(principal('OWNER', '7'), filters),
    );
    expect(countShapeKey(principal('OWNER', '7'), filters)).toBe(
      countShapeKey(principal('ADMIN', '9'), filters),
    );
  });
});

describe('client bodies', () => {
  const name = (value: string) => createClientBody.validate({ name: value }, { convert: false });

  it('trims the name and bounds it to 2..100 characters after trimming', () => {
    expect(name('  ab  ').value).toEqual({ name: 'ab' });
    expect(name(' a ').error?.message).toMatch(/2 to 100 characters after trimming/);
    expect(name('x'.repeat(100)).error).toBeUndefined();
    expect(name('x'.repeat(101)).error).toBeDefined();
    expect(name('🙂'.repeat(100)).error).toBeUndefined();
    expect(name('   ').error).toBeDefined();
  });

  it('requires all four fields on update', () => {
    const full = { name: 'Acme', description: '', enabled: true, updated_at: '2026-01-01T00:00:00.123Z' };
    expect(updateClientBody.validate(full, { convert: false }).error).toBeUndefined();
    for (const key of Object.keys(full)) {
      const partial: Record<string, unknown> = { ...full };
      delete partial[key];
      expect(updateClientBody.validate(partial, { convert: false }).error).toBeDefined();
    }
  });
});
