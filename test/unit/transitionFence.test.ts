import { ApplicationFailure } from '@temporalio/common';
import { assertSupersedes, type WrittenTransition } from '../../activities/transitionFence';

const fence = { workflowTaskTime: '2026-11-25T10:00:10.000Z', workflowId: 'math-task/t-1', subjectId: 't-1' };
const written = (version: number, time: string | null): WrittenTransition => ({
  version,
  updateId: `u-${version}`,
  workflowTaskTime: time === null ? null : new Date(time),
  event: {},
});

describe('assertSupersedes (which unrecorded transitions a fenced write may replace)', () => {
  it('allows transitions decided by strictly older workflow tasks', () => {
    expect(() =>
      assertSupersedes(
        [written(4, '2026-11-25T10:00:00.000Z'), written(5, '2026-11-25T10:00:09.999Z')],
        fence,
      ),
    ).not.toThrow();
    expect(() => assertSupersedes([], fence)).not.toThrow();
  });

  it.each([
    ['a newer workflow task', '2026-11-25T10:00:11.000Z'],
    ['a workflow task of the same instant', '2026-11-25T10:00:10.000Z'],
    ['no task workflow (an event written without a fence)', null],
  ])('refuses, as superseded, when one was decided by %s', (_label, time) => {
    let failure: unknown;
    try {
      assertSupersedes([written(4, '2026-11-25T10:00:00.000Z'), written(5, time)], fence);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'superseded_workflow_task', nonRetryable: true });
  });
});
