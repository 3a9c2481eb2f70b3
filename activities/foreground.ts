/**
 * Transitions are the worker's foreground work: a member's request waits on each one. An export is background
 * work that nobody waits on part by part, so while transitions run on the same worker it takes only a share of
 * the time (`EXPORT_SHARE_UNDER_LOAD`) and runs at full speed when it is alone.
 */
export class ForegroundWork {
  private lastAt = Number.NEGATIVE_INFINITY;

  /** A transition ran now. */
  mark(now = performance.now()): void {
    this.lastAt = now;
  }

  /** Whether a transition ran within the last `windowMs`. */
  recent(windowMs: number, now = performance.now()): boolean {
    return now - this.lastAt <= windowMs;
  }
}

/** How long after a transition an export stays paced: longer than the gaps between a busy team's transitions. */
export const FOREGROUND_WINDOW_MS = 500;

/**
 * The pause after `busyMs` of background work that leaves it `share` of the time (0 < share ≤ 1) while foreground
 * work is recent, and no pause otherwise.
 */
export function backgroundPauseMs(
  foreground: ForegroundWork,
  busyMs: number,
  share: number,
  now = performance.now(),
): number {
  if (share >= 1 || !foreground.recent(FOREGROUND_WINDOW_MS, now)) return 0;
  return (busyMs * (1 - share)) / share;
}
