/** Reads the virtualized result list as a person would: by scrolling it from top to bottom. */
import { expect, type Page } from '@playwright/test';
import { expectedAnswer, type ListedQuery } from './data';

/**
 * Every row of the result list as "node 123" / "way 456", sorted, collected by scrolling the
 * list half a screen at a time and waiting for the rows at each position to be drawn.
 */
export async function listedIds(page: Page): Promise<string[]> {
  const total = Number(await page.getByTestId('result-count').textContent());
  const ids = await page.getByTestId('result-scroll').evaluate(async (el, total) => {
    const seen = new Map<string, string>();
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    for (let top = 0; ; top += Math.max(24, el.clientHeight / 2)) {
      el.scrollTop = top;
      const first = Math.min(total - 1, Math.floor(el.scrollTop / 24));
      const last = Math.min(total - 1, Math.floor((el.scrollTop + el.clientHeight) / 24) - 1);
      const drawn = () => el.querySelector(`li[data-index="${first}"]`) && el.querySelector(`li[data-index="${last}"]`);
      for (let i = 0; i < 300 && total > 0 && !drawn(); i++) await frame();
      for (const li of el.querySelectorAll('li')) {
        const d = (li as HTMLElement).dataset;
        seen.set(d.index!, `${d.osmType} ${d.osmId}`);
      }
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
    }
    return [...seen.values()];
  }, total);
  return ids.sort();
}

/** Checks that the page shows the expected answer of a listed query: its count, and its ids when listed. */
export async function expectListedAnswer(page: Page, q: ListedQuery): Promise<void> {
  const want = expectedAnswer(q);
  await expect(page.getByTestId('result-count')).toHaveText(String(want.count));
  if (want.nodes && want.ways && want.relations) {
    const ids = [...want.nodes.map((id) => `node ${id}`), ...want.ways.map((id) => `way ${id}`), ...want.relations.map((id) => `relation ${id}`)].sort();
    expect(await listedIds(page)).toEqual(ids);
  }
}
