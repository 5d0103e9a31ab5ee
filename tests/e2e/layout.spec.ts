/**
 * The page laid out for work (issue "a workbench for the answer"): the map the window's height,
 * the answer in a pane beside it showing at least 20 rows at 1280×800, with fixed type, id and
 * name cells, a filter over the rows and a column chooser; map and table as one selection; a
 * refused query's reason under the field with the last answer kept; on a phone, one scroll and
 * a pane that slides over the map. Screenshots of each state go to test-results/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR, languageAnswer } from './data';

type MapHandle = { pbfExplorerMap: import('maplibre-gl').Map };
const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');


/** Valletta's cafés and restaurants within 1000 m, on malta.osm.pbf. */
const VALLETTA = '/?q=amenity%3Dcafe+or+amenity%3Drestaurant&near=35.8989,14.5146&radius=1000';

async function openMalta(page: Page, search = VALLETTA): Promise<void> {
  await page.goto(search);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
}

/** Whether the first element `selector` finds is in the window: its whole height, and its left edge (a row may be wider). */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.left < window.innerWidth && r.width > 0;
  });
}

/** Waits until the map has drawn what it was given (a software renderer takes a while). */
async function mapIdle(page: Page): Promise<void> {
  await page.waitForFunction(() => 'pbfExplorerMap' in window);
  await page.evaluate(() => new Promise<void>((done) => {
    const map = (window as unknown as MapHandle).pbfExplorerMap;
    map.once('idle', () => done());
    map.triggerRepaint();
  }));
}

test('at 1280×800 the map is the window\'s height and the pane shows 20 rows or more, with the query and count in view', async ({ page }) => {
  await openMalta(page);
  const map = (await page.locator('#map').boundingBox())!;
  expect(map.height).toBe(800);
  expect(map.width).toBeGreaterThan(400);
  const rows = await page.getByTestId('result-scroll').evaluate((el) => Math.floor((el.clientHeight - 24) / 24));
  expect(rows).toBeGreaterThanOrEqual(20);
  const count = Number(await page.getByTestId('result-count').textContent());
  await expect(page.getByTestId('result-item')).toHaveCount(Math.min(count, rows + 10), { timeout: 10_000 }).catch(() => {});
  const visibleRows = await page.getByTestId('result-item').evaluateAll((lis) => lis.filter((li) => {
    const r = li.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  }).length);
  expect(visibleRows).toBeGreaterThanOrEqual(Math.min(count, 20));
  await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'desktop-answer.png') });
  for (const selector of ['input[name=q]', '[data-testid=result-count]', '[data-testid=status]', '[data-testid=export-geojson]', '#result-filter']) {
    expect(await inView(page, selector), selector).toBe(true);
  }
  await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'desktop-answer.png') });
});

test('a refused query says why under the field, marks it invalid, and keeps the last answer', async ({ page }) => {
  await openMalta(page);
  const count = await page.getByTestId('result-count').textContent();
  const first = await page.getByTestId('result-item').first().getAttribute('data-osm-id');
  const field = page.locator('input[name=q]');
  await field.fill('amenity=cafe or (cuisine=');
  await field.press('Enter');
  const error = page.getByTestId('query-error');
  await expect(error).toContainText('syntax error at column');
  expect(await inView(page, '[data-testid=query-error]')).toBe(true);
  await expect(field).toHaveAttribute('aria-invalid', '');
  await expect(page.getByTestId('result-count')).toHaveText(count!);
  await expect(page.getByTestId('result-item').first()).toHaveAttribute('data-osm-id', first!);
  await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'desktop-query-error.png') });
  // Mended, it runs, and the message goes.
  await field.fill('amenity=cafe');
  await field.press('Enter');
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(error).toBeHidden();
  await expect(field).not.toHaveAttribute('aria-invalid', '');
});

