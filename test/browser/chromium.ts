// Debian's chromium through playwright-core, and the wait for a hub page to settle: shared by the
// browser tests' harness and scripts/list-screens.ts. No vitest import here, so a plain script
// may use it (the harness reads vitest's inject(), which works only inside a vitest run).
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium; the suite fails (never skips) without it: .ci/run installs it. */
export function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed: apt-get update && apt-get install -y chromium');
  }
}

/** Chromium, headless, that reaches for nothing but the pages it is sent to. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    // No fixed 30 s: a loaded machine can take longer to start it; the caller's timeout bounds it.
    timeout: 0,
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** Waits until the document loaded and nothing on screen is still loading or busy (15 s at most). */
export async function untilSettled(page: Page, name: string): Promise<void> {
  // (networkidle never comes on a page that polls, and waits half a second after every request anyway.)
  await page.waitForLoadState('load');
  // Polled from here: page.waitForFunction polls by eval inside the page, which the hub's CSP
  // (rightly) refuses; page.evaluate is not subject to it.
  const deadline = Date.now() + 15_000;
  while (!(await page.evaluate(`!document.querySelector('.state-loading, [aria-busy="true"]') && document.getElementById('root')?.childElementCount > 0`))) {
    if (Date.now() > deadline) throw new Error(`${name}: the page is still loading or busy after 15 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
