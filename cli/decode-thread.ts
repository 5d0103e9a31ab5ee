/**
 * A decode worker on the command line: a `worker_threads` thread (one per core, started by the
 * pool through `thread-worker.ts`) that instantiates the Wasm module it is handed and serves the
 * pool's calls exactly as the browser's decode worker does (`workers/decode-calls.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveDecodeCalls } from '../workers/decode-calls';
import type { ToDecodeWorker } from '../workers/pool/messages';
import { startWasm } from './wasm';

const port = parentPort!;
const ready = Promise.resolve().then(() => startWasm((workerData as { module: WebAssembly.Module }).module));
const serve = serveDecodeCalls(
  {
    post: (message, transfer = []) => port.postMessage(message, transfer as ArrayBuffer[]),
    close: () => process.exit(1), // in a worker thread this ends the thread, not the process
  },
  ready,
);
port.on('message', (msg: ToDecodeWorker) => void serve(msg));