test('the table\'s filter keeps the rows holding its text, the exports follow it, and a column can be turned off', async ({ page }) => {
  await openMalta(page);
  const total = Number(await page.getByTestId('result-count').textContent());
  // Every match whose cuisine is italian (libosmium's answer to the refinement) is kept, and
  // every row kept holds the text in a tag (a key or value), whatever its case.
  const italian = languageAnswer('(amenity=cafe or amenity=restaurant) and cuisine=italian');
  await page.getByTestId('result-filter').fill('ITALIAN');
  await expect(page.getByTestId('filter-count')).toHaveText(/^\d+ of \d+ rows$/);
  const kept = Number((await page.getByTestId('filter-count').textContent())!.split(' ')[0]);
  expect(kept).toBeGreaterThanOrEqual(italian.length);
  expect(kept).toBeLessThan(total);
  await expect(page.getByTestId('filter-count')).toHaveText(`${kept} of ${total} rows`);
  await expect(page.locator('#result-list')).toHaveAttribute('style', new RegExp(`height: ${kept * 24}px`));
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const geojson = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  expect(geojson.features).toHaveLength(kept);
  expect(geojson.metadata.filter).toBe('ITALIAN');
  type Feature = { properties: Record<string, unknown> };
  const keys = geojson.features.map((f: Feature) => `${f.properties.osm_type}/${f.properties.osm_id}`);
  for (const id of italian) expect(keys).toContain(id);
  for (const f of geojson.features as Feature[]) {
    const tags = Object.entries(f.properties).filter(([k]) => !['osm_type', 'osm_id'].includes(k));
    expect(tags.some(([k, v]) => `${k}\u0000${v}`.toLowerCase().includes('italian')), JSON.stringify(f.properties)).toBe(true);
  }
  await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'desktop-filter.png') });
  // Emptied: every match again.
  await page.getByTestId('result-filter').fill('');
  await expect(page.getByTestId('filter-count')).toHaveText('');
  await expect(page.locator('#result-list')).toHaveAttribute('style', new RegExp(`height: ${total * 24}px`));
  // The column chooser: cuisine off, then on again.
  await page.locator('#column-chooser summary').click();
  const cuisine = page.getByTestId('column-choice').and(page.locator('[value=cuisine]'));
  await expect(page.getByTestId('column-header').filter({ hasText: /^cuisine/ })).toHaveCount(1);
  await cuisine.uncheck();
  await expect(page.getByTestId('column-header').filter({ hasText: /^cuisine/ })).toHaveCount(0);
  await expect(page.getByTestId('column-header')).toHaveText([/^type/, /^id/, /^name/, /^amenity/, ...Array(await page.getByTestId('column-header').count() - 4).fill(/./)]);
  await cuisine.check();
  await expect(page.getByTestId('column-header').filter({ hasText: /^cuisine/ })).toHaveCount(1);
});

test('the type, id and name cells stay in view when the table scrolls sideways', async ({ page }) => {
  await openMalta(page);
  await expect(page.getByTestId('column-header')).not.toHaveCount(3);
  const scroller = page.getByTestId('result-scroll');
  await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  const name = page.getByTestId('result-item').first().locator('bdi');
  const [nameBox, paneBox] = [(await name.boundingBox())!, (await scroller.boundingBox())!];
  expect(nameBox.x).toBeGreaterThanOrEqual(paneBox.x);
  expect(nameBox.x).toBeLessThan(paneBox.x + 200);
});

test('a row click selects the match on the map; a click on the map selects and scrolls to its row', async ({ page }) => {
  await openMalta(page, '/?q=amenity%3Drestaurant&near=35.8989,14.5146&radius=1000');
  const rows = page.getByTestId('result-item');
  const [type, id] = [await rows.nth(12).getAttribute('data-osm-type'), Number(await rows.nth(12).getAttribute('data-osm-id'))];
  const last = page.locator(`[data-testid=result-item][data-osm-id="${id}"]`);
  await last.click();
  await expect(last).toHaveClass(/selected/);
  const fid = id * 4 + ['node', 'way', 'relation'].indexOf(type!);
  await expect.poll(() => page.evaluate((f) => (window as unknown as MapHandle).pbfExplorerMap.getFeatureState({ source: 'matches', id: f }).selected, fid)).toBe(true);
  // Back to the top of the table, then a click on the feature on the map.
  await page.getByTestId('result-scroll').evaluate((el) => (el.scrollTop = 0));
  await page.waitForFunction(() => !(window as unknown as MapHandle).pbfExplorerMap.isMoving());
  const m = await page.evaluate((f) => {
    const map = (window as unknown as MapHandle).pbfExplorerMap;
    const hit = map.querySourceFeatures('matches').find((x) => x.id === f);
    const c = hit?.geometry.type === 'Point' ? (hit.geometry.coordinates as [number, number]) : map.getCenter().toArray();
    return map.project(c as [number, number]);
  }, fid);
  await page.getByTestId('popup').locator('..').locator('.maplibregl-popup-close-button').click().catch(() => {});
  await page.locator('#map canvas').click({ position: { x: m.x, y: m.y } });
  await expect(page.getByTestId('popup')).toBeVisible();
  const row = page.locator(`[data-testid=result-item][data-osm-id="${id}"]`);
  await expect(row).toHaveClass(/selected/);
  expect(await inView(page, `[data-testid=result-item][data-osm-id="${id}"]`)).toBe(true);
  await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'desktop-selection.png') });
});

