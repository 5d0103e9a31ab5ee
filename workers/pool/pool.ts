/**
 * A pool of decode workers (one per core), owned by the query worker. Blobs queue here and go,
 * transferred, to the least-loaded worker, up to {@link PER_MESSAGE} in a message; each worker
 * holds up to {@link PER_WORKER} messages so it never idles while its reply crosses to the query worker. Queued bytes and blobs are bounded so a fast
 * reader waits for slow decoders (backpressure); a cancel drops every queued blob and
 * ignores late replies. A worker that dies is replaced.
 */
import type { Frame } from '../framer/framer';
import type { Query } from '../types';
import type { DecodeCalls, DecodeReply, DecodeRequest, DecodeResult, FromDecodeWorker, ToDecodeWorker } from './messages';

interface Job {
  id: number;
  /** The frame it decodes, for error messages. */
  frame: Frame;
  request: DecodeRequest;
  bytes: number;
  resolve: (result: DecodeResult) => void;
  reject: (error: Error) => void;
  /** Set once the caller was answered (cancel, crash): its reply, if any, is dropped. */
  settled: boolean;
}

interface Slot {
  worker: Worker;
  /** Blobs sent to this worker, oldest first; it answers them in order. */
  jobs: Job[];
  /** Messages of calls sent to it and not answered yet. */
  messages: number;
  /** Its Wasm linear memory in bytes, as last reported. */
  wasmBytes: number;
}

/** Thrown to waiters when {@link DecodePool.cancel} drops their work. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** Messages sent ahead to each worker: one being decoded, one waiting in its inbox. */
const PER_WORKER = 2;

/** A failure of the blob `frame`, naming it and its byte offset in the file. */
export function blobError(frame: Frame, message: string): Error {
  return new Error(`blob #${frame.index} at byte ${frame.offset}: ${message}`);
}

/**
 * Most Blobs in one message (fewer when fewer are queued, as at a read's start): each message
 * wakes the receiving thread, which on a 2-core machine preempts a decoder (`docs/decisions.md`).
 */
export const PER_MESSAGE = 8;

const defaultWorker = () => new Worker(new URL('../decode-worker.ts', import.meta.url), { type: 'module', name: 'decode-worker' });

