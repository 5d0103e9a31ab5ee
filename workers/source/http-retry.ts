/**
 * The small rules of reading over HTTP, kept free of `fetch` so they can be tested alone:
 * Content-Range parsing (RFC 7233 §4.2), Retry-After (RFC 9110 §10.2.3) and backoff.
 */

/** Parses `Content-Range: bytes a-b/total` (RFC 7233 §4.2) into [a, b, total], or null. */
export function parseContentRange(header: string | null): [number, number, number] | null {
  const m = header?.match(/^bytes\s+(\d+)-(\d+)\/(\d+)$/i);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** How a an HTTP source retries. */
export interface RetryPolicy {
  /** Attempts after the first, per request; default 6. */
  retries: number;
  /** First backoff in ms, doubled each time (capped at 8 s); `Retry-After` wins when longer. */
  backoffMs: number;
  /**
   * A reply that brings no byte for this long (ms), before its headers or within its body,
   * counts as stalled: it is dropped and asked for again from the byte it stopped at, as a
   * retry. Default {@link HTTP_STALL_MS}.
   */
  stallMs?: number;
}

/**
 * How long (ms) a server may send nothing before its reply counts as stalled. A browser keeps a
 * silent connection open for minutes; a server that answers at all sends a chunk far sooner.
 */
export const HTTP_STALL_MS = 20_000;

/** `Retry-After` (seconds or an HTTP date) in ms, capped at 30 s; 0 when absent. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return 0;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Math.min(Math.max(ms, 0), 30_000);
}

export function backoff(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.backoffMs * 2 ** attempt, 8000);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

