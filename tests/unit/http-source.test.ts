/**
 * The HTTP source (`workers/source/http-source.ts`) against the fault server, in Node: the probe
 * brings the file's first and last MiB (what the file identity hashes) in its one round trip,
 * and a full read hands on exactly the file's bytes, through faults too.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { END_BYTES, FetchSource } from '../../workers/source/http-source';
import { DATA_DIR } from '../e2e/data';
// @ts-expect-error: a plain ES module shared with the benchmark
import { startFaultServer } from '../fault-server.mjs';

const FILE = 'malta.osm.pbf';
const bytes = readFileSync(join(DATA_DIR, FILE));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
let server: { origin: string; close: () => Promise<void> };

beforeAll(async () => {
  server = await startFaultServer(DATA_DIR, { latencyMs: 5 });
});
afterAll(async () => server.close());

/** A source for `FILE` behind fault `mode`, and what the server has sent for it so far. */
function source(mode: string) {
  const token = randomUUID();
  const fetched = new FetchSource(`${server.origin}/${token}/${mode}/${FILE}`, undefined, { retries: 3, backoffMs: 10 });
  const sent = async (): Promise<{ requests: number; bytes: number }> => (await fetch(`${server.origin}/${token}/bytes`)).json();
  return { fetched, sent };
}

async function streamed(s: FetchSource): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for await (const piece of s.stream!()) pieces.push(piece.slice());
  return Buffer.concat(pieces);
}

describe('FetchSource', () => {
  it('the probe brings both ends: reading them after open sends nothing more', async () => {
    const { fetched, sent } = source('latency');
    await fetched.open();
    expect(fetched.size).toBe(bytes.length);
    const head = await fetched.read(0, END_BYTES);
    const tail = await fetched.read(bytes.length - END_BYTES, END_BYTES);
    expect(sha(head)).toBe(sha(bytes.subarray(0, END_BYTES)));
    expect(sha(tail)).toBe(sha(bytes.subarray(bytes.length - END_BYTES)));
    expect(await sent()).toEqual({ requests: 2, bytes: 2 * END_BYTES });
  });

  it('a full read after the probe fetches the rest once, in one more request', async () => {
    const { fetched, sent } = source('clean');
    await fetched.open();
    expect(sha(await streamed(fetched))).toBe(sha(bytes));
    expect(await sent()).toEqual({ requests: 3, bytes: bytes.length + END_BYTES });
  });

  for (const mode of ['503-once', 'cut-once', 'cut-stream-once', 'no-range', 'range-only']) {
    it(`a full read gives the file's bytes (${mode})`, async () => {
      const { fetched } = source(mode);
      await fetched.open();
      if (fetched.seekable) expect(sha(await fetched.read(bytes.length - 100, 100))).toBe(sha(bytes.subarray(bytes.length - 100)));
      expect(sha(await streamed(fetched))).toBe(sha(bytes));
    });
  }
});
