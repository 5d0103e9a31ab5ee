/**
 * Where blob indexes (docs/blob-index.md) are kept between queries: in memory for this
 * worker's life and in the Origin Private File System across visits, keyed by the file's
 * identity (its size and the XXH64 of its first and last 16 KiB), so a file that changed never
 * finds an index of its old bytes; the 16 written last stay there. Storage failures (no OPFS, quota) only cost speed: the next
 * query reads the whole file again and builds a new index.
 */
import { fileIdentity, indexHeadLength } from '../wasm/pkg/pbf_explorer.js';
import { END_BYTES, FetchSource, readsAtRandom } from './source/http-source';
import { readBytes, type Source } from './source/source';

/**
 * Bytes at each end of a file its identity hashes: the crate's `IDENTITY_SPAN` (indexes written
 * natively must match), and the bytes the HTTP probe brings, so over HTTP these reads cost no
 * request of their own.
 */
const IDENTITY_SPAN = END_BYTES;
/** Indexes held in memory at once (the last used stay). */
const HELD = 8;
const held = new Map<string, Uint8Array>();

/**
 * The identity of `source` (16 bytes, `fileIdentity` in the crate), or null when it cannot
 * be read at random (an HTTP server without Range support, an unknown size).
 * @throws what `source.read` throws.
 */
export function identityOf(source: Source, signal?: AbortSignal): Promise<Uint8Array | null> {
  // An open source is read at once: a full read that starts next takes the HTTP probe's head.
  return Number.isNaN(source.size) ? source.open(signal).then(() => identityOfOpen(source, signal)) : identityOfOpen(source, signal);
}

function identityOfOpen(source: Source, signal?: AbortSignal): Promise<Uint8Array | null> {
  if (!readsAtRandom(source) || !Number.isFinite(source.size)) return Promise.resolve(null);
  const span = Math.min(source.size, IDENTITY_SPAN);
  const reads = [readBytes(source, 0, span, signal), readBytes(source, source.size - span, span, signal)];
  reads.forEach((r) => r.catch(() => {})); // when one fails, the other's failure is not news
  return Promise.all(reads).then(([head, tail]) => fileIdentity(source.size, head, tail));
}

/**
 * Where a read's file comes from, for keeping its index apart from every other source's: a
 * local file by its modification time, a remote one by its address (origin and path). A
 * look-alike file (the same size and ends, other blobs in the middle) read once from a link, or
 * opened from a download, then never leaves an index that answers for the real file.
 */
function indexScope(source: Source): string {
  if (source instanceof FetchSource) {
    const url = new URL(source.name, globalThis.location?.href);
    return `url ${url.origin}${url.pathname}`;
  }
  const lastModified = (source as { lastModified?: number }).lastModified;
  return `local ${lastModified ?? ''}`;
}

/**
 * The identity an index of file `identity` read from `source` is kept under: its last 8 bytes
 * (the ends' hash) XORed with the 64-bit FNV-1a hash of the source's scope ({@link indexScope});
 * its first 8, the size, stay, so {@link mayHaveIndex} still finds it by size.
 */
export function keptIdentity(identity: Uint8Array, source: Source): Uint8Array {
  const scope = indexScope(source);
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(scope)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  const out = identity.slice();
  for (let i = 0; i < 8; i++) out[8 + i] ^= Number((hash >> BigInt(8 * i)) & 0xffn);
  return out;
}

/** The name an identity's index is kept under: its 16 bytes in hex, `.idx`. */
export const indexName = (identity: Uint8Array): string => Array.from(identity, (b) => b.toString(16).padStart(2, '0')).join('') + '.idx';

/** The start of the names of the indexes kept for files of `size` bytes: the identity's first 8 bytes are the size, little-endian. */
function sizePrefix(size: number): string {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(size), true);
  return indexName(bytes).slice(0, 16);
}

/**
 * Whether an index is kept (in memory or in OPFS) for some file of `size` bytes. When none is,
 * a read need not wait for the file's identity to look for one: it can start at once and build
 * the index, which needs the identity only at its end. `kept`: the names OPFS holds, when their
 * listing was started earlier ({@link keptIndexNames}).
 */
export async function mayHaveIndex(size: number, kept?: Promise<string[]>): Promise<boolean> {
  const prefix = sizePrefix(size);
  if ([...held.keys()].some((name) => name.startsWith(prefix))) return true;
  return (await (kept ?? keptIndexNames())).some((name) => name.startsWith(prefix));
}

/**
 * The names of the entries of OPFS's root (none without OPFS). A listing crosses to the browser
 * process (6–20 ms measured in a query worker): started along with an HTTP source's probe, it
 * is had when the probe's reply gives the size.
 */
export async function keptIndexNames(): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const name of names(await directory())) out.push(name);
  } catch {
    // no OPFS here: nothing kept there
  }
  return out;
}

