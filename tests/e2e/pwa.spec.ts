/**
 * The installable, offline app: after one visit it starts and answers queries with the network
 * off; Chromium finds it installable with a .pbf file handler; a new deployment is announced and
 * taken on only when the user asks.
 */
import { chromium, expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { RequestListener } from 'node:http';
import { join, resolve } from 'node:path';
import sirv from 'sirv';
import { startLocalServer } from '../local-server';
import { DATA_DIR } from './data';

const status = (page: Page) => page.getByTestId('status');
const count = (page: Page) => page.getByTestId('result-count');

async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test('after one visit the app starts and answers queries offline', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await expect(page.locator('#offline-note')).toHaveText('Ready to work offline.');
  await context.setOffline(true);
  await page.goto('/?src=/sample/helsinki.osm.pbf&q=amenity=cafe&near=60.1699,24.9384&radius=1000');
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('87');
  await expect(page.locator('.maplibregl-canvas')).toBeVisible();
  // The world's land (Natural Earth, an asset of the app's) is drawn offline too: Helsinki's tiles hold some.
  const landFeatures = () =>
    page.evaluate(() => (window as unknown as { pbfExplorerMap: import('maplibre-gl').Map }).pbfExplorerMap.querySourceFeatures('land').length);
  await expect.poll(landFeatures).toBeGreaterThan(0);
  // A file of the user's own, still offline.
  await page.getByLabel('Centre (lat,lon)').fill('35.8989,14.5146');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('43');
  await context.setOffline(false);
});

test("the service worker answers the sample's ranges from its cache, and a range it cannot satisfy with 416", async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await context.setOffline(true); // what answers is the service worker, not the server
  const answers = await page.evaluate(async () => {
    const out: [number, string | null, number][] = [];
    for (const range of ['bytes=0-9', 'bytes=-4', 'bytes=5-1', 'bytes=99999999-']) {
      const reply = await fetch('./sample/helsinki.osm.pbf', { headers: { Range: range } });
      out.push([reply.status, reply.headers.get('Content-Range'), (await reply.arrayBuffer()).byteLength]);
    }
    return out;
  });
  await context.setOffline(false);
  const size = Number(/\/(\d+)$/.exec(answers[0][1] ?? '')?.[1]);
  expect(size).toBeGreaterThan(100_000);
  expect(answers).toEqual([
    [206, `bytes 0-9/${size}`, 10],
    [206, `bytes ${size - 4}-${size - 1}/${size}`, 4],
    [416, `bytes */${size}`, 0],
    [416, `bytes */${size}`, 0],
  ]);
});

test('Chromium finds the app installable, with a file handler for .pbf', async ({ baseURL, launchOptions }) => {
  // Installability is never granted in an incognito profile, which is what Playwright's default
  // contexts are: use a real, persistent profile.
  const profile = mkdtempSync(join(tmpdir(), 'pbf-explorer-profile-'));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data ?? '{}');
    expect(data.display).toBe('standalone');
    expect(data.file_handlers).toEqual([{ action: './', accept: { 'application/x-osm-pbf': ['.pbf'] } }]);
    expect(data.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('a new deployment shows the update prompt, and updates only on request', async ({ page }) => {
  // One origin whose files switch from build A (dist/) to build B, as a deployment would.
  let files: RequestListener = sirv(resolve('dist'), { dev: true });
  const server = await startLocalServer((req, res) => files(req, res));
  const origin = server.origin;
  try {
    await page.goto(`${origin}/`);
    await waitForServiceWorker(page);
    const buildA = await page.locator('#build-id').textContent();
    files = sirv(resolve('test-results/dist-b'), { dev: true });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByTestId('update-banner')).toBeVisible();
    await expect(page.locator('#build-id')).toHaveText(buildA!); // nothing changed under the user
    await page.getByRole('button', { name: 'Reload to update' }).click();
    await expect(page.locator('#build-id')).toHaveText('test-b');
  } finally {
    server.close();
  }
});
