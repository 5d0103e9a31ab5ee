/**
 * A pool of decode workers (one per core). Blobs queue here and go, transferred, to idle
 * workers; in-flight bytes are bounded so a fast reader waits for slow decoders; a cancel
 * drops every queued blob and ignores late replies. A worker that dies is replaced.
 */
import type { Frame } from './framer';
import type { BlobResult, HeaderInfo, Query, WorkerReply, WorkerRequest } from './types';

interface Job {
  id: number;
  frame: Frame;
  bytes: number;
  resolve: (reply: HeaderInfo | BlobResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** Thrown to waiters when {@link WorkerPool.cancel} drops their work. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** Job id of a running blob whose caller was already answered. */
const ABANDONED = -1;

const defaultWorker = () => new Worker(new URL('./decode-worker.ts', import.meta.url), { type: 'module' });

export class WorkerPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextJob = 1;
  private inFlightBytes = 0;
  private waiters: (() => void)[] = [];
  private query: Query | null = null;

  /**
   * @param size number of workers; default `navigator.hardwareConcurrency`.
   * @param maxInFlightBytes Blob bytes queued or decoding before {@link waitForSpace} waits; default 64 MiB.
   */
  constructor(
    readonly size = Math.max(1, Math.min(navigator.hardwareConcurrency || 4, 32)),
    private readonly maxInFlightBytes = 64 << 20,
    private readonly createWorker: () => Worker = defaultWorker,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: this.createWorker(), job: null };
    slot.worker.onmessage = (e: MessageEvent<WorkerReply>) => this.onReply(slot, e.data);
    slot.worker.onerror = (e) => {
      e.preventDefault();
      this.replace(slot, `a decode worker crashed: ${e.message || 'unknown error'}`);
    };
    if (this.query) this.post(slot, { type: 'query', query: this.query });
    return slot;
  }

  /** Replaces a dead worker; the blob it held fails with `message`. */
  private replace(slot: Slot, message: string): void {
    slot.worker.terminate();
    const job = slot.job;
    const fresh = this.spawn();
    this.slots[this.slots.indexOf(slot)] = fresh;
    if (job && job.id !== ABANDONED) {
      this.settle(job, () => job.reject(new Error(`blob #${job.frame.index} at byte ${job.frame.offset}: ${message}`)));
    }
    this.dispatch();
  }

  private post(slot: Slot, msg: WorkerRequest, transfer: Transferable[] = []): void {
    slot.worker.postMessage(msg, transfer);
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'ready') return;
    if (reply.job === null) {
      // A query-level failure: a bad query, or the Wasm module not loading.
      if (reply.type === 'error') this.rejectAll(new Error(reply.message));
      return;
    }
    const job = slot.job;
    slot.job = null; // a worker replies once per blob, so it is free now
    if (job && job.id === reply.job) {
      if (reply.type === 'error') {
        this.settle(job, () => job.reject(new Error(`blob #${job.frame.index} at byte ${job.frame.offset}: ${reply.message}`)));
      } else if (reply.type === 'header') {
        this.settle(job, () => job.resolve(reply.header));
      } else {
        this.settle(job, () => job.resolve(reply.result));
      }
    } // else: the late reply of an abandoned job
    this.dispatch();
  }

  private settle(job: Job, finish: () => void): void {
    this.inFlightBytes -= job.bytes;
    finish();
    const ready = this.waiters.splice(0);
    ready.forEach((w) => w());
  }

  /** Rejects every queued and running job; running workers finish their blob unheard. */
  private rejectAll(error: Error): void {
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(error));
    for (const slot of this.slots) {
      const job = slot.job;
      if (job && job.id !== ABANDONED) {
        this.settle(job, () => job.reject(error));
        slot.job = { ...job, id: ABANDONED, bytes: 0 };
      }
    }
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const kind = job.frame.type === 'OSMHeader' ? 'OSMHeader' : 'OSMData';
      this.post(slot, { type: 'blob', job: job.id, kind, blob: job.frame.blob }, [job.frame.blob]);
    }
  }

  /** Sets the query every worker applies to the blobs that follow. */
  setQuery(query: Query): void {
    this.query = query;
    for (const slot of this.slots) this.post(slot, { type: 'query', query });
  }

  /**
   * Decodes one frame in a worker: an `OSMHeader` resolves to its {@link HeaderInfo}, an
   * `OSMData` to its {@link BlobResult}. The frame's buffer is transferred (unusable after).
   * Rejects with an Error naming the blob index and byte offset, or {@link CancelledError}.
   */
  decode(frame: Frame): Promise<HeaderInfo | BlobResult> {
    return new Promise((resolve, reject) => {
      const bytes = frame.blob.byteLength;
      this.inFlightBytes += bytes;
      this.queue.push({ id: this.nextJob++, frame, bytes, resolve, reject });
      this.dispatch();
    });
  }

  /** Resolves once the bytes queued or decoding are under the cap (backpressure for the reader). */
  async waitForSpace(): Promise<void> {
    while (this.inFlightBytes >= this.maxInFlightBytes) {
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
