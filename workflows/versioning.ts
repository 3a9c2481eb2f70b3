import { condition, defineSignal, setHandler, workflowInfo } from '@temporalio/workflow';

/*
 * How a pinned, long-lived workflow moves to a new build (docs/workflow-evolution.md, "Versioning"). A run stays on
 * the Worker Deployment Version that started it; to move, it continues as new:
 *
 * - where Temporal tells a run that its target version changed (`targetWorkerDeploymentVersionChanged`, servers
 *   after 1.29), it continues as new with `initialVersioningBehavior: 'AUTO_UPGRADE'`, onto the current version;
 * - on server 1.29, which pins a continued run to its predecessor's version, the rollout asks it to move
 *   (`moveToCurrentVersion`): it continues as new *parked*, a run that issues no command but one timer until it is
 *   resumed, so the rollout can pin it to the new version (a versioning override) without anything to replay
 *   but that timer, and then resumes it (`resumeAfterMove`). Updates that arrive meanwhile are accepted and wait.
 */

/** Asks a run to continue as new at its next safe point, parked, so a rollout can move it. */
export const moveToCurrentVersionSignal = defineSignal('moveToCurrentVersion');
/**
 * Resumes a parked run once a worker of the named build handles it (sent once the rollout has pinned the run to
 * that build). A worker of another build ignores it: the old worker that cached the run may still take a task of
 * it, and the run must not issue commands there that the new build would then replay.
 */
export const resumeAfterMoveSignal = defineSignal<[buildId: string]>('resumeAfterMove');

/** A parked run nobody resumes (the rollout stopped) resumes where it is after this long. */
export const PARKED_AT_MOST = '2 minutes';

/** What a movable workflow's start (and continue-as-new) argument carries. */
export interface MovableInput {
  /** Set when the run was continued as new to be moved by a rollout: it waits to be resumed first. */
  parked?: boolean;
}

/** How the current run leaves for a new build, if it should: parked for a rollout, or upgrading itself. */
export type Departure = { parked: true } | { upgrade: true } | null;

/**
 * The versioning side of a movable run: installs the move signals, waits while parked, and tells the run's loop
 * when to continue as new and how. Create it first thing in the workflow function, before any command, so a parked
 * run's history holds nothing but its timer when the rollout moves it.
 */
export class MovableRun {
  private moveRequested = false;
  private parked: boolean;

  constructor(input: MovableInput) {
    this.parked = input.parked === true;
    setHandler(moveToCurrentVersionSignal, () => {
      this.moveRequested = true;
    });
    setHandler(resumeAfterMoveSignal, (buildId) => {
      if (workflowInfo().currentDeploymentVersion?.buildId === buildId) this.parked = false;
    });
  }

  /** Waits, if the run started parked, until a rollout resumes it (or it gives up waiting). */
  async resumed(): Promise<void> {
    if (!this.parked) return;
    await condition(() => !this.parked, PARKED_AT_MOST);
    this.parked = false;
  }

  /** Whether the run is parked (an update handler waits for {@link resumed} first). */
  get isParked(): boolean {
    return this.parked;
  }

  /** Whether the run should continue as new onto another version now (a condition the main loop waits on). */
  get departing(): boolean {
    return this.departure() !== null;
  }

  /** How to continue as new: parked for the rollout that asked, or upgrading where Temporal offers it. */
  departure(): Departure {
    if (this.moveRequested) return { parked: true };
    if (workflowInfo().targetWorkerDeploymentVersionChanged) return { upgrade: true };
    return null;
  }
}
