/**
 * The install without Rust: `npm pack` of the built repository, installed with `npm install -g`
 * into a fresh prefix with no Rust toolchain on PATH, answers a listed query as libosmium does
 * (the data README's answer), writes GeoParquet, and serves the app (`pbf-explorer serve FILE`) with the file
 * beside it, read with a Range request; the install prints no engine warning on this Node.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, QUERIES, expectedAnswer } from '../e2e/data';

const ROOT = resolve(__dirname, '../..');
const SLOW = 240_000;
const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-pack-'));
const prefix = join(dir, 'prefix');
const bin = join(prefix, 'bin', 'pbf-explorer');
/** PATH with Node and the system's tools only: no cargo, rustc or wasm-pack. */
const PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');
const env = { ...process.env, PATH, CARGO_HOME: join(dir, 'no-cargo'), RUSTUP_HOME: join(dir, 'no-rustup') };
let installLog = '';

beforeAll(() => {
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
  installLog = execFileSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(dir, tarball)], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}, SLOW);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a packed install on a machine with Node alone', () => {
  it('installs with no engine warning, and finds no Rust on its PATH', () => {
    expect(installLog).not.toMatch(/EBADENGINE/);
    expect(() => execFileSync('cargo', ['--version'], { env })).toThrow();
  });

  it('answers a listed query as libosmium does', () => {
    const q = QUERIES.find((x) => x.file === 'malta.osm.pbf' && x.q === 'amenity=cafe' && x.near)!;
    const out = execFileSync(bin, ['query', join(DATA_DIR, q.file), '--near', q.near!.join(','), '--radius', String(q.radius), '--format', 'geojson', q.q], { env, encoding: 'utf8' });
    const features = JSON.parse(out).features as { properties: { osm_type: string; osm_id: number } }[];
    const want = expectedAnswer(q);
    const ids = (type: string) => features.filter((f) => f.properties.osm_type === type).map((f) => f.properties.osm_id).sort((a, b) => a - b);
    expect({ nodes: ids('node'), ways: ids('way'), relations: ids('relation') }).toEqual({ nodes: want.nodes, ways: want.ways, relations: want.relations });
  }, SLOW);

  it('writes a GeoParquet export with the writer module it holds', () => {
    const out = join(dir, 'cafes.parquet');
    execFileSync(bin, ['query', join(DATA_DIR, 'malta.osm.pbf'), '--format', 'geoparquet', '--out', out, 'amenity=cafe'], { env });
    const bytes = readFileSync(out);
    // A Parquet file starts and ends with PAR1; its footer holds the `geo` metadata.
    expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1']);
    expect(bytes.includes('"primary_column":"geometry"')).toBe(true);
  }, SLOW);

  it('serves the app and the file beside it, with Range requests, on 127.0.0.1 only', async () => {
    const file = join(DATA_DIR, 'malta.osm.pbf');
    const server = spawn(bin, ['serve', file, '--port', '0'], { env });
    try {
      const url = await new Promise<string>((done, fail) => {
        let text = '';
        server.stdout.on('data', (d) => {
          text += d;
          const m = /the app is at (\S+)/.exec(text);
          if (m) done(m[1]);
        });
        server.on('exit', (code) => fail(new Error(`serve exited with ${code}`)));
      });
      const page = new URL(url);
      expect(page.hostname).toBe('127.0.0.1');
      expect(page.searchParams.get('src')).toBe('/file/malta.osm.pbf');
      const html = await (await fetch(new URL('/', page))).text();
      expect(html).toContain('<title>pbf-explorer');
      expect((await fetch(new URL('/sw.js', page))).status).toBe(200);
      const part = await fetch(new URL('/file/malta.osm.pbf', page), { headers: { Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(readFileSync(file).subarray(100, 200));
      // Only that file of its folder.
      expect((await fetch(new URL('/file/helsinki.osm.pbf', page))).status).toBe(404);
    } finally {
      server.kill();
    }
  }, SLOW);
});
