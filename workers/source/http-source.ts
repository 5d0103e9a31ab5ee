/** HTTP reading for the query worker (the page never sees the bytes): see {@link FetchSource}. */
import { backoff, HTTP_STALL_MS, parseContentRange, retryAfterMs, sleep, type RetryPolicy } from './http-retry';
import type { BufferPool } from '../framer/buffers';
import { readFirst, StalledError, streamChunks, streamPieces, Waits, type FetchStats, type ReadOptions, type Source } from './source';

/**
 * Bytes at each end of the file the probe brings ({@link FetchSource.open}): what the file
 * identity hashes (`index-store.ts` reads this span; the crate's `IDENTITY_SPAN`).
 */
export const END_BYTES = 16 << 10;

/**
 * Bytes from the file's start the probe asks for: {@link END_BYTES} only. A full read then asks
 * for the rest (one round trip of the decoders' time), and a query by a blob index beside the
 * file fetches nothing it does not need: a larger probe whose rest was cancelled still cost
 * its bytes on the wire (`docs/decisions.md`, "The probe").
 */
export const PROBE_BYTES = END_BYTES;

/** No headers, or no byte of a body, for `stallMs`: not fatal, so the request is sent again from the byte it stopped at. */
class StalledHttpError extends Error {}

/** A failure that retrying cannot fix (4xx, the file changed, CORS headers missing). */
class FatalHttpError extends Error {}

/**
 * The server sent the read on to another address (a redirect), and the source was told to ask
 * first ({@link FetchSource.askBeforeRedirect}): nothing was sent there yet.
 */
export class RedirectError extends Error {}

const CORS_HELP =
  'the server must allow this page: Access-Control-Allow-Origin, and Access-Control-Expose-Headers: Content-Range, Content-Length, ETag';

/**
 * A PBF on an HTTP server, read with `Range: bytes=a-b` requests (RFC 7233). Transient faults
 * (network errors, 5xx, 429 with `Retry-After`, a body cut mid-way) are retried with backoff and
 * resumed at the exact byte; the file changing on the server (its `ETag` or `Last-Modified`, sent
 * back as `If-Range`, or compared in each reply where the server's CORS does not allow `If-Range`)
 * stops the read with an error rather than mixing two versions. A server that ignores Range is
 * read front to back as one streamed response.
 */
export class FetchSource implements Source {
  size = NaN;
  readonly stats: FetchStats = { bytesFetched: 0, requestsInFlight: 0, retries: 0, rangeSupported: true, waits: new Waits() };
  private etag: string | null = null;
  private lastModified: string | null = null;
  private whole: Response | null = null;
  /** The file's first bytes, read by the probe, until a full read takes them. */
  private head: Uint8Array | null = null;
  /**
   * The probe's reply, read as far as {@link head}, kept for a full read to go on with (`extra`:
   * bytes past the head a non-byte stream brought; `end`: the last byte its Content-Range holds).
   */
  private rest: { res: Response; extra: Uint8Array | null; end: number } | null = null;
  /** The file's last bytes, asked for along with the probe (null: not had). */
  private tail: Promise<Uint8Array | null> = Promise.resolve(null);
  /** Whether reads send `If-Range`; off once a server refused it (see {@link fetchRange}). */
  private ifRange = true;
  /**
   * When true (the page), a redirect is not followed: a request the server redirects ends in a
   * {@link RedirectError}, before the new address is contacted, so that the person can be asked
   * (a browser shows where a redirect leads only once it has followed it). After a yes, set to
   * false: the read follows redirects, all to the one origin the first one led to.
   */
  askBeforeRedirect = false;
  /** The origin the first redirect followed led to; a later one elsewhere is refused. */
  private redirectedTo: string | null = null;

