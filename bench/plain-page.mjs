/**
 * A page of the app in a Chromium that Playwright does not drive, for the bench's HTTP row.
 *
 * Playwright turns on DevTools' Network domain in every page and worker it drives (for its
 * request events), and Chromium then reports each 64 KiB of a response to it: ~1700 messages
 * through the query worker for the 110 MB file, and work on the page's and the browser's main
 * threads. A person's browser does none of that; a local file's read does not go through it.
 * Measured (app page, 1000 m query, 8 fresh browsers each, alternated): over HTTP +50 ms
 * against the local file, 1.27× driven by Playwright and 1.09× driven here, the local times
 * alike (849 and 877 ms). See `docs/decisions.md`.
 *
 * Here the browser is driven through the Chrome DevTools Protocol with chrome-remote-interface,
 * using only Page, Runtime, DOM and Emulation (no Network). The page object has the two
 * methods of a Playwright page that the bench's `appQuery` uses: `evaluate` and
 * `waitForTimeout`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';

/**
 * Opens `url` in a fresh headless Chromium (`executablePath`, with `args`) at 1280 × 800, and
 * resolves once the page marks itself ready (`html[data-ready]`, as the bench's `appPage`
 * waits for) plus `settleMs`. Rejects when Chromium does not start or the page is not ready
 * within 60 s. Call `close()` when done.
 */
export async function openPlainPage(executablePath, args, url, settleMs = 1000) {
  const profile = mkdtempSync(join(tmpdir(), 'pbf-bench-'));
  const chromium = spawn(executablePath, ['--headless', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', ...args, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group, closed with all its helper processes
  });
  const close = async (client) => {
    await client?.close().catch(() => {});
    const exited = new Promise((resolve) => (chromium.exitCode !== null ? resolve() : chromium.once('exit', resolve)));
    try {
      process.kill(-chromium.pid);
    } catch {} // gone already
    await exited;
    // Its helper processes may still be writing to the profile for a moment.
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  };
  let client = null;
  try {
    const port = await devToolsPort(chromium);
    client = await CDP({ host: '127.0.0.1', port, target: (targets) => targets.find((t) => t.type === 'page') });
    await client.Emulation.setDeviceMetricsOverride({ width: 1280, height: 800, deviceScaleFactor: 1, mobile: false });
    await client.Page.navigate({ url });
    const page = plainPage(client, () => close(client));
    const ready = `location.origin === ${JSON.stringify(new URL(url).origin)} && document.documentElement.hasAttribute('data-ready')`;
    for (let waited = 0; !(await page.evaluateExpression(ready).catch(() => false)); waited += 100) {
      if (waited > 60_000) throw new Error(`${url} was not ready after 60 s`);
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(settleMs);
    return page;
  } catch (e) {
    await close(client);
    throw e;
  }
}

/** The port Chromium's DevTools server listens on, from the line it prints to stderr. */
function devToolsPort(chromium) {
  return new Promise((resolve, reject) => {
    let text = '';
    const read = (d) => {
      text += d;
      const m = text.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
      if (!m) return;
      chromium.stderr.off('data', read);
      chromium.stderr.resume(); // its later output is not kept
      resolve(Number(m[1]));
    };
    chromium.stderr.on('data', read);
    chromium.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before its DevTools server started: ${text.slice(-500)}`)));
  });
}

/** The page's methods over `client` (see the module's comment). */
function plainPage(client, close) {
  const evaluateExpression = async (expression) => {
    const { result, exceptionDetails } = await client.Runtime.evaluate({ expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  };
  return {
    evaluateExpression,
    /** As Playwright's `page.evaluate`: runs `fn(arg)` in the page (its source text), resolves to its value. */
    evaluate: (fn, arg) => evaluateExpression(`(${fn})(${arg === undefined ? '' : JSON.stringify(arg)})`),
    waitForTimeout: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    /** Sets the file input `selector`'s files to `paths`, as a person picking them (input and change events). */
    async setInputFiles(selector, paths) {
      const { result } = await client.Runtime.evaluate({ expression: `document.querySelector(${JSON.stringify(selector)})` });
      await client.DOM.setFileInputFiles({ files: paths, objectId: result.objectId });
    },
    close,
  };
}
