/**
 * Runs one query over one source: source → framer → pool → results. Reports progress as it
 * goes; on an error or a cancel, what was found so far stays in the {@link ResultStore}.
 */
import { readFrames, type FramerOptions } from './framer';
import { CancelledError, type WorkerPool } from './pool';
import { ResultStore } from './results';
import type { Source } from './source';
import type { BlobResult, HeaderInfo, Query } from './types';

/** Where a run is; sizes in bytes, times in milliseconds. */
export interface Progress {
  bytesRead: number;
  /** NaN when a server without Range support sent no length. */
  totalBytes: number;
  /** HTTP only: requests under way, retries so far, and whether the server honours Range. */
  requestsInFlight?: number;
  retries?: number;
  rangeSupported?: boolean;
  blobsDecoded: number;
  /** Nodes + ways + relations decoded so far. */
  elements: number;
  elapsedMs: number;
}

export interface RunCallbacks {
  onHeader?: (header: HeaderInfo) => void;
  onProgress?: (progress: Progress) => void;
  /** Called after each decoded blob, and once more after the final placement of ways. */
  onResults?: (store: ResultStore) => void;
}

/**
 * Reads `source`, decodes every blob in `pool` and collects the matches of `query` into `store`
 * (`query` null: only count elements).
 * Resolves when the whole file is done.
 * @throws the first error of the source, the framer (PbfFormatError) or a worker (naming the
 *   blob and byte offset); {@link CancelledError} when `signal` aborts. `store` keeps what was found.
 */
export async function runQuery(
  source: Source,
  query: Query | null,
  pool: WorkerPool,
  store: ResultStore,
  callbacks: RunCallbacks = {},
  signal?: AbortSignal,
  framerOptions: FramerOptions = {},
): Promise<Progress> {
  const started = performance.now();
  const progress: Progress = { bytesRead: 0, totalBytes: 0, blobsDecoded: 0, elements: 0, elapsedMs: 0 };
  const report = () => {
    progress.elapsedMs = performance.now() - started;
    if (source.stats) {
      progress.requestsInFlight = source.stats.requestsInFlight;
      progress.retries = source.stats.retries;
      progress.rangeSupported = source.stats.rangeSupported;
    }
    callbacks.onProgress?.({ ...progress });
  };
  // One controller stops the reader on the caller's cancel or on the first failure.
  const stop = new AbortController();
  const onAbort = () => {
    stop.abort();
    pool.cancel();
  };
  signal?.addEventListener('abort', onAbort);
  let failure: unknown = null;
  // On a failure, stop reading but let the blobs already sent finish: they hold data from
  // before the bad spot, which the user keeps.
  const fail = (e: unknown) => {
    failure ??= e;
    stop.abort();
  };
  const decoding = new Set<Promise<void>>();
  try {
    await source.open(stop.signal);
    progress.totalBytes = source.size;
    report();
    pool.setQuery(query);
    const frames = readFrames(source, {
      ...source.readOptions,
      ...framerOptions,
      signal: stop.signal,
      onRead: (n) => {
        progress.bytesRead = n;
        report();
      },
    });
    for await (const frame of frames) {
      if (stop.signal.aborted) break;
      if (frame.type === 'OSMHeader') {
        callbacks.onHeader?.((await pool.decode(frame)) as HeaderInfo);
      } else if (frame.type === 'OSMData') {
        await pool.waitForSpace();
        const job = pool.decode(frame).then((r) => {
          const result = r as BlobResult;
          if (signal?.aborted) return;
          store.add(result);
          progress.blobsDecoded++;
          progress.elements += result.counts.nodes + result.counts.ways + result.counts.relations;
          report();
          callbacks.onResults?.(store);
        }).catch(fail);
        decoding.add(job);
        job.finally(() => decoding.delete(job));
      } // unknown frame types are skipped, as the spec says
    }
    await Promise.all(decoding);
  } catch (e) {
    fail(e);
    await Promise.allSettled(decoding);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    store.finish();
    callbacks.onResults?.(store);
    report();
  }
  if (signal?.aborted) throw new CancelledError();
  if (failure) throw failure;
  return progress;
}