test('a row without a name says which tag stands in for it', async ({ page }) => {
  await openMalta(page, '/?q=amenity%3Dparking&near=35.8989,14.5146&radius=1000');
  const standIn = page.locator('[data-testid=result-item] bdi.stand-in').first();
  await expect(standIn).toHaveText(/^amenity=parking$|^[^=]+=/);
  await expect(standIn).toHaveAttribute('title', /^no name tag: its first tag, .+=.+, stands in$/);
  const named = page.locator('[data-testid=result-item] bdi:not(.stand-in)').first();
  if (await named.count()) expect(await named.getAttribute('title')).toBeNull();
});

test('the pane\'s width follows its separator, by pointer and by keyboard, and is remembered', async ({ page }) => {
  await openMalta(page);
  const pane = page.locator('#results');
  const before = (await pane.boundingBox())!.width;
  const sep = (await page.getByTestId('pane-resizer').boundingBox())!;
  await page.mouse.move(sep.x + 3, 400);
  await page.mouse.down();
  await page.mouse.move(sep.x - 97, 400, { steps: 5 });
  await page.mouse.up();
  const wider = (await pane.boundingBox())!.width;
  expect(Math.abs(wider - (before + 100))).toBeLessThanOrEqual(2);
  await page.getByTestId('pane-resizer').focus();
  await page.keyboard.press('ArrowRight');
  expect((await pane.boundingBox())!.width).toBeCloseTo(wider - 24, 0);
  await expect(page.getByTestId('pane-resizer')).toHaveAttribute('aria-valuenow', String(Math.round(wider - 24)));
  await page.reload();
  await expect.poll(async () => (await pane.boundingBox())!.width).toBeCloseTo(wider - 24, 0);
  // The map keeps its place between the panel and the pane.
  const map = (await page.locator('#map').boundingBox())!;
  expect(map.x + map.width).toBeCloseTo(1280 - (wider - 24), 0);
});

test('a clustered answer writes each cluster\'s count on it', async ({ page }) => {
  // Every building of Malta: past 10 000 matches the map clusters them below zoom 13.
  await openMalta(page, '/?q=building');
  const total = Number(await page.getByTestId('result-count').textContent());
  expect(total).toBeGreaterThan(10_000);
  await page.evaluate(() => (window as unknown as MapHandle).pbfExplorerMap.jumpTo({ center: [14.45, 35.9], zoom: 10 }));
  // The labels follow the tiles of the new zoom as they load (moveend, then each tile's
  // sourcedata): read them once the map is idle, and again until the two agree.
  await mapIdle(page);
  const labels = page.getByTestId('cluster-count');
  await expect.poll(() => labels.count()).toBeGreaterThan(0);
  // Each label says its cluster's count, as MapLibre counts it; no cluster holds more than the answer.
  await expect(async () => {
    const counts = await page.evaluate(() => {
      const map = (window as unknown as MapHandle).pbfExplorerMap;
      const clusters = map.querySourceFeatures('matches', { filter: ['has', 'point_count'] }).map((f) => Number(f.properties.point_count));
      const shown = [...document.querySelectorAll<HTMLElement>('[data-testid=cluster-count]')].map((el) => [Number(el.dataset.count), el.textContent]);
      return { clusters, shown };
    });
    for (const [count, text] of counts.shown) {
      expect(counts.clusters).toContain(count);
      expect(count).toBeLessThanOrEqual(total);
      // Abbreviated as supercluster does: 1.2k, 15k.
      const n = Number(count);
      expect(text).toBe(n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n));
    }
  }).toPass({ timeout: 15_000 });
  await page.screenshot({ path: join(SHOTS, 'desktop-clusters.png') });
});

