import type { SearchAttributePair } from '@temporalio/common';
import {
  allHandlersFinished,
  condition,
  currentUpdateInfo,
  makeContinueAsNewFunc,
  patched,
  upsertSearchAttributes,
  type Workflow,
  workflowInfo,
} from '@temporalio/workflow';
import {
  DURABLE_PERSISTENCE_PATCH,
  FENCED_LOCAL_PERSISTENCE_PATCH,
  LOCAL_PERSISTENCE_PATCH,
  sameSearchAttributes,
} from './localPersistence';
import { SerialLock } from './serialLock';

/** Receipts kept for deduplication across continue-as-new. */
const RECENT_RECEIPTS = 200;
/**
 * Transitions per run before continuing as new. A cached run holds 15–20 KB of worker memory per update it has
 * handled until it continues as new (measured by soaks, docs/operator-tools.md), so runs are kept short: at most
 * about 0.2 MB of it per cached workflow.
 */
export const TRANSITIONS_PER_RUN = 10;
/** The bound of runs whose history predates SHORT_RUNS_PATCH (they replay with it). */
const LEGACY_TRANSITIONS_PER_RUN = 500;
/** Marks a run that continues as new after TRANSITIONS_PER_RUN; runs started before it keep 500. */
export const SHORT_RUNS_PATCH = 'task-short-runs';

/** How a transition is persisted, by the patches a history carries (see workflows/localPersistence.ts). */
export type PersistencePath = 'fenced' | 'durable' | 'local' | 'original';

export interface TaskEntityOptions<State> {
  /** The start (or continue-as-new) state. */
  state: State;
  /** Search attributes of a state: upserted when a transition changes them, carried by continue-as-new. */
  searchAttributes: (state: State) => SearchAttributePair[];
  /** Attributes set once at start that no transition changes (carried by continue-as-new). */
  fixedSearchAttributes?: SearchAttributePair[];
}

/** What continue-as-new carries of the skeleton; each workflow adds its own keys. */
export interface CarriedEntity<State, Receipt> {
  state: State;
  recentReceipts: Receipt[];
}

/**
 * The common part of the task (entity) workflows: one update at a time under a workflow-side lock, receipts kept
 * per update id (and across continue-as-new) so a retried update gets its first answer, the persistence patches,
 * search attributes, and continue-as-new with attributes and memo. Each workflow supplies its state machine,
 * its persistence activity and its attribute mapping.
 */
export class TaskEntity<State, Receipt extends { updateId: string }> {
  state: State;
  private transitionsThisRun = 0;
  private readonly transitionsPerRun: number;
  private readonly receipts: Receipt[];
  private readonly lock = new SerialLock();

  constructor(
    private readonly options: TaskEntityOptions<State>,
    recentReceipts: Receipt[] = [],
  ) {
    this.state = options.state;
    this.receipts = [...recentReceipts];
    // Decided once, at the start of the run: a history without the marker replays with the old bound.
    this.transitionsPerRun = patched(SHORT_RUNS_PATCH) ? TRANSITIONS_PER_RUN : LEGACY_TRANSITIONS_PER_RUN;
  }

  /** Whether the update being validated or handled was already answered (a retry of the same update id). */
  isRepeatedUpdate(): boolean {
    return this.receiptFor(currentUpdateId()) !== undefined;
  }

  /** Runs an update's section under the lock; a repeated update id gets its first receipt and runs nothing. */
  handleUpdate(section: (updateId: string) => Promise<Receipt>): Promise<Receipt> {
    const updateId = currentUpdateId();
    return this.lock.run(async () => {
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

  /** Evaluates the persistence patches in the order recorded histories expect (newest first). */
  persistencePath(): PersistencePath {
    if (patched(FENCED_LOCAL_PERSISTENCE_PATCH)) return 'fenced';
    if (patched(DURABLE_PERSISTENCE_PATCH)) return 'durable';
    return patched(LOCAL_PERSISTENCE_PATCH) ? 'local' : 'original';
  }

  /**
   * Whether this run writes fenced transitions; for a section that is not an update (the due-date timer), which
   * asks only this patch: a history without its marker never replays a command from the answer.
   */
  writesFences(): boolean {
    return patched(FENCED_LOCAL_PERSISTENCE_PATCH);
  }

  /**
   * The fence of a transition decided now: this workflow task's start time (the workflow's clock is the task's
   * start, Temporal's server time), the workflow id and the subject as the audit names it.
   */
  fence(subjectId: string): { workflowTaskTime: string; workflowId: string; subjectId: string } {
    return {
      workflowTaskTime: new Date(Date.now()).toISOString(),
      workflowId: workflowInfo().workflowId,
      subjectId,
    };
  }

  /**
   * Persists a decided transition, then adopts the next state and upserts the search attributes: always, or
   * only when the transition changes them (`on-change`, the patched paths).
   */
  async commit<Persisted>(transition: {
    persist: () => Promise<Persisted>;
    next: (persisted: Persisted) => State;
    upsert: 'always' | 'on-change';
  }): Promise<Persisted> {
    const persisted = await transition.persist();
    const before = this.options.searchAttributes(this.state);
    this.state = transition.next(persisted);
    this.transitionsThisRun += 1;
    const after = this.options.searchAttributes(this.state);
    if (transition.upsert === 'always' || !sameSearchAttributes(before, after)) upsertSearchAttributes(after);
    return persisted;
  }

  shouldContinueAsNew(): boolean {
    return this.transitionsThisRun >= this.transitionsPerRun || workflowInfo().continueAsNewSuggested;
  }

  /** Once every handler has finished, continues as new with the state, receipts, attributes and memo. */
  async continueAsNew<W extends Workflow>(
    input: (carried: CarriedEntity<State, Receipt>) => Parameters<W>[0],
  ): Promise<never> {
    await condition(allHandlersFinished);
    const next = makeContinueAsNewFunc<W>({
      typedSearchAttributes: [
        ...(this.options.fixedSearchAttributes ?? []),
        ...this.options.searchAttributes(this.state),
      ],
      memo: workflowInfo().memo,
    });
    return next(...([input({ state: this.state, recentReceipts: this.receipts })] as Parameters<W>));
  }

  private receiptFor(updateId: string): Receipt | undefined {
    return this.receipts.find((receipt) => receipt.updateId === updateId);
  }
}

const currentUpdateId = (): string => currentUpdateInfo()?.id ?? '';
