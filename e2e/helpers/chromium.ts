import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`), or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium started as this machine's closed network needs: no background traffic (its
 * refused connections otherwise pile up), no sandbox (root), no GPU. Shared by the journeys, the
 * browser integration tests and the browser benchmarks.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
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
