import { giveWayToTransitions } from '../../activities/exports';
import { ForegroundWork } from '../../activities/foreground';

describe('an export giving way to transitions, as it writes a part', () => {
  it('heartbeats before it pauses, so a part filled at a small share outlives no heartbeat timeout', async () => {
    const foreground = new ForegroundWork();
    foreground.mark();
    let heartbeats = 0;
    let paused = false;
    const started = performance.now();
    const pausing = giveWayToTransitions(
      { foreground, shareUnderLoad: 0.5 },
      40,
      () => (heartbeats += 1),
    ).then(() => (paused = true));
    // The heartbeat is sent as the pause begins, not after it.
    expect(heartbeats).toBe(1);
    expect(paused).toBe(false);
    await pausing;
    // The pause is busy × (1 − share) / share: 40 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(heartbeats).toBe(1);
  });

  it('neither pauses nor heartbeats while no transition ran lately', async () => {
    let heartbeats = 0;
    await giveWayToTransitions({ foreground: new ForegroundWork(), shareUnderLoad: 0.1 }, 50, () => {
      heartbeats += 1;
    });
    expect(heartbeats).toBe(0);
  });
});