export class DecodePool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextJob = 1;
  private inFlightBytes = 0;
  private inFlightJobs = 0;
  private waiters: (() => void)[] = [];
  private query: Query | null | undefined = undefined;
  private areaNodes = true;
  private contextNodes: Float64Array | null = null;
  private areaFilter: Uint32Array | null = null;
  /** Called with each Blob buffer a worker hands back, to be used again. */
  onSpent: ((buffer: ArrayBuffer) => void) | null = null;
  private readyCount = 0;
  private readyWaiters: (() => void)[] = [];

  /**
   * @param size number of workers; default `navigator.hardwareConcurrency` (at most 32).
   * @param maxInFlightBytes Blob bytes queued or decoding before {@link waitForSpace} waits;
   *   default 32 MiB (one Blob of the spec's maximum size always gets through).
   * @param maxInFlightJobs blobs queued or decoding before {@link waitForSpace} waits; default
   *   twice what the workers hold, so that full messages can form.
   */
  constructor(
    readonly size = Math.max(1, Math.min(navigator.hardwareConcurrency || 4, 32)),
    private readonly maxInFlightBytes = 32 << 20,
    private readonly maxInFlightJobs = size * PER_WORKER * PER_MESSAGE * 2,
    private readonly createWorker: () => Worker = defaultWorker,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: this.createWorker(), jobs: [], messages: 0, wasmBytes: 0 };
    slot.worker.onmessage = (e: MessageEvent<FromDecodeWorker>) => this.onReply(slot, e.data);
    slot.worker.onerror = (e) => {
      e.preventDefault();
      this.replace(slot, `a decode worker crashed: ${e.message || 'unknown error'}`);
    };
    if (this.query !== undefined) this.post(slot, { type: 'query', query: this.query });
    if (!this.areaNodes) this.post(slot, { type: 'area-nodes', on: false });
    if (this.contextNodes) this.post(slot, { type: 'context-nodes', nodes: this.contextNodes });
    if (this.areaFilter) this.post(slot, { type: 'area-filter', words: this.areaFilter });
    return slot;
  }

  /** Replaces a dead worker; the blobs it held fail with `message`. */
  private replace(slot: Slot, message: string): void {
    const at = this.slots.indexOf(slot);
    // A dying worker can report several errors (one per message it had queued): the first one
    // replaces it, the others find it gone.
    if (at < 0) return;
    slot.worker.terminate();
    this.slots[at] = this.spawn();
    for (const job of slot.jobs) this.fail(job, blobError(job.frame, message));
    this.dispatch();
  }

  private post(slot: Slot, msg: ToDecodeWorker, transfer: Transferable[] = []): void {
    slot.worker.postMessage(msg, transfer);
  }

  private onReply(slot: Slot, msg: FromDecodeWorker): void {
    if (msg.type === 'ready') {
      this.readyCount++;
      if (this.readyCount >= this.size) this.readyWaiters.splice(0).forEach((w) => w());
      return;
    }
    if (msg.type === 'error') {
      // A query-level failure: a bad query, or the Wasm module not loading.
      this.rejectAll(new Error(msg.message));
      return;
    }
    slot.messages--;
    for (const reply of msg.replies) {
      if (!this.onCallReply(slot, reply)) return; // the worker was replaced
    }
    this.dispatch();
  }

  /** Takes one call's reply; false when it was fatal and the worker has been replaced. */
  private onCallReply(slot: Slot, reply: DecodeReply): boolean {
    if (reply.type === 'result') {
      slot.wasmBytes = reply.wasmBytes;
      this.onSpent?.(reply.spent);
    }
    if (reply.type === 'error' && reply.fatal) {
      this.replace(slot, reply.message); // fails this blob and the ones queued behind it
      return false;
    }
    const job = slot.jobs.shift(); // a worker answers its blobs in order
    if (job && job.id === reply.job) {
      if (reply.type === 'error') {
        this.fail(job, blobError(job.frame, reply.message));
      } else {
        this.finish(job, () => job.resolve(reply));
      }
    }
    return true;
  }

  /** Answers a job's caller once, and frees its share of the in-flight budget. */
  private finish(job: Job, answer: () => void): void {
    if (job.settled) return;
    job.settled = true;
    this.inFlightBytes -= job.bytes;
    this.inFlightJobs--;
    answer();
    this.waiters.splice(0).forEach((w) => w());
  }

  private fail(job: Job, error: Error): void {
    this.finish(job, () => job.reject(error));
  }

  /** Rejects every queued and running job; running workers finish their blobs unheard. */
  private rejectAll(error: Error): void {
    for (const job of this.queue.splice(0)) this.fail(job, error);
    for (const slot of this.slots) slot.jobs.forEach((job) => this.fail(job, error));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.reduce((a, b) => (b.messages < a.messages || (b.messages === a.messages && b.jobs.length < a.jobs.length) ? b : a));
      if (slot.messages >= PER_WORKER) return;
      const jobs = this.queue.splice(0, PER_MESSAGE);
      slot.jobs.push(...jobs);
      slot.messages++;
      this.post(slot, { type: 'calls', requests: jobs.map((j) => j.request) }, jobs.map((j) => j.request.blob.buffer));
    }
  }

  /** Wasm linear memory of all workers, in bytes (it never shrinks, so this is also the peak). */
  wasmBytes(): number {
    return this.slots.reduce((n, s) => n + s.wasmBytes, 0);
  }

  /** Resolves once every worker has loaded the Wasm decoder (for timing without start-up). */
  ready(): Promise<void> {
    if (this.readyCount >= this.size) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Sets the query every worker applies to the blobs that follow (`null`: count only). */
  setQuery(query: Query | null): void {
    this.query = query;
    this.areaNodes = true;
    this.contextNodes = null;
    this.areaFilter = null;
    for (const slot of this.slots) this.post(slot, { type: 'query', query });
  }

  /**
   * Sets the area filter (`QueryAssembler.scanAreaFilter`) every worker's scans apply
   * from the next blob on, leaving out the candidate ways that cannot match; null: none.
   */
  setAreaFilter(words: Uint32Array | null): void {
    if (words === this.areaFilter) return;
    this.areaFilter = words;
    for (const slot of this.slots) this.post(slot, { type: 'area-filter', words });
  }

  /** Whether scans report the locations of the nodes in the area (the assembler's budget). */
  setAreaNodes(on: boolean): void {
    if (on === this.areaNodes) return;
    this.areaNodes = on;
    for (const slot of this.slots) this.post(slot, { type: 'area-nodes', on });
  }

  /** Sets the node locations the basemap is drawn from (`[ids…, lats_e7…, lons_e7…]`), for every worker. */
  setContextNodes(nodes: Float64Array): void {
    this.contextNodes = nodes;
    for (const slot of this.slots) this.post(slot, { type: 'context-nodes', nodes });
  }

  /** Draws the basemap features of an `OSMData` frame (after {@link setContextNodes}). Rejects as {@link DecodePool.scan}. */
  context(frame: Frame): Promise<DecodeCalls['context']['result']> {
    return this.call(frame, { call: 'context', job: this.nextJob++, blob: frame.blob }, (r) => (r.call === 'context' ? r.result : null));
  }

  /**
   * Scans an `OSMData` frame with the query set by {@link setQuery}; the frame's buffer is
   * transferred (unusable after). Rejects with an Error naming the blob index and byte offset,
   * or {@link CancelledError}.
   */
  scan(frame: Frame): Promise<DecodeCalls['scan']['result']> {
    return this.call(frame, { call: 'scan', job: this.nextJob++, blob: frame.blob }, (r) => (r.call === 'scan' ? r.result : null));
  }

  /** Finds the nodes `wanted` (ascending ids) in an `OSMData` frame. Rejects as {@link DecodePool.scan}. */
  locate(frame: Frame, wanted: Float64Array, ways = false): Promise<DecodeCalls['locate']['result']> {
    return this.call(frame, { call: 'locate', job: this.nextJob++, blob: frame.blob, wanted, ways }, (r) => (r.call === 'locate' ? r.result : null));
  }

  private call<T>(frame: Frame, request: DecodeRequest, pick: (r: DecodeResult) => T | null): Promise<T> {
    return new Promise((resolve, reject) => {
      const bytes = frame.blob.byteLength;
      this.inFlightBytes += bytes;
      this.inFlightJobs++;
      const onResult = (r: DecodeResult) => {
        const value = pick(r);
        if (value === null) reject(new Error(`a decode worker answered ${r.call} to a ${request.call} call`));
        else resolve(value);
      };
      this.queue.push({ id: request.job, frame, request, bytes, resolve: onResult, reject, settled: false });
      this.dispatch();
    });
  }

  /** Resolves once the blobs queued or decoding are under both caps (backpressure for the reader). */
  async waitForSpace(): Promise<void> {
    while (this.inFlightJobs > 0 && (this.inFlightBytes >= this.maxInFlightBytes || this.inFlightJobs >= this.maxInFlightJobs)) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Drops all queued work (rejecting it with {@link CancelledError}); late replies are ignored. */
  cancel(): void {
    this.rejectAll(new CancelledError());
  }

  /** Stops every worker. */
  terminate(): void {
    this.cancel();
    this.slots.forEach((s) => s.worker.terminate());
  }
}
