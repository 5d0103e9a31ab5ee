/**
 * Links, servers and framing pages written by strangers (docs/security.md): addresses that are
 * not http(s) or carry a password are refused without echoing them; a redirect to another
 * address, an online basemap's hosts and a framed page's questions all wait for the person
 * (nothing is sent to a new host before a yes; a framed page asks nothing).
 */
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startLocalServer } from '../local-server';
// @ts-expect-error: a plain ES module shared with the benchmark
import { startFaultServer } from '../fault-server.mjs';
import { DATA_DIR } from './data';
import { KNOWN_HOSTS_KEY } from '../../web/known-hosts';

const status = (page: Page) => page.getByTestId('status');
const count = (page: Page) => page.getByTestId('result-count');
const dialog = (page: Page) => page.getByTestId('confirm-download');
const MALTA_CAFES = 'q=amenity=cafe&near=35.8989,14.5146&radius=1000';

/** Requests a fault server has had for `token`. */
const sent = async (origin: string, token: string): Promise<number> => ((await (await fetch(`${origin}/${token}/bytes`)).json()) as { requests: number }).requests;

/** Lets `page` read from `hosts` without a question, as after an earlier yes. */
const knownHosts = (page: Page, hosts: string[]) => page.addInitScript(([key, list]) => localStorage.setItem(key, list), [KNOWN_HOSTS_KEY, JSON.stringify(hosts)]);

test('addresses that are not http(s), or carry a user name and password, are refused with a message that does not repeat them', async ({ page }) => {
  const cases: [string, RegExp][] = [
    ['javascript:alert(document.domain)', /^error: only http and https addresses can be read, not javascript: ones$/],
    ['file:///etc/passwd', /^error: only http and https addresses can be read, not file: ones$/],
    ['data:application/octet-stream;base64,AAAA', /^error: only http and https addresses can be read, not data: ones$/],
    ['blob:http://evil.example/0b5c1b9e-0000-4000-8000-000000000000', /^error: only http and https addresses can be read, not blob: ones$/],
    ['http://alice:s3cret@127.0.0.1:9/x.osm.pbf', /^error: an address with a user name or password in it is refused/],
  ];
  for (const [src, message] of cases) {
    await page.goto(`/?${MALTA_CAFES}&src=${encodeURIComponent(src)}`);
    await expect(status(page)).toHaveText(message);
    await expect(dialog(page)).toBeHidden();
    await expect(page.locator('body')).not.toContainText('s3cret');
  }
  // Typed into the URL field: the same.
  await page.locator('#url-form input[name=src]').fill('https://bob:hunter2@127.0.0.1:9/x.osm.pbf');
  await page.locator('#url-form').getByRole('button').click();
  await expect(status(page)).toHaveText(/^error: an address with a user name or password/);
  await expect(page.locator('body')).not.toContainText('hunter2');
});

test('a redirect to another address asks before anything is sent there; a no reads nothing, a yes reads the file', async ({ page }) => {
  const target = await startFaultServer(DATA_DIR);
  const redirecting = await startFaultServer(DATA_DIR, { redirectTo: target.origin });
  try {
    await knownHosts(page, [new URL(redirecting.origin).host]); // the link's own host was allowed before
    const token = randomUUID();
    const link = `/?${MALTA_CAFES}&src=${encodeURIComponent(`${redirecting.origin}/${token}/redirect/malta.osm.pbf`)}`;
    await page.goto(link);
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page)).toContainText(`The server of this link, ${new URL(redirecting.origin).host}, sends the file on to another address`);
    expect(await sent(target.origin, token), 'requests to the redirect target before an answer').toBe(0);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(status(page)).toHaveText('cancelled');
    expect(await sent(target.origin, token), 'requests to the redirect target after a no').toBe(0);
    await page.goto(link);
    await dialog(page).getByRole('button', { name: 'Follow' }).click();
    await expect(status(page)).toHaveText('done', { timeout: 60_000 });
    await expect(count(page)).toHaveText('43');
    expect(await sent(target.origin, token)).toBeGreaterThan(0);
  } finally {
    await redirecting.close();
    await target.close();
  }
});

test("a link's online basemap asks before its host is contacted, and a no keeps it out of the page's links", async ({ page }) => {
  let requests = 0;
  const style = await startLocalServer((_req, res) => {
    requests++;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ version: 8, sources: {}, layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#eee' } }] }));
  });
  try {
    const basemap = `${style.origin}/style.json`;
    await page.goto(`/?${MALTA_CAFES}&basemap=${encodeURIComponent(basemap)}`);
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page)).toContainText(`a basemap from ${new URL(style.origin).host}`);
    expect(requests, 'requests to the basemap host before an answer').toBe(0);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('basemap-note')).toContainText(`online basemap not used (you did not allow ${new URL(style.origin).host})`);
    expect(requests).toBe(0);
    await page.getByRole('button', { name: /copy link/i }).click();
    await expect(page.locator('#share-link')).not.toHaveValue(/basemap=/);
    // A yes loads it, and links carry it.
    await page.goto(`/?${MALTA_CAFES}&basemap=${encodeURIComponent(basemap)}`);
    await dialog(page).getByRole('button', { name: 'Use it' }).click();
    await expect(page.getByTestId('basemap-note')).toContainText(`basemap: online, from ${new URL(style.origin).host}`);
    expect(requests).toBeGreaterThan(0);
  } finally {
    style.close();
  }
});

test('framed by another site, the page asks nothing, reads nothing from other hosts, and says why', async ({ page, baseURL }) => {
  const files = await startFaultServer(DATA_DIR);
  const token = randomUUID();
  const app = `${baseURL}/?${MALTA_CAFES}&src=${encodeURIComponent(`${files.origin}/${token}/clean/malta.osm.pbf`)}`;
  const framing = await startLocalServer((_, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(`<!doctype html><title>another site</title><iframe src="${app}" width="1200" height="760"></iframe>`);
  });
  try {
    await page.goto(framing.origin);
    const frame = page.frameLocator('iframe');
    await expect(frame.locator('#framed-note')).toBeVisible({ timeout: 60_000 });
    await expect(frame.getByTestId('status')).toHaveText('cancelled');
    await expect(frame.getByTestId('confirm-download')).toBeHidden();
    expect(await sent(files.origin, token)).toBe(0);
  } finally {
    framing.close();
    await files.close();
  }
});