  /** A server without Range support: the one whole-file reply, read forward by successive reads. */
  private forward: { pieces: AsyncIterator<Uint8Array>; at: number; left: Uint8Array | null; signal?: AbortSignal } | null = null;
  /** Settles when the read of {@link forward} under way is done (they take turns). */
  private forwardTurn: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly policy: RetryPolicy = { retries: 6, backoffMs: 200 },
  ) {}

  /** The host, for messages such as the large-download confirmation. */
  get host(): string {
    return new URL(this.name, globalThis.location?.href).host;
  }

  /**
   * Probes the file (idempotent: a second call does nothing) with a request for its first
   * {@link PROBE_BYTES}, of which it reads {@link END_BYTES}, and asks for its last ones
   * alongside (a suffix range needs no size): the file identity hashes both ends, and a full
   * read goes on with the probe's reply, so neither costs a round trip after this one. When no
   * full read comes, {@link release} cancels the reply's rest. A tail that fails is read again
   * by {@link read}.
   */
  async open(signal?: AbortSignal): Promise<void> {
    if (!Number.isNaN(this.size) || this.whole) return;
    const probe = `bytes 0-${PROBE_BYTES - 1}`;
    const probed = this.withRetries(probe, signal, async () => {
      let r = await this.fetch({ Range: `bytes=0-${PROBE_BYTES - 1}` }, signal);
      if (r.status === 416) {
        // A file smaller than that, from a server that refuses a range past the end instead
        // of shortening it (RFC 9110 §14.1.2 says shorten; Workbox's range replies refuse).
        await r.body?.cancel();
        r = await this.fetch({ Range: 'bytes=0-0' }, signal);
      }
      if (r.status !== 206 && r.status !== 200) await this.refuse(r, probe);
      if (r.status === 200) return { res: r, head: null, extra: null, size: NaN, end: NaN };
      const range = parseContentRange(r.headers.get('Content-Range'));
      if (!range || range[0] !== 0) {
        await r.body?.cancel();
        throw new FatalHttpError(`${this.name}: the reply to a Range request has no readable Content-Range; ${CORS_HELP}`);
      }
      const length = Math.min(END_BYTES, range[1] + 1);
      const first = r.body ? await readFirst(r.body, length, signal) : { bytes: new Uint8Array(0), extra: null };
      if (first.bytes.length < length) {
        void r.body?.cancel().catch(() => {});
        throw new Error(`connection cut after ${first.bytes.length} of ${length} bytes`);
      }
      this.stats.bytesFetched += length;
      return { res: r, head: first.bytes, extra: first.extra, size: range[2], end: range[1] };
    });
    // Sent after the probe (a fault server's counts stay in order); stopped if the probe fails.
    const stopTail = new AbortController();
    const tail = this.fetchTail(signal ? AbortSignal.any([signal, stopTail.signal]) : stopTail.signal);
    const { res, head, extra, size, end } = await probed.catch((e) => {
      stopTail.abort();
      throw e;
    });
    this.etag = res.headers.get('ETag');
    this.lastModified = res.headers.get('Last-Modified');
    if (head) {
      this.size = size;
      this.head = head;
      this.rest = { res, extra, end };
      this.tail = tail.then((t) => (t && this.sameVersion(t.res) && t.range[1] === this.size - 1 && t.range[2] === this.size ? t.bytes : null));
    } else {
      // 200: no Range support. Keep this response: its body is the whole file, read as a stream.
      this.stats.rangeSupported = false;
      this.size = Number(res.headers.get('Content-Length') ?? NaN);
      this.whole = res;
    }
  }

  /** Cancels the rest of the probe's reply (see {@link open}): no full read is coming. */
  release(): void {
    const rest = this.rest;
    this.rest = null;
    void rest?.res.body?.cancel().catch(() => {});
  }

  /**
   * The file's last {@link END_BYTES} (all of a smaller file) with the reply they came in, or
   * null when not had: a server without Range support (its whole-file reply is cancelled) or
   * that refuses a suffix range, CORS refusing its preflight (a suffix range is not a
   * safelisted `Range`). 429, 5xx and cuts are retried as every read is.
   */
  private async fetchTail(signal?: AbortSignal): Promise<{ res: Response; range: [number, number, number]; bytes: Uint8Array } | null> {
    const what = `the last ${END_BYTES} bytes`;
    try {
      return await this.withRetries(what, signal, async () => {
        const res = await this.fetch({ Range: `bytes=-${END_BYTES}` }, signal).catch((e) => {
          if (e instanceof NetworkError) return null;
          throw e;
        });
        if (res && (res.status === 429 || res.status >= 500)) await this.refuse(res, what);
        const range = parseContentRange(res?.headers.get('Content-Range') ?? null);
        if (!res || res.status !== 206 || !range) {
          await res?.body?.cancel();
          return null;
        }
        return { res, range, bytes: await this.body(res, range[0], range[1], signal) };
      });
    } catch {
      return null; // read again, with its own retries, when wanted
    }
  }

  /** The body of the reply `res` to bytes `from`…`end`, whole (errors as {@link fill}). */
  private async body(res: Response, from: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    const out = new Uint8Array(end - from + 1);
    await this.fill(res, out, { got: 0 }, from, end, signal);
    return out;
  }

  /**
   * Copies the body of `res`, the reply to bytes `from`…`end`, into `out` from `at.got` on,
   * advancing `at.got` as it goes (so a caller can resume after a cut). Throws when the body is
   * longer than asked for or ends before `out` is full.
   */
  private async fill(res: Response, out: Uint8Array, at: { got: number }, from: number, end: number, signal?: AbortSignal): Promise<void> {
    // Chunks as they come (no 1 MiB pieces: these ranges are often a few KiB), each within `stallMs`.
    const chunks = res.body ? streamChunks(res.body, signal, this.stallMs, this.stats.waits) : null;
    let next = await chunks?.next();
    while (next && !next.done) {
      const piece = next.value;
      if (at.got + piece.length > out.length) throw this.sentTooMuch(from, end);
      out.set(piece, at.got);
      at.got += piece.length;
      this.stats.bytesFetched += piece.length;
      next = await chunks!.next();
    }
    if (next?.value === 'stalled') throw this.stalledAt(new StalledError(at.got, this.stallMs), from + at.got);
    if (at.got !== out.length) throw new Error(`connection cut after ${at.got} of ${out.length} bytes`);
  }

  /** A copy of bytes `offset`…`end` when the probe's head or the tail holds them all. */
  private async kept(offset: number, end: number): Promise<Uint8Array | null> {
    if (this.head && end < this.head.length) return this.head.slice(offset, end + 1);
    if (offset < this.size - END_BYTES) return null;
    const tail = await this.tail;
    const tailStart = this.size - (tail?.length ?? 0);
    return tail && offset >= tailStart ? tail.slice(offset - tailStart, end - tailStart + 1) : null;
  }

  /**
   * Bytes `offset` … `offset + length - 1` (see {@link Source.read}). The whole file from byte 0
   * (a full read) comes as one streamed reply that goes on with the probe's
   * ({@link streamRange}); any other range in one buffer from one request ({@link readRange}),
   * unless the probe's head or the tail hold it. A server without Range support is read
   * forward through its one whole-file reply ({@link readForward}).
   * Reading the whole file by ranges instead cost Chromium 2.4× the CPU for the same bytes
   * (110 MB from a local server: 770–830 ms in 4 MiB ranges, 6 at a time, against 330 ms in one
   * response), taken from the decoders.
   */
  async *read(offset: number, length: number, { signal, buffers }: ReadOptions = {}): AsyncIterable<Uint8Array> {
    if (!this.stats.rangeSupported) {
      yield* this.readForward(offset, length, signal);
      return;
    }
    const end = Math.min(offset + length, this.size) - 1;
    if (end < offset) return;
    const kept = await this.kept(offset, end);
    if (kept) yield kept;
    else if (offset === 0 && end === this.size - 1) yield* this.streamRange(signal, buffers);
    else {
      this.release(); // a targeted read: no full read is coming to take the probe's reply
      yield await this.readRange(offset, end, signal);
    }
  }

  /**
   * Bytes `offset` … `end` in one request (a body cut mid-way is resumed from the first
   * missing byte). Rejects with an Error naming the URL and range for a fault that persists past
   * the retries, a 4xx, or a file that changed since {@link open}.
   */
  private async readRange(offset: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    const out = new Uint8Array(end - offset + 1);
    const at = { got: 0 };
    await this.withRetries(`bytes ${offset}-${end}`, signal, async () => {
      const from = offset + at.got;
      const res = await this.fetchRange(from, end, signal);
      await this.checkReply(res, from, end);
      await this.fill(res, out, at, from, end, signal);
    });
    return out;
  }

  /**
   * Bytes `offset` … `offset + length - 1` of a server without Range support, from its one
   * whole-file reply read forward: reads at growing offsets (a pass's blobs, in file order) go
   * on where the last stopped, skipping what lies between; a read behind it, or for another
   * signal, starts the file again. Reads take turns.
   */
  private async *readForward(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> {
    const turn = this.forwardTurn;
    let done = () => {};
    this.forwardTurn = new Promise((resolve) => (done = resolve));
    await turn;
    try {
      let f = this.forward;
      if (!f || f.at > offset || f.signal !== signal) {
        void f?.pieces.return?.();
        f = this.forward = { pieces: this.streamWhole(signal)[Symbol.asyncIterator](), at: 0, left: null, signal };
      }
      const end = offset + length;
      while (f.at < end) {
        let piece = f.left;
        f.left = null;
        if (!piece) {
          const next = await f.pieces.next();
          if (next.done) return;
          piece = next.value;
        }
        const start = f.at;
        const from = Math.max(0, offset - start);
        const to = Math.min(piece.length, end - start);
        if (to < piece.length) f.left = piece.subarray(to);
        f.at = start + to;
        if (to > from) yield piece.subarray(from, to);
      }
    } finally {
      done();
    }
  }

  /**
   * The file from byte 0: the probe's head (handed on: the reader may keep its buffer), the rest
   * of the probe's reply, then a `bytes=N-` reply for the rest of the file, asked for before the
   * head is handed on; after a cut, or a reply that ends before the file does, another from the
   * first byte not yet handed on.
   */
  private async *streamRange(signal?: AbortSignal, buffers?: BufferPool): AsyncIterable<Uint8Array> {
    const head = this.head;
    this.head = null;
    let delivered = head?.length ?? 0;
    // The probe's reply, read on from the head, is taken only right after it (a read after a
    // release fetches anew).
    let reply = delivered > 0 ? this.rest : null;
    if (reply) this.rest = null;
    else this.release();
    const nextFrom = reply ? reply.end + 1 : delivered;
    let next = nextFrom < this.size ? this.fetchRange(nextFrom, null, signal) : null;
    next?.catch(() => {}); // its failure is met where it is awaited
    try {
      if (head) yield head;
      for (let attempt = 0; delivered < this.size; ) {
        const before = delivered;
        try {
          let res: Response;
          let end: number;
          if (reply) {
            const { extra } = reply;
            ({ res, end } = reply);
            reply = null;
            if (extra) {
              if (delivered + extra.length > end + 1) throw this.sentTooMuch(0, end);
              delivered += extra.length;
              this.stats.bytesFetched += extra.length;
              yield extra;
            }
          } else {
            const ahead = nextFrom === delivered ? next : null;
            if (!ahead) void next?.then((r) => r.body?.cancel()).catch(() => {});
            next = null;
            res = await (ahead ?? this.fetchRange(delivered, null, signal));
            end = await this.checkReply(res, delivered, this.size - 1, true);
          }
          try {
            for await (const piece of streamPieces(res.body!, signal, buffers, { stallMs: this.stallMs, perRead: true, waits: this.stats.waits })) {
              if (delivered + piece.length > end + 1) throw this.sentTooMuch(before, end);
              delivered += piece.length;
              this.stats.bytesFetched += piece.length;
              yield piece;
            }
          } catch (e) {
            throw this.stalledAt(e, delivered);
          }
          if (delivered <= end) throw new Error(`connection cut after byte ${delivered} of ${this.size}`);
        } catch (e) {
          if (delivered > before) attempt = 0; // a cut after progress starts the count again
          await this.retryOrThrow(e, `bytes ${delivered}-${this.size - 1}`, attempt++, signal);
        }
      }
    } finally {
      // Left before the replies were taken up: they stop downloading.
      void reply?.res.body?.cancel().catch(() => {});
      void next?.then((r) => r.body?.cancel()).catch(() => {});
    }
  }

  /** Only for a server without Range support: the one whole-file response, streamed. */
  private async *streamWhole(signal?: AbortSignal): AsyncIterable<Uint8Array> {
    let delivered = 0;
    for (let attempt = 0; ; attempt++) {
      const res = this.whole ?? (await this.fetch(this.validatorHeaders(), signal));
      this.whole = null;
      try {
        if (res.status !== 200) await this.refuse(res, 'the whole file');
        this.checkSameVersion(res);
        // After a cut, the file comes again from its start: skip what was already handed on.
        let skip = delivered;
        for await (const piece of streamPieces(res.body!, signal, undefined, { stallMs: this.stallMs, perRead: true, waits: this.stats.waits })) {
          const fresh = skip >= piece.length ? null : piece.subarray(skip);
          skip = Math.max(0, skip - piece.length);
          if (!fresh) continue;
          delivered += fresh.length;
          this.stats.bytesFetched += fresh.length;
          yield fresh;
        }
        return;
      } catch (e) {
        await this.retryOrThrow(e, 'the whole file', attempt, signal);
      }
    }
  }

  /**
   * GET bytes `from`…`end` (to the file's end when `end` is null) with `If-Range`. From another
   * origin `If-Range` needs a CORS preflight (`Range` alone is a safelisted header, `If-Range` is
   * not), which a server that allows only `Range` refuses: the browser reports a network error.
   * Then the request is sent again without it, and so are the later ones; each reply's ETag and
   * Last-Modified are still compared with the probe's ({@link checkSameVersion}), which tells a
   * changed file as well, one reply late.
   */
  private async fetchRange(from: number, end: number | null, signal?: AbortSignal): Promise<Response> {
    const range = { Range: `bytes=${from}-${end ?? ''}` };
    const validator = this.validatorHeaders();
    if (!this.ifRange || !validator['If-Range']) return this.fetch(range, signal);
    try {
      return await this.fetch({ ...range, ...validator }, signal);
    } catch (e) {
      if (!(e instanceof NetworkError)) throw e;
      const res = await this.fetch(range, signal);
      this.ifRange = false;
      return res;
    }
  }

  /** `If-Range` with the validator seen at open (a strong ETag, else Last-Modified: RFC 7233 §3.2). */
  private validatorHeaders(): Record<string, string> {
    const strongEtag = this.etag && !this.etag.startsWith('W/') ? this.etag : null;
    const validator = strongEtag ?? this.lastModified;
    return validator ? { 'If-Range': validator } : {};
  }

  /**
   * Throws unless `res` is the 206 of bytes `from`…`end` of the version opened (`partial`: of
   * `from`… up to `end`, as a server may answer an open-ended range, RFC 9110 §14.2): a 200 to
   * `If-Range` (the file changed), another range, a changed ETag, or an error status. Returns
   * the last byte the reply holds.
   */
  private async checkReply(res: Response, from: number, end: number, partial = false): Promise<number> {
    this.checkSameVersion(res);
    if (res.status === 200) {
      await res.body?.cancel();
      throw new FatalHttpError(`${this.name} changed on the server while it was being read (it answered If-Range with the whole new file); run the query again`);
    }
    if (res.status !== 206) await this.refuse(res, `bytes ${from}-${end}`);
    const range = parseContentRange(res.headers.get('Content-Range'));
    if (!range || range[0] !== from || (partial ? range[1] < from || range[1] > end : range[1] !== end)) {
      await res.body?.cancel();
      throw new FatalHttpError(`${this.name}: asked for bytes ${from}-${end}, the server sent Content-Range ${res.headers.get('Content-Range')}`);
    }
    return range[1];
  }

  /** The error for a reply body longer than the bytes `from`…`end` it was asked for. */
  private sentTooMuch(from: number, end: number): FatalHttpError {
    return new FatalHttpError(`${this.name}: the server sent more than bytes ${from}-${end} (is it compressing 206 replies?)`);
  }

  /** Whether `res` is of the version opened: its ETag and Last-Modified, where sent, are the probe's. */
  private sameVersion(res: Response): boolean {
    const etag = res.headers.get('ETag');
    const modified = res.headers.get('Last-Modified');
    return !((this.etag && etag && etag !== this.etag) || (this.lastModified && modified && modified !== this.lastModified));
  }

  private checkSameVersion(res: Response): void {
    if (!this.sameVersion(res)) {
      void res.body?.cancel();
      throw new FatalHttpError(`${this.name} changed on the server while it was being read (ETag or Last-Modified differs); run the query again`);
    }
  }

  private async fetch(headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    this.stats.requestsInFlight++;
    const waited = this.stats.waits.begin();
    // A server that takes the request and sends no headers: dropped after `stallMs`, as a
    // stalled body is (the reply's own signal stays unaborted once its headers came).
    const silent = new AbortController();
    const timer = setTimeout(() => silent.abort(), this.stallMs);
    try {
      const redirect = this.askBeforeRedirect ? 'manual' : 'follow';
      const res = await fetch(this.name, { headers, signal: signal ? AbortSignal.any([signal, silent.signal]) : silent.signal, cache: 'no-store', redirect });
      return this.checkRedirect(res);
    } catch (e) {
      if (e instanceof RedirectError || e instanceof FatalHttpError) throw e;
      if (signal?.aborted) throw e;
      if (silent.signal.aborted) throw new StalledHttpError(`${this.name}: no reply for ${this.stallMs / 1000} s to ${headers.Range ? `bytes ${headers.Range.slice(6)}` : 'a request for the whole file'}`);
      throw new NetworkError(`could not reach ${this.name}: network error, or ${CORS_HELP} (${(e as Error).message})`);
    } finally {
      clearTimeout(timer);
      waited();
      this.stats.requestsInFlight--;
    }
  }

  /**
   * `res`, unless it is a redirect the read may not follow: one not followed (see
   * {@link askBeforeRedirect}), or one that led to an origin other than the first redirect's.
   */
  private checkRedirect(res: Response): Response {
    if (this.askBeforeRedirect && (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400 && res.headers.has('Location')))) {
      void res.body?.cancel().catch(() => {});
      throw new RedirectError(`${this.host} sends this file on to another address (an HTTP redirect)`);
    }
    if (!res.redirected || !res.url) return res;
    const origin = new URL(res.url).origin;
    this.redirectedTo ??= origin;
    if (origin !== this.redirectedTo) {
      void res.body?.cancel().catch(() => {});
      throw new FatalHttpError(`${this.host} redirected this read to ${new URL(res.url).host}, not where its first redirect led (${new URL(this.redirectedTo).host}): stopped`);
    }
    return res;
  }

  /** How long (ms) a reply may send nothing before it counts as stalled ({@link RetryPolicy.stallMs}). */
  private get stallMs(): number {
    return this.policy.stallMs ?? HTTP_STALL_MS;
  }

  /** `e` as the source's error: a stalled body names the server and the file's byte `at`; other errors as they are. */
  private stalledAt(e: unknown, at: number): unknown {
    return e instanceof StalledError ? new StalledHttpError(`${this.name} sent no byte for ${e.stallMs / 1000} s at byte ${at}`) : e;
  }

  /** Turns an unexpected status into an error: retryable for 429 and 5xx, fatal otherwise. */
  private async refuse(res: Response, what: string): Promise<never> {
    await res.body?.cancel();
    const text = `${this.name}: HTTP ${res.status} ${res.statusText} for ${what}`;
    if (res.status === 429 || res.status >= 500) throw new RetryableHttpError(text, retryAfterMs(res.headers.get('Retry-After')));
    if (res.status === 404) throw new FatalHttpError(`${text}: no file at that address`);
    if (res.status === 401 || res.status === 403) throw new FatalHttpError(`${text}: the server refuses access`);
    throw new FatalHttpError(text);
  }

  /** Runs `attempt` until it succeeds, retrying transient failures with exponential backoff. */
  private async withRetries<T>(what: string, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (e) {
        await this.retryOrThrow(e, what, n, signal);
      }
    }
  }

  /**
   * After failed attempt `n` (from 0) at `what`: rethrows a fatal error, an abort, or any error
   * once the retries are spent (naming `what`); otherwise waits out the backoff (or a longer
   * `Retry-After`) and returns, for the next attempt.
   */
  private async retryOrThrow(e: unknown, what: string, n: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || e instanceof FatalHttpError || e instanceof RedirectError) throw e;
    if (n >= this.policy.retries) throw new Error(`${(e as Error).message} (gave up on ${what} after ${n + 1} tries)`);
    this.stats.retries++;
    await sleep(Math.max(backoff(this.policy, n), e instanceof RetryableHttpError ? e.retryAfterMs : 0), signal);
  }
}

class NetworkError extends Error {}

class RetryableHttpError extends Error {
  constructor(message: string, readonly retryAfterMs: number) {
    super(message);
  }
}

/**
 * Whether `source` reads a range without the bytes before it: false for an HTTP server that
 * ignores Range, whose every read behind the last one is a download of the file from its start
 * (no file identity, no blob index for it).
 */
export function readsAtRandom(source: Source): boolean {
  return !(source instanceof FetchSource) || source.stats.rangeSupported;
}