test('every text on the page has a contrast of 4.5:1 or more with what is behind it (WCAG 2.1 AA, 1.4.3)', async ({ page }) => {
  await openMalta(page);
  await page.locator('#file-info-view summary').click();
  await page.getByTestId('tag-stats').locator('summary').click();
  await page.locator('[data-testid=stats-key]').first().click();
  await page.getByTestId('result-item').first().click();
  await expect(page.getByTestId('popup')).toBeVisible();
  const low = await page.evaluate(() => {
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA => {
      const [r, g, b, a = 1] = c.match(/[\d.]+/g)!.map(Number);
      return [r, g, b, a];
    };
    const over = ([r, g, b, a]: RGBA, [R, G, B]: RGBA): RGBA => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a), 1];
    const luminance = ([r, g, b]: RGBA) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    // What is behind `el`: its own and its ancestors' backgrounds laid over white.
    const background = (el: Element | null): RGBA => {
      const layers: RGBA[] = [];
      for (let e = el; e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
      return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1] as RGBA);
    };
    const found: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent!.trim()).join('');
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (!text || box.width === 0 || style.visibility === 'hidden' || (el as HTMLButtonElement).disabled || el.closest('[hidden], .maplibregl-ctrl-attrib, canvas')) continue;
      const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const bg = background(el);
      const value = ratio(luminance(over(parse(style.color), bg)), luminance(bg));
      if (value < 4.5) found.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${text.slice(0, 30)}": ${value.toFixed(2)}`);
    }
    return found;
  });
  expect(low).toEqual([]);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('one scroll, and the answer pane slides over the map and back', async ({ page }) => {
    await openMalta(page);
    // One scroll: the page's, not a panel's inside it.
    expect(await page.locator('#panel').evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight > window.innerHeight)).toBe(true);
    const toggle = page.getByTestId('pane-toggle');
    const count = await page.getByTestId('result-count').textContent();
    await expect(toggle).toHaveText(`Answer: ${count} matches`);
    expect(await inView(page, '[data-testid=pane-toggle]')).toBe(true);
    expect(await inView(page, '[data-testid=result-item]')).toBe(false); // the pane waits below
    await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'phone-map.png') });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => inView(page, '[data-testid=result-item]')).toBe(true);
    await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'phone-pane.png') });
    await page.getByTestId('result-item').first().click();
    await expect(page.getByTestId('popup')).toBeVisible();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // A popup leaves most of the map's width free.
    const popup = (await page.locator('.maplibregl-popup').boundingBox())!;
    expect(popup.width).toBeLessThanOrEqual(390 * 0.8);
    await mapIdle(page);
  await page.screenshot({ path: join(SHOTS, 'phone-popup.png') });
  });
  test('a refused query says why in view, and a refinement from the statistics and the edit links work from the pane', async ({ page }) => {
    await openMalta(page);
    const field = page.locator('input[name=q]');
    const query = await field.inputValue();
    await field.fill('amenity=');
    await field.press('Enter');
    await expect(page.getByTestId('query-error')).toContainText('syntax error at column');
    expect(await inView(page, '[data-testid=query-error]')).toBe(true);
    await field.fill(query);
    await field.press('Enter');
    await expect(page.getByTestId('status')).toHaveText('done');
    await page.getByTestId('pane-toggle').click();
    await page.getByTestId('tag-stats').locator('summary').click();
    await page.locator('[data-testid=stats-key][data-text=cuisine]').click();
    await page.locator('[data-testid=stats-value][data-text=italian]').click();
    const refined = `(${query}) and cuisine=italian`;
    await expect(field).toHaveValue(refined);
    await expect(page.getByTestId('status')).toHaveText('done');
    await expect(page.getByTestId('result-count')).toHaveText(String(languageAnswer(refined).length));
    await expect(page.getByTestId('pane-toggle')).toHaveText(`Answer: ${languageAnswer(refined).length} matches`);
    const row = page.getByTestId('result-item').first();
    await expect(row.locator('a', { hasText: 'iD' })).toHaveAttribute('href', `https://www.openstreetmap.org/edit?editor=id&${await row.getAttribute('data-osm-type')}=${await row.getAttribute('data-osm-id')}`);
    await mapIdle(page);
    await page.screenshot({ path: join(SHOTS, 'phone-refined.png') });
  });
  test('from the pane: a row click selects its match on the map, Zoom to data frames the answer, Colour by key shows its legend', async ({ page }) => {
    await openMalta(page, '/?q=amenity%3Drestaurant&near=35.8989,14.5146&radius=1000');
    await page.getByTestId('pane-toggle').click();
    const row = page.getByTestId('result-item').nth(3);
    const [type, id] = [await row.getAttribute('data-osm-type'), Number(await row.getAttribute('data-osm-id'))];
    const picked = page.locator(`[data-testid=result-item][data-osm-id="${id}"]`);
    await picked.click();
    await expect(picked).toHaveClass(/selected/);
    const fid = id * 4 + ['node', 'way', 'relation'].indexOf(type!);
    await expect.poll(() => page.evaluate((f) => (window as unknown as MapHandle).pbfExplorerMap.getFeatureState({ source: 'matches', id: f }).selected, fid)).toBe(true);
    await page.evaluate(() => (window as unknown as MapHandle).pbfExplorerMap.jumpTo({ center: [0, 0], zoom: 3 }));
    await page.getByTestId('zoom-to-data').click();
    const [w, s, e, n] = await page.evaluate(() => {
      const b = (window as unknown as MapHandle).pbfExplorerMap.getBounds();
      return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
    });
    expect(w < 14.5146 && 14.5146 < e && s < 35.8989 && 35.8989 < n, `${[w, s, e, n]}`).toBe(true);
    await page.getByTestId('style-key').fill('cuisine');
    await page.getByTestId('style-key').press('Enter');
    await expect(page.getByTestId('style-value').first()).toBeVisible();
    expect(await inView(page, '[data-testid=style-value]')).toBe(true);
    await mapIdle(page);
    await page.screenshot({ path: join(SHOTS, 'phone-style.png') });
  });
});
