/**
 * A static file server (sirv, with Range support) behind a fault-injecting layer, for the HTTP
 * tests and the benchmark. Paths are `/<token>/<mode>/<file>`: `token` keeps each test's
 * counters apart, `mode` picks the fault:
 *   clean · latency (50 ms before every reply) · 503-once · 429-once (Retry-After: 1) ·
 *   cut-once (one Range reply cut mid-body) · cut-stream-once (the first reply to an
 *   open-ended Range, `bytes=N-`, the stream of a full read, cut mid-body) · no-range (Range
 *   ignored: 200, whole file) · no-range-cut (that, cut mid-body once) · no-range-no-length
 *   (Range ignored and no Content-Length: a file of unknown size) · change (the file is
 *   replaced by another after the first request, the probe) · no-cors (no CORS headers) · range-only (CORS allows the Range
 *   header only, so a request with If-Range fails its preflight) · range-only-change (that,
 *   and the change) · capped (a reply to an open-ended Range holds at most 16 MiB, as some
 *   servers cap replies) · slow (bodies sent at 2 MB/s, as over a slow link) · stall-stream-once
 *   (the first reply to an open-ended Range sends half its body, then nothing, the connection
 *   open) · stall-always (every reply after the probe's does so) · silent-once (the second
 *   request is taken and never answered) · redirect (a 307 to the same path, mode clean, on
 *   the server `redirectTo` names)
 * "once" faults hit the second request of a token for its file (the first is the probe, for the
 * file's first 16 KiB; the second, sent with it, asks for its last 16 KiB).
 * `FILE.idx` is served from `indexDir` when given (blob indexes made at test time, beside the
 * read-only data), and `/<token>/bytes` answers `{ requests, bytes, indexBytes }` the token was sent so far (`indexBytes`: of `.idx` files, once there are some)
 * (bodies only), for tests that check how much of a file a query read. A suffix range
 * (`bytes=-N`, the last N bytes: RFC 9110 §14.1.1) is turned into the first-last form sirv
 * reads (it takes it for `bytes=0-N`), as nginx, S3 and other servers answer it.
 *
 * Run as a command (`node tests/fault-server.mjs DIR [INDEX_DIR]`), it serves in a process of
 * its own, as a web server would, reading files 1 MiB at a time ({@link readFilesInLargeChunks}),
 * and prints its origin on the first line of its output.
 */
import { createServer } from 'node:http';
import * as fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';

