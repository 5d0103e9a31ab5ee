/**
 * A decode worker: instantiates the Wasm decoder once, then inflates and scans each blob the
 * pool sends, replying with typed arrays (transferred, not copied) and a few matches.
 */
import init, { BlobScanner, readHeader } from '../wasm/pkg/pbf_explorer.js';
import wasmUrl from '../wasm/pkg/pbf_explorer_bg.wasm?url';
import { release } from './framer';
import type { BlobResult, Counts, WorkerReply, WorkerRequest } from './types';

interface WorkerScope {
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  close(): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
}
const scope = self as unknown as WorkerScope;

const ready = init({ module_or_path: wasmUrl });
let scanner: BlobScanner | null = null;
let memory: WebAssembly.Memory | null = null;
ready.then((exports) => (memory = exports.memory), () => {});

function toCounts(c: Float64Array): Counts {
  return { nodes: c[0], ways: c[1], relations: c[2], tags: c[3], wayRefs: c[4], relationMembers: c[5] };
}

function scan(bytes: Uint8Array): { result: BlobResult; transfer: Transferable[] } {
  if (!scanner) throw new Error('no query was set before the first blob');
  const r = scanner.scan(bytes);
  try {
    const { nodes, ways } = JSON.parse(r.matchesJson());
    const areaNodes = { ids: r.areaNodeIds(), lats: r.areaNodeLats(), lons: r.areaNodeLons() };
    const result: BlobResult = { counts: toCounts(r.counts()), nodes, ways, areaNodes };
    return { result, transfer: [areaNodes.ids.buffer, areaNodes.lats.buffer, areaNodes.lons.buffer] };
  } finally {
    r.free();
  }
}

scope.onmessage = async (event) => {
  const msg = event.data;
  const job = msg.type === 'blob' ? msg.job : null;
  try {
    await ready;
    if (msg.type === 'query') {
      scanner?.free();
      scanner = new BlobScanner(JSON.stringify(msg.query));
    } else if (msg.kind === 'OSMHeader') {
      scope.postMessage({ type: 'header', job: msg.job, header: JSON.parse(readHeader(new Uint8Array(msg.blob))) });
    } else {
      const { result, transfer } = scan(new Uint8Array(msg.blob));
      release(msg.blob); // copied into Wasm memory: free it now, not at the next GC
      scope.postMessage({ type: 'data', job: msg.job, result, wasmBytes: memory?.buffer.byteLength ?? 0 }, transfer);
    }
  } catch (e) {
    // A trap (a panic, or running out of memory) can leave the Wasm instance inconsistent:
    // report it and close, so the pool starts a fresh worker instead of reusing this one.
    const fatal = e instanceof WebAssembly.RuntimeError;
    const message = e instanceof Error ? e.message : String(e);
    scope.postMessage({ type: 'error', job, message: fatal ? `the decoder failed (${message})` : message, fatal });
    if (fatal) scope.close();
  }
};

ready.then(
  () => scope.postMessage({ type: 'ready' }),
  (e) => scope.postMessage({ type: 'error', job: null, message: `the Wasm decoder failed to load: ${e}` }),
);
