/**
 * A decode worker (one per core, started by the query worker's pool): instantiates the Wasm
 * decoder once, then inflates and scans each Blob it is sent, replying with compact binary
 * scans (transferred, not copied).
 */
import init, { BlobScanner, readHeader } from '../wasm/pkg/pbf_explorer.js';
import wasmUrl from '../wasm/pkg/pbf_explorer_bg.wasm?url';
import type { DecodeRequest, DecodeResult, FromDecodeWorker, ToDecodeWorker } from './pool/messages';

interface WorkerScope {
  postMessage(message: FromDecodeWorker, transfer?: Transferable[]): void;
  close(): void;
  onmessage: ((event: MessageEvent<ToDecodeWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

const ready = init({ module_or_path: wasmUrl });
let scanner: BlobScanner | null = null;
let memory: WebAssembly.Memory | null = null;
ready.then((exports) => (memory = exports.memory), () => {});

/** A Uint8Array from Wasm as a buffer of its own (wasm-bindgen copies it out of Wasm memory). */
const own = (bytes: Uint8Array): ArrayBuffer => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer as ArrayBuffer : bytes.slice().buffer);

function answer(req: DecodeRequest): { result: DecodeResult; transfer: Transferable[] } {
  const bytes = req.blob;
  if (req.call === 'header') return { result: { call: 'header', job: req.job, result: JSON.parse(readHeader(bytes)) }, transfer: [] };
  if (!scanner) throw new Error('no query was set before the first blob');
  if (req.call === 'context') {
    const features = scanner.contextWays(bytes);
    return { result: { call: 'context', job: req.job, result: features }, transfer: [features.buffer] };
  }
  const out = own(req.call === 'scan' ? scanner.scan(bytes) : req.ways ? scanner.locateWays(bytes, req.wanted) : scanner.locate(bytes, req.wanted));
  const result: DecodeResult = req.call === 'scan' ? { call: 'scan', job: req.job, result: out } : { call: 'locate', job: req.job, result: out };
  return { result, transfer: [out] };
}

scope.onmessage = async (event) => {
  const msg = event.data;
  const job = msg.type === 'call' ? msg.job : null;
  try {
    await ready;
    if (msg.type === 'query') {
      scanner?.free();
      scanner = new BlobScanner(JSON.stringify(msg.query));
    } else if (msg.type === 'area-nodes') {
      scanner?.setAreaNodes(msg.on);
    } else if (msg.type === 'context-nodes') {
      scanner?.setContextNodes(msg.nodes);
    } else {
      const { result, transfer } = answer(msg);
      // The Blob was copied into Wasm memory: its buffer goes back to the reader for the next one.
      const spent = msg.blob.buffer as ArrayBuffer;
      scope.postMessage({ type: 'result', wasmBytes: memory?.buffer.byteLength ?? 0, spent, ...result }, [...transfer, spent]);
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