/** The names of the entries of an OPFS directory. */
export const names = (dir: FileSystemDirectoryHandle) => (dir as unknown as { keys(): AsyncIterable<string> }).keys();

function hold(name: string, bytes: Uint8Array): void {
  held.delete(name);
  held.set(name, bytes);
  if (held.size > HELD) held.delete(held.keys().next().value!);
}

/**
 * OPFS's root, asked for once per worker: each `getDirectory()` call crosses to the browser
 * process (5–15 ms in a query worker on this 2-core machine), which the first query would wait for.
 */
let root: Promise<FileSystemDirectoryHandle> | null = null;
export const directory = () => (root ??= navigator.storage.getDirectory());

/** Asks for OPFS's root now, ahead of the first query (a failure is met again, and caught, by the first use). */
export function prepareStore(): void {
  try {
    directory().catch(() => {});
  } catch {
    // no OPFS in this browser
  }
}

/** The index kept for `identity`, or null. */
export async function loadIndex(identity: Uint8Array): Promise<Uint8Array | null> {
  const name = indexName(identity);
  const inMemory = held.get(name);
  if (inMemory) return inMemory;
  try {
    const file = await (await (await directory()).getFileHandle(name)).getFile();
    const bytes = new Uint8Array(await file.arrayBuffer());
    hold(name, bytes);
    return bytes;
  } catch {
    return null; // none kept, or no OPFS here
  }
}

/** Indexes kept in OPFS: the most recently written stay, older ones are removed. */
const KEPT = 16;

/** Keeps `bytes` as the index of `identity` (and forgets the oldest beyond {@link KEPT}). */
export async function saveIndex(identity: Uint8Array, bytes: Uint8Array): Promise<void> {
  const name = indexName(identity);
  hold(name, bytes);
  try {
    const dir = await directory();
    const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
    await writable.write(bytes as Uint8Array<ArrayBuffer>);
    await writable.close();
    // Pruning is not awaited: the read that built this index need not wait for it (and the
    // next save prunes what a closed worker left).
    void forgetOldest(dir).catch(() => {});
  } catch {
    // kept in memory only
  }
}

async function forgetOldest(dir: FileSystemDirectoryHandle): Promise<void> {
  const kept: [string, number][] = [];
  for await (const name of names(dir)) {
    if (name.endsWith('.idx')) kept.push([name, (await (await dir.getFileHandle(name)).getFile()).lastModified]);
  }
  kept.sort((a, b) => b[1] - a[1]);
  for (const [name] of kept.slice(KEPT)) await dir.removeEntry(name);
}

/** Forgets the index of `identity` (it was corrupt, or refused). */
export async function dropIndex(identity: Uint8Array): Promise<void> {
  const name = indexName(identity);
  held.delete(name);
  try {
    await (await directory()).removeEntry(name);
  } catch {
    // nothing kept
  }
}

/** Fetches byte ranges `{offset, size}` of an index file (its pages, docs/blob-index.md), in the order asked. */
export type PageFetch = (ranges: { offset: number; size: number }[], signal?: AbortSignal) => Promise<Uint8Array[]>;

/**
 * Bytes asked for first of a server's index: a paged index's head (32 records of a few hundred
 * bytes) fits; the pages among them are kept for the read ({@link pagesOf}).
 */
const HEAD_BYTES = 8 << 10;
/**
 * Index pages this close are fetched by one request (the bytes between them come along): the
 * requests go out at once, so merging saves a request's overhead, not a round trip.
 */
const PAGE_GAP = 1 << 10;

/** The total size a `Content-Range: bytes a-b/total` header gives, or NaN. */
const totalOf = (range: string | null) => Number(/\/(\d+)$/.exec(range ?? '')?.[1] ?? NaN);

/** Indexes of which only the head is had (a server's paged index): not to be kept or saved as whole. */
const headsOnly = new WeakSet<Uint8Array>();

/** Whether `bytes` are a whole index, not a paged index's head alone. */
export const isWholeIndex = (bytes: Uint8Array): boolean => !headsOnly.has(bytes);

/**
 * Bytes `from..from+size` of `url` by a Range request (a server without Range support sends all
 * of it). Index requests never follow a redirect: an index elsewhere is no index (docs/security.md).
 */
async function rangeOf(url: string, from: number, size: number, signal?: AbortSignal): Promise<Uint8Array> {
  // Not from the HTTP cache: a partial reply kept under a weak validator may not be the bytes asked for.
  const reply = await fetch(url, { signal, cache: 'no-store', redirect: 'manual', headers: { Range: `bytes=${from}-${from + size - 1}` } });
  if (!reply.ok) throw new Error(`${url}: HTTP ${reply.status}`);
  const bytes = new Uint8Array(await reply.arrayBuffer());
  return reply.status === 206 ? bytes : bytes.subarray(from, from + size);
}

