import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive through playwright-core (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** `describe`, or `describe.skip` with the reason in its title when Chromium is missing. */
export const describeInBrowser = hasChromium ? describe : describe.skip;
export const skipReason = hasChromium ? '' : ` — skipped: ${CHROMIUM} is missing (apt-get install chromium)`;

/** Headless Chromium with nothing of its own going to the network (no updates, no sync, no QUIC probes). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
