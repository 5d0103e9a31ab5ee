/**
 * A decode worker in the browser (one per core, started by the query worker's pool): loads the
 * Wasm decoder and serves the pool's calls (`decode-calls.ts`).
 */
import init from '../wasm/pkg/pbf_explorer.js';
import wasmUrl from '../wasm/pkg/pbf_explorer_bg.wasm?url';
import type { FromDecodeWorker, ToDecodeWorker } from './pool/messages';
import { serveDecodeCalls } from './decode-calls';

interface WorkerScope {
  postMessage(message: FromDecodeWorker, transfer?: Transferable[]): void;
  close(): void;
  onmessage: ((event: MessageEvent<ToDecodeWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

const serve = serveDecodeCalls(
  { post: (message, transfer = []) => scope.postMessage(message, transfer), close: () => scope.close() },
  init({ module_or_path: wasmUrl }).then((exports) => exports.memory),
);
scope.onmessage = (event) => void serve(event.data);
