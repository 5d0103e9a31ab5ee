/**
 * A decode worker on the command line: a `worker_threads` thread (one per core, started by the
 * pool through `pool/thread-worker.ts`) that instantiates the Wasm module it is handed and serves the
 * pool's calls exactly as the browser's decode worker does (`decode-calls.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveDecodeCalls } from './decode-calls';
import type { ToDecodeWorker } from './pool/messages';
import { startWasm } from './node-wasm';

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
