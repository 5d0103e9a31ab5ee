/**
 * Where blob indexes (docs/blob-index.md) are kept between queries: in memory for this
 * worker's life and in the Origin Private File System across visits, keyed by the file's
 * identity (its size and the XXH64 of its first and last 64 KiB), so a file that changed never
 * finds an index of its old bytes; the 16 written last stay there. Storage failures (no OPFS, quota) only cost speed: the next
 * query reads the whole file again and builds a new index.
 */
import { fileIdentity, indexIdentitySpan } from '../wasm/pkg/pbf_explorer.js';
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

function identityOfOpen(source: Source, signal?: AbortSignal, spanWanted = IDENTITY_SPAN): Promise<Uint8Array | null> {
  if (!readsAtRandom(source) || !Number.isFinite(source.size)) return Promise.resolve(null);
  const span = Math.min(source.size, spanWanted);
  const reads = [readBytes(source, 0, span, signal), readBytes(source, source.size - span, span, signal)];
  reads.forEach((r) => r.catch(() => {})); // when one fails, the other's failure is not news
  return Promise.all(reads).then(([head, tail]) => fileIdentity(source.size, head, tail));
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
const names = (dir: FileSystemDirectoryHandle) => (dir as unknown as { keys(): AsyncIterable<string> }).keys();

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
const directory = () => (root ??= navigator.storage.getDirectory());

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

/**
 * The index a web server keeps beside the file (`FILE.osm.pbf.idx`: one small request), or
 * null when it has none. Checked against the file's identity before use, as a kept one.
 */
export async function indexBeside(source: FetchSource, signal?: AbortSignal): Promise<Uint8Array | null> {
  try {
    const reply = await fetch(`${source.name}.idx`, { signal });
    return reply.ok ? new Uint8Array(await reply.arrayBuffer()) : null;
  } catch {
    return null; // none there, or not allowed from this origin
  }
}

/** A request for the index beside a remote file, under way: its bytes (null for a local file, or none there), and how to drop it. */
export interface BesideRequest {
  bytes: Promise<Uint8Array | null>;
  stop: () => void;
}

/** Asks now for the index beside `source` when it is a web server's file (one round trip less than after the identity). */
export function askBeside(source: Source): BesideRequest {
  const request = new AbortController();
  const bytes = source instanceof FetchSource ? indexBeside(source, request.signal) : Promise.resolve(null);
  return { bytes, stop: () => request.abort() };
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
  const bytes = (await kept(identity)) ?? (await beside.bytes);
  // An index of format 3 (a server's, or a local FILE.idx) names its file by its first and last
  // MiB: checked against that identity, read only then.
  const span = bytes ? indexIdentitySpan(bytes) : IDENTITY_SPAN;
  if (span > 0 && span !== IDENTITY_SPAN) return { identity: (await identityOfOpen(source, signal, span)) ?? identity, bytes };
  return { identity, bytes };
}
