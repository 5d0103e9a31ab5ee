/**
 * `pbf-explorer sql --engine osmium`: the printed command, run by osmium-tool (installed by
 * `npm test`'s set-up), answers each query on Malta with exactly the elements our own query
 * answers on the whole file; a query osmium's expressions cannot say is refused with the
 * reason; tag text in the command is quoted, never shell syntax.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR } from '../e2e/data';

const CLI = resolve(__dirname, '../../cli/pbf-explorer.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-osmium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MALTA = join(DATA_DIR, 'malta.osm.pbf');

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** Our answer's elements on the whole file, as OPL ids (n123, w456, r789), sorted. */
function ours(q: string): string[] {
  const run = cli(['query', MALTA, '--format', 'geojson', q]);
  expect(run.status, run.stderr).toBe(0);
  const features = JSON.parse(run.stdout).features as { properties: { osm_type: string; osm_id: number } }[];
  return features.map((f) => `${f.properties.osm_type[0]}${f.properties.osm_id}`).sort();
}

/** Runs the printed command in a shell, in a folder of its own; the elements it wrote, sorted. */
function osmiums(command: string): string[] {
  execFileSync('sh', ['-c', command], { cwd: dir });
  const opl = execFileSync('osmium', ['cat', '-f', 'opl', join(dir, 'answer.osm.pbf')], { encoding: 'utf8', maxBuffer: 1 << 30 });
  rmSync(join(dir, 'answer.osm.pbf'));
  return opl.split('\n').filter(Boolean).map((line) => line.split(' ')[0]).sort();
}

describe('sql --engine osmium', () => {
  for (const q of ['amenity=cafe', 'amenity=cafe or amenity=restaurant or shop=bakery', 'type:way building', 'addr:* or type:relation route=bus']) {
    it(`prints an osmium command that answers ${q} as we do`, () => {
      const run = cli(['sql', '--engine', 'osmium', MALTA, q]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^osmium tags-filter --omit-referenced -o answer\.osm\.pbf '/);
      const want = ours(q);
      expect(want.length).toBeGreaterThan(0);
      expect(osmiums(run.stdout)).toEqual(want);
    }, 120_000);
  }

  it('quotes tag text: a value with quotes and shell syntax stays a value', () => {
    const q = `name="O'Brien's $(touch pwned) \`id\`"`;
    const run = cli(['sql', '--engine', 'osmium', MALTA, q]);
    expect(run.status, run.stderr).toBe(0);
    expect(osmiums(run.stdout)).toEqual([]); // run by sh: no such name in Malta, and nothing else ran
    expect(spawnSync('test', ['-e', join(dir, 'pwned')]).status).not.toBe(0);
  });

  it('refuses what osmium cannot say, with the reason and exit code 1', () => {
    for (const [q, why] of [['shop and not shop=supermarket', '"and"'], ['name~/^star/i', 'regular expressions'], ['shop!=supermarket', '"not"']]) {
      const run = cli(['sql', '--engine', 'osmium', MALTA, q]);
      expect(run.status, q).toBe(1);
      expect(run.stderr).toContain(`osmium tags-filter cannot answer this query as pbf-explorer does: `);
      expect(run.stderr).toContain(why);
      expect(run.stdout).toBe('');
    }
    // An engine we do not write for, and an area osmium's rules would answer otherwise, are bad usage.
    expect(cli(['sql', '--engine', 'postgis', MALTA, 'shop']).status).toBe(2);
    expect(cli(['sql', '--engine', 'osmium', MALTA, '--near', '35.9,14.5', 'shop']).status).toBe(2);
  });
});