/**
 * Fetches the pages of the index at `url`: those within `start` (the index's first bytes, had
 * already) from there, the others by requests made at once, pages close together in one.
 * @throws Error for a failed request, or a reply shorter than asked.
 */
export function pagesOf(url: string, start: () => Uint8Array | null = () => null): PageFetch {
  return async (ranges, signal) => {
    const out: Uint8Array[] = new Array(ranges.length);
    const had = start();
    const order: { offset: number; size: number; i: number }[] = [];
    ranges.forEach((r, i) => {
      if (had && r.offset + r.size <= had.length) out[i] = had.subarray(r.offset, r.offset + r.size);
      else order.push({ ...r, i });
    });
    order.sort((a, b) => a.offset - b.offset);
    const groups: { from: number; to: number; items: typeof order }[] = [];
    for (const r of order) {
      const last = groups.at(-1);
      if (last && r.offset - last.to <= PAGE_GAP) {
        last.items.push(r);
        last.to = Math.max(last.to, r.offset + r.size);
      } else groups.push({ from: r.offset, to: r.offset + r.size, items: [r] });
    }
    await Promise.all(
      groups.map(async (g) => {
        const bytes = await rangeOf(url, g.from, g.to - g.from, signal);
        if (bytes.length < g.to - g.from) throw new Error(`${url}: a reply shorter than its index pages`);
        for (const r of g.items) out[r.i] = bytes.subarray(r.offset - g.from, r.offset - g.from + r.size);
      }),
    );
    return out;
  };
}

/**
 * The index a web server keeps beside the file (`FILE.osm.pbf.idx`), or null when it has none:
 * its head only (one small request; its pages are fetched as the read asks, {@link pagesOf}),
 * or what came when it is no index this build reads (the plan refuses it). Checked against the file's identity before
 * use, as a kept one; a redirect counts as none (it is not followed). `onStart` is given the
 * first reply's bytes (the index's start).
 */
export async function indexBeside(source: FetchSource, signal?: AbortSignal, onStart?: (start: Uint8Array) => void): Promise<Uint8Array | null> {
  const url = `${source.name}.idx`;
  try {
    const reply = await fetch(url, { signal, cache: 'no-store', redirect: 'manual', headers: { Range: `bytes=0-${HEAD_BYTES - 1}` } });
    if (!reply.ok) return null;
    let bytes = new Uint8Array(await reply.arrayBuffer());
    onStart?.(bytes);
    const total = totalOf(reply.headers.get('Content-Range'));
    if (reply.status !== 206 || !(bytes.length < total)) return bytes; // the whole index
    const head = indexHeadLength(bytes);
    if (head === 0) return bytes; // no index this build reads: refused with its reason
    if (head > bytes.length) {
      const rest = await rangeOf(url, bytes.length, head - bytes.length, signal);
      const all = new Uint8Array(head);
      all.set(bytes);
      all.set(rest, bytes.length);
      bytes = all;
    }
    bytes = bytes.slice(0, head); // the head alone: the plan asks for the pages it needs
    headsOnly.add(bytes);
    return bytes;
  } catch {
    return null; // none there, or not allowed from this origin
  }
}

/** A request for the index beside a remote file, under way: its bytes (null for a local file, or none there), its pages, and how to drop it. */
export interface BesideRequest {
  bytes: Promise<Uint8Array | null>;
  /** Fetches the pages of the server's index (null for a local file). */
  pages: PageFetch | null;
  stop: () => void;
}

/** Asks now for the index beside `source` when it is a web server's file (one round trip less than after the identity). */
export function askBeside(source: Source): BesideRequest {
  const request = new AbortController();
  const remote = source instanceof FetchSource;
  let start: Uint8Array | null = null;
  const bytes = remote ? indexBeside(source, request.signal, (b) => (start = b)) : Promise.resolve(null);
  return { bytes, pages: remote ? pagesOf(`${source.name}.idx`, () => start) : null, stop: () => request.abort() };
}

/**
 * The file's identity and the blob index to read it by: the one `kept` has for that identity
 * (the browser's store, or a local `FILE.idx`), else the one `beside` brings from the server.
 * The page and the command line both choose so. Null when the file has no identity (it cannot
 * be read at random).
 * @throws what the identity's reads throw (the file changed, a failed request).
 */
export async function indexFor(
  source: Source,
  beside: BesideRequest,
  kept: (identity: Uint8Array) => Promise<Uint8Array | null>,
  signal?: AbortSignal,
): Promise<{ identity: Uint8Array; bytes: Uint8Array | null } | null> {
  const identity = await identityOf(source, signal);
  if (!identity) return null;
  return { identity, bytes: (await kept(identity)) ?? (await beside.bytes) };
}
