import { backgroundPauseMs, FOREGROUND_WINDOW_MS, ForegroundWork } from '../../activities/foreground';

describe('an export giving way to transitions', () => {
  it('does not pause while no transition ran lately', () => {
    const foreground = new ForegroundWork();
    expect(backgroundPauseMs(foreground, 40, 0.25, 1_000)).toBe(0);
    foreground.mark(1_000);
    expect(backgroundPauseMs(foreground, 40, 0.25, 1_000 + FOREGROUND_WINDOW_MS + 1)).toBe(0);
  });

  it('pauses so that its work is its share of the time while transitions run', () => {
    const foreground = new ForegroundWork();
    foreground.mark(1_000);
    expect(backgroundPauseMs(foreground, 40, 0.25, 1_100)).toBe(120);
    expect(backgroundPauseMs(foreground, 40, 0.5, 1_100)).toBe(40);
  });

  it('never pauses with a share of 1', () => {
    const foreground = new ForegroundWork();
    foreground.mark(1_000);
    expect(backgroundPauseMs(foreground, 40, 1, 1_000)).toBe(0);
  });
});
