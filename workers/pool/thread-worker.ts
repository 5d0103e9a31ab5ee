/**
 * Decode workers as `worker_threads` threads, behind the part of the Web Worker interface the
 * pool (`pool.ts`) uses: `onmessage`, `onerror`, `postMessage` with transfers and
 * `terminate`. So the pool, its scheduling and its replacing of dead workers are the browser's.
 */
import { Worker as Thread } from 'node:worker_threads';
import { wasmModule } from '../node-wasm';

/** The decode thread's bundle, beside this one in `dist-cli/` (not a literal: the bundler must not resolve it). */
const DECODE_THREAD = 'decode-thread.js';

/** Starts one decode thread; it is handed the compiled Wasm module, so it does not compile it again. */
export function startDecodeThread(): Worker {
  const thread = new Thread(new URL(DECODE_THREAD, import.meta.url), { workerData: { module: wasmModule() } });
  const worker = {
    onmessage: null as ((event: { data: unknown }) => void) | null,
    onerror: null as ((event: { message: string; preventDefault(): void }) => void) | null,
    postMessage: (message: unknown, transfer: Transferable[] = []) => thread.postMessage(message, transfer as ArrayBuffer[]),
    terminate: () => void thread.terminate(),
  };
  thread.on('message', (data) => worker.onmessage?.({ data }));
  thread.on('error', (e: Error) => worker.onerror?.({ message: e.message, preventDefault() {} }));
  return worker as unknown as Worker;
}
