import type { SearchAttributePair } from '@temporalio/common';
import {
  type ActivityOptions,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  currentUpdateInfo,
  makeContinueAsNewFunc,
  upsertSearchAttributes,
  type Workflow,
  workflowInfo,
} from '@temporalio/workflow';
import type { TransitionFence } from '../activities/transitionFence';
import { SerialLock } from './serialLock';
import { WORKFLOW_VARIANT } from './variant';
import { type MovableInput, MovableRun } from './versioning';

/** Receipts kept for deduplication across continue-as-new. */
const RECENT_RECEIPTS = 200;
/**
 * Transitions per run before continuing as new: a cached run holds worker memory for every update it has handled
 * until it continues as new (docs/operator-tools.md, "Worker memory").
 */
export const TRANSITIONS_PER_RUN = 10;

/** Options of the activities an update waits on: its persistence, and the facts it decides on. */
export const UPDATE_ACTIVITY_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
} satisfies ActivityOptions;

/**
 * The failure an update is refused with, by its validator or its handler: the state machine's code and message,
 * and the part of the state the client re-reads before it retries.
 */
export const refusal = (rejection: { code: string; message: string }, state: Record<string, unknown>) =>
  ApplicationFailure.create({
    type: rejection.code,
    message: rejection.message,
    nonRetryable: true,
    details: [state],
  });

export interface TaskEntityOptions<State> {
  /** The start (or continue-as-new) state. */
  state: State;
  /** The math task id or the genomics topic uid: the subject a transition's fence names. */
  subjectId: string;
  /** Search attributes of a state: upserted when a transition changes them, carried by continue-as-new. */
  searchAttributes: (state: State) => SearchAttributePair[];
  /** Attributes set once at start that no transition changes (carried by continue-as-new). */
  fixedSearchAttributes?: SearchAttributePair[];
  /** The run's start argument as far as versioning reads it (whether it starts parked, workflows/versioning.ts). */
  movable?: MovableInput;
}

/** What continue-as-new carries of the skeleton; each workflow adds its own keys. */
export interface CarriedEntity<State, Receipt> extends MovableInput {
  state: State;
  recentReceipts: Receipt[];
}

/**
 * The common part of the task (entity) workflows: one update at a time under a workflow-side lock, receipts kept
 * per update id (and across continue-as-new) so a retried update gets its first answer, fenced persistence,
 * search attributes, and continue-as-new with attributes and memo. Each workflow supplies its state machine,
 * its persistence activity and its attribute mapping.
 */
export class TaskEntity<State, Receipt extends { updateId: string }> {
  state: State;
  private transitionsThisRun = 0;
  private readonly receipts: Receipt[];
  private readonly lock = new SerialLock();
  /** Pinned to the build that started it, the run continues as new to move to another (workflows/versioning.ts). */
  private readonly movable: MovableRun;

  constructor(
    private readonly options: TaskEntityOptions<State>,
    recentReceipts: Receipt[] = [],
  ) {
    this.state = options.state;
    this.receipts = [...recentReceipts];
    this.movable = new MovableRun(options.movable ?? {});
  }

  /** Waits while the run is parked for a rollout; a workflow awaits this before anything that issues a command. */
  resumed(): Promise<void> {
    return this.movable.resumed();
  }

  /** Whether the update being validated or handled was already answered (a retry of the same update id). */
  isRepeatedUpdate(): boolean {
    return this.receiptFor(currentUpdateId()) !== undefined;
  }

  /** Runs an update's section under the lock; a repeated update id gets its first receipt and runs nothing. */
  handleUpdate(section: (updateId: string) => Promise<Receipt>): Promise<Receipt> {
    const updateId = currentUpdateId();
    return this.lock.run(async () => {
      // An update accepted while the run is parked is decided after the move, on the new build.
      if (this.movable.isParked) await condition(() => !this.movable.isParked);
      const earlier = this.receiptFor(updateId);
      if (earlier) return earlier;
      const receipt = await section(updateId);
      this.receipts.push(receipt);
      if (this.receipts.length > RECENT_RECEIPTS)
        this.receipts.splice(0, this.receipts.length - RECENT_RECEIPTS);
      return receipt;
    });
  }

  /** Runs a section that is not an update (a timer's transition) under the same lock. */
  exclusive<T>(section: () => Promise<T>): Promise<T> {
    return this.lock.run(section);
  }

  /**
   * Persists a transition decided in this workflow task, with its fence (docs/decisions-system.md, "Transitions persisted
   * in the update's workflow task"), then adopts the next state and upserts the search attributes if it changes
   * them.
   */
  async commit<Persisted>(transition: {
    persist: (fence: TransitionFence) => Promise<Persisted>;
    next: (persisted: Persisted) => State;
  }): Promise<Persisted> {
    const persisted = await transition.persist(this.fence());
    const before = this.options.searchAttributes(this.state);
    this.state = transition.next(persisted);
    this.transitionsThisRun += 1;
    const after = this.options.searchAttributes(this.state);
    if (!sameSearchAttributes(before, after)) upsertSearchAttributes(after);
    if (WORKFLOW_VARIANT === 'extra-upsert') upsertSearchAttributes(after);
    return persisted;
  }

  shouldContinueAsNew(): boolean {
    return (
      this.transitionsThisRun >= TRANSITIONS_PER_RUN ||
      workflowInfo().continueAsNewSuggested ||
      this.movable.departing
    );
  }

  /**
   * Once every handler has finished, continues as new with the state, receipts, attributes and memo: parked when a
   * rollout asked to move the run, onto the current version when Temporal says the target version changed, else
   * on the run's own version.
   */
  async continueAsNew<W extends Workflow>(
    input: (carried: CarriedEntity<State, Receipt>) => Parameters<W>[0],
  ): Promise<never> {
    await condition(allHandlersFinished);
    const departure = this.movable.departure();
    const next = makeContinueAsNewFunc<W>({
      typedSearchAttributes: [
        ...(this.options.fixedSearchAttributes ?? []),
        ...this.options.searchAttributes(this.state),
      ],
      memo: workflowInfo().memo,
      ...(departure && 'upgrade' in departure ? { initialVersioningBehavior: 'AUTO_UPGRADE' as const } : {}),
    });
    const carried: CarriedEntity<State, Receipt> = { state: this.state, recentReceipts: this.receipts };
    if (departure && 'parked' in departure) carried.parked = true;
    return next(...([input(carried)] as Parameters<W>));
  }

  /**
   * The fence of a transition decided now: this workflow task's start time (the workflow's clock is the task's
   * start, Temporal's server time), the workflow id and the subject as the audit names it.
   */
  private fence(): TransitionFence {
    return {
      workflowTaskTime: new Date(Date.now()).toISOString(),
      workflowId: workflowInfo().workflowId,
      subjectId: this.options.subjectId,
    };
  }

  private receiptFor(updateId: string): Receipt | undefined {
    return this.receipts.find((receipt) => receipt.updateId === updateId);
  }
}

const currentUpdateId = (): string => currentUpdateInfo()?.id ?? '';

/** Whether two lists of search attributes hold the same values, so upserting the second changes nothing. */
function sameSearchAttributes(a: SearchAttributePair[], b: SearchAttributePair[]): boolean {
  const values = (pairs: SearchAttributePair[]) =>
    new Map(pairs.map((pair) => [pair.key.name, JSON.stringify(pair.value)]));
  const left = values(a);
  const right = values(b);
  return left.size === right.size && [...left].every(([name, value]) => right.get(name) === value);
}