/** Starts the server on 127.0.0.1 (`port` 0: any free port); resolves to { origin, close }. */
export async function startFaultServer(dir, { port = 0, latencyMs = 50, indexDir = null, redirectTo = null } = {}) {
  const files = sirv(dir, { etag: true, dev: true });
  const indexes = indexDir ? sirv(indexDir, { etag: true, dev: true }) : null;
  const counters = new Map();
  const streamsCut = new Set();
  const served = new Map();
  const server = createServer((req, res) => {
    const [, token, mode, ...rest] = (req.url ?? '').split('/');
    let file = rest.join('/');
    if (mode === 'bytes') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Content-Type', 'application/json');
      return res.end(JSON.stringify(served.get(token) ?? { requests: 0, bytes: 0 }));
    }
    if (req.method !== 'OPTIONS') countBody(res, served.get(token) ?? served.set(token, { requests: 0, bytes: 0 }).get(token), file.endsWith('.idx'));
    // Faults count the file's own requests: not preflights, not its `.idx`.
    const counted = req.method !== 'OPTIONS' && !file.endsWith('.idx');
    const n = (counters.get(token) ?? 0) + (counted ? 1 : 0);
    counters.set(token, n);
    if (mode !== 'no-cors') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, ETag, Last-Modified');
    }
    if (req.method === 'OPTIONS') {
      if (mode !== 'no-cors') {
        res.setHeader('Access-Control-Allow-Headers', mode.startsWith('range-only') ? 'Range' : 'Range, If-Range');
        res.setHeader('Access-Control-Allow-Methods', 'GET');
      }
      res.statusCode = 204;
      return res.end();
    }
    const serve = () => {
      if (mode === 'no-range' || mode === 'no-range-cut' || mode === 'no-range-no-length') {
        delete req.headers.range;
        delete req.headers['if-range'];
      }
      if (mode === 'no-range-no-length') dropContentLength(res);
      // Replaced by a larger file, so the ranges still exist but hold other bytes.
      if ((mode === 'change' || mode === 'range-only-change') && n > 1) file = file.includes('helsinki') ? 'malta.osm.pbf' : 'malta-x20-synthetic.osm.pbf';
      if ((mode === 'cut-once' && n === 2) || (mode === 'no-range-cut' && n === 1)) afterHalf(res);
      if (mode === 'cut-stream-once' && /^bytes=\d+-$/.test(req.headers.range ?? '') && !streamsCut.has(token)) {
        streamsCut.add(token);
        afterHalf(res);
      }
      if (mode === 'stall-stream-once' && /^bytes=\d+-$/.test(req.headers.range ?? '') && !streamsCut.has(token)) {
        streamsCut.add(token);
        afterHalf(res, true);
      }
      if (mode === 'stall-always' && n > 2) afterHalf(res, true);
      if (mode === 'capped') req.headers.range = req.headers.range?.replace(/^bytes=(\d+)-$/, (_, from) => `bytes=${from}-${Number(from) + CAP - 1}`);
      if (mode === 'slow') throttle(res, SLOW_BYTES_PER_S);
      req.url = `/${file}`;
      const suffix = /^bytes=-(\d+)$/.exec(req.headers.range ?? '');
      if (suffix) req.headers.range = suffixRange(join(dir, file), Number(suffix[1]));
      (indexes && file.endsWith('.idx') ? indexes : files)(req, res, () => {
        res.statusCode = 404;
        res.end('not found');
      });
    };
    if (mode === 'redirect') {
      res.statusCode = 307;
      res.setHeader('Location', `${redirectTo}/${token}/clean/${file}`);
      return res.end();
    }
    // Taken, and never answered: the connection stays open, silent.
    if (mode === 'silent-once' && n === 2) return;
    if (mode === '503-once' && n === 2) {
      res.statusCode = 503;
      return res.end('busy');
    }
    if (mode === '429-once' && n === 2) {
      res.statusCode = 429;
      res.setHeader('Retry-After', '1');
      return res.end('slow down');
    }
    if (mode === 'latency') setTimeout(serve, latencyMs);
    else serve();
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** The rate of bodies in mode `slow` (bytes per second). */
const SLOW_BYTES_PER_S = 2e6;

/**
 * Sends the body at about `bytesPerSecond`: each chunk is written once the chunks before it
 * had their time (the reader is not paused: a pipe ignores a writer's `false` here).
 */
function throttle(res, bytesPerSecond) {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  let queue = Promise.resolve();
  const later = (ms, f) => (queue = queue.then(() => new Promise((done) => setTimeout(() => (res.destroyed || f(), done()), ms))));
  res.write = (chunk, ...args) => (later((chunk.length / bytesPerSecond) * 1000, () => write(chunk, ...args)), true);
  res.end = (...args) => (later(0, () => end(...args)), res);
}

/** Bytes at most in a reply to an open-ended Range, in mode `capped`. */
const CAP = 16 << 20;

/** `bytes=-n` of the file at `path` as `bytes=a-b` (the whole file when n exceeds it). */
function suffixRange(path, n) {
  try {
    const size = fs.statSync(path).size;
    return `bytes=${Math.max(0, size - n)}-${size - 1}`;
  } catch {
    return `bytes=0-${n - 1}`; // no such file: sirv answers 404
  }
}

/** Adds the reply's body bytes, and one request, to `tally`. */
function countBody(res, tally, isIndex) {
  tally.requests++;
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const add = (chunk) => {
    if (!chunk || typeof chunk === 'function') return;
    const n = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    tally.bytes += n;
    if (isIndex) tally.indexBytes = (tally.indexBytes ?? 0) + n;
  };
  res.write = (chunk, ...args) => (add(chunk), write(chunk, ...args));
  res.end = (chunk, ...args) => (add(chunk), end(chunk, ...args));
}

/** Sends the reply without a Content-Length (chunked), as a server that does not know the size would. */
function dropContentLength(res) {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = (code, ...rest) => {
    const headers = rest.find((h) => h && typeof h === 'object');
    if (headers) for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-length') delete headers[k];
    res.removeHeader('Content-Length');
    return writeHead(code, ...rest);
  };
}

/**
 * Sends the first half of the body, then (`stall` false) drops the connection, or (`stall`)
 * sends nothing more with the connection left open, as a server that hangs or a proxy that
 * lost its upstream does: only the client's own timeout ends that.
 */
function afterHalf(res, stall = false) {
  const write = res.write.bind(res);
  let sent = 0;
  let limit = Infinity;
  res.write = (chunk, ...args) => {
    if (limit === Infinity) limit = Number(res.getHeader('Content-Length') ?? 2 * chunk.length) / 2;
    if (limit < 0 || (stall && sent >= limit)) return false; // a pipe then waits for a drain that never comes
    if (sent + chunk.length >= limit) {
      const part = chunk.subarray(0, Math.max(0, limit - sent));
      sent += part.length;
      // Dropped once that half is on the wire: a short body written and dropped at once can
      // leave the connection before its headers, a network error rather than a cut.
      if (stall) write(part);
      else write(part, () => res.socket?.destroy()), (limit = -1);
      return false;
    }
    sent += chunk.length;
    return write(chunk, ...args);
  };
  if (stall) res.end = () => res;
}

/**
 * Makes every file stream of this process read {@link SERVED_CHUNK_BYTES} at a time, not Node's
 * 64 KiB: sirv offers no option for it. A web server sends a file with `sendfile` or large
 * buffers, and on the bench's 2 cores this server's CPU is taken from the browser it serves:
 * 110 MB cost it 200–270 ms of CPU in 64 KiB chunks, 60–80 ms in 1 MiB ones (README, "Measured
 * decisions"). Only for the command's own process: the tests that import this module share it.
 */
function readFilesInLargeChunks() {
  const nodeFs = createRequire(import.meta.url)('node:fs');
  const createReadStream = nodeFs.createReadStream;
  nodeFs.createReadStream = (path, options) => createReadStream(path, { highWaterMark: SERVED_CHUNK_BYTES, ...options });
  syncBuiltinESMExports(); // sirv's `import * as fs` sees the change
  if (fs.createReadStream !== nodeFs.createReadStream) throw new Error('could not set the read size of file streams');
}

/** Bytes per read of a served file, in the command's process. */
const SERVED_CHUNK_BYTES = 1 << 20;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  readFilesInLargeChunks();
  const [dir, indexDir] = process.argv.slice(2);
  const { origin } = await startFaultServer(dir, { indexDir: indexDir ?? null });
  console.log(origin);
}
