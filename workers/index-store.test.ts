/** Where blob indexes are kept: whether one may be kept for a file of a given size, before its identity is known. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { identityOf } from './index-store';
import { FileSource } from './source/source';
import { loadWasm } from '../tests/wasm-node';

const sample = readFileSync(join(import.meta.dirname, '../public/sample/helsinki.osm.pbf'));

/** The sample's identity (16 bytes: size, then hash). */
let identity: Uint8Array;
beforeAll(async () => {
  loadWasm();
  identity = (await identityOf(new FileSource(new File([sample], 'helsinki.osm.pbf'))))!;
});
// Each test imports the store afresh: it asks for OPFS's root once per worker.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** An OPFS root holding entries of these names; writing into it fails (quota), as it may. */
function fakeStore(names: string[]) {
  const root = {
    async *keys() {
      yield* names;
    },
    async getFileHandle() {
      throw new DOMException('quota', 'QuotaExceededError');
    },
  };
  vi.stubGlobal('navigator', { storage: { getDirectory: async () => root } });
}

describe('mayHaveIndex', () => {
  it('finds an index kept in OPFS for a file of the same size, and none for other sizes', async () => {
    const store = await import('./index-store');
    fakeStore(['notes.txt', store.indexName(identity)]);
    expect(await store.mayHaveIndex(sample.length)).toBe(true);
    expect(await store.mayHaveIndex(sample.length + 1)).toBe(false);
    // Sizes that differ only past the first 4 bytes of the identity's little-endian size.
    expect(await store.mayHaveIndex(sample.length + 2 ** 32)).toBe(false);
  });

  it('checks a listing of OPFS started before the size was known', async () => {
    const store = await import('./index-store');
    const names = [store.indexName(identity)];
    fakeStore(names);
    const kept = await store.keptIndexNames();
    names.length = 0; // dropped since
    expect(await store.mayHaveIndex(sample.length, Promise.resolve(kept))).toBe(true);
    expect(await store.mayHaveIndex(sample.length)).toBe(false);
  });

  it('finds an index held in memory when OPFS could not keep it', async () => {
    fakeStore([]);
    const store = await import('./index-store');
    expect(await store.mayHaveIndex(sample.length)).toBe(false);
    await store.saveIndex(identity, new Uint8Array([1, 2, 3]));
    expect(await store.mayHaveIndex(sample.length)).toBe(true);
  });

  it('answers no, without throwing, in a browser without OPFS', async () => {
    vi.stubGlobal('navigator', {});
    const store = await import('./index-store');
    expect(await store.mayHaveIndex(sample.length)).toBe(false);
  });
});
