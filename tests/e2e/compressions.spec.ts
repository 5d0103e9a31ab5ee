/**
 * zstd, lz4 and raw blobs through the page: each listed query of Helsinki and Malta on the
 * re-encoded twins (written by `scripts/test.sh` with `cargo run --example reencode`) gives the
 * count and the ids of the zlib original's expected answer.
 */
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { FIXTURE_DIR, QUERIES, querySearch } from './data';
import { expectListedAnswer } from './list';

for (const compression of ['zstd', 'lz4', 'raw']) {
  for (const q of QUERIES.filter((q) => q.file === 'helsinki.osm.pbf' || q.file === 'malta.osm.pbf')) {
    test(`${compression}: ${q.file}: ${q.q}`, async ({ page }) => {
      await page.goto(`/${querySearch(q)}`);
      await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, q.file.replace('.osm.pbf', `.${compression}.osm.pbf`)));
      await expect(page.getByTestId('status')).toHaveText('done');
      await expectListedAnswer(page, q);
    });
  }
}
