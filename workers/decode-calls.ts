/**
 * What a decode worker does, whatever runs it (a Web Worker in the page's query worker, a
 * `worker_threads` worker in the command line): takes the Wasm decoder once it is loaded, then
 * inflates and scans each Blob it is sent, replying with compact binary scans (transferred, not
 * copied).
 */
import { BlobScanner } from '../wasm/pkg/pbf_explorer.js';
import type { DecodeReply, DecodeRequest, DecodeResult, FromDecodeWorker, ToDecodeWorker } from './pool/messages';

/** How a decode worker talks to its pool. */
export interface DecodeWorkerScope {
  post(message: FromDecodeWorker, transfer?: Transferable[]): void;
  /** Ends the worker (after a trap, so that the pool starts a fresh one). */
  close(): void;
}

/** A Uint8Array from Wasm as a buffer of its own (wasm-bindgen copies it out of Wasm memory). */
const own = (bytes: Uint8Array): ArrayBuffer => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer as ArrayBuffer : bytes.slice().buffer);

/**
 * Serves the pool's messages: returns the handler of each message. `ready` resolves with the
 * Wasm instance's memory once the decoder is loaded (rejects when it cannot be); the pool is told
 * either way.
 */
export function serveDecodeCalls(scope: DecodeWorkerScope, ready: Promise<WebAssembly.Memory>): (msg: ToDecodeWorker) => Promise<void> {
  let scanner: BlobScanner | null = null;
  let memory: WebAssembly.Memory | null = null;
  ready.then(
    (m) => {
      memory = m;
      scope.post({ type: 'ready' });
    },
    (e) => scope.post({ type: 'error', job: null, message: `the Wasm decoder failed to load: ${e}` }),
  );

  function answer(req: DecodeRequest): { result: DecodeResult; transfer: Transferable[] } {
    const bytes = req.blob;
    if (!scanner) throw new Error('no query was set before the first blob');
    if (req.call === 'context') {
      const features = scanner.contextWays(bytes);
      return { result: { call: 'context', job: req.job, result: features }, transfer: [features.buffer] };
    }
    const out = own(req.call === 'scan' ? scanner.scan(bytes) : req.ways ? scanner.locateWays(bytes, req.wanted) : scanner.locate(bytes, req.wanted));
    const result: DecodeResult = req.call === 'scan' ? { call: 'scan', job: req.job, result: out } : { call: 'locate', job: req.job, result: out };
    return { result, transfer: [out] };
  }

  /** One call's reply and what it transfers; a trap closes the worker after the replies so far are sent. */
  function reply(req: DecodeRequest): { reply: DecodeReply; transfer: Transferable[]; fatal: boolean } {
    try {
      const { result, transfer } = answer(req);
      // The Blob was copied into Wasm memory: its buffer goes back to the reader for the next one.
      const spent = req.blob.buffer as ArrayBuffer;
      return { reply: { type: 'result', wasmBytes: memory?.buffer.byteLength ?? 0, spent, ...result }, transfer: [...transfer, spent], fatal: false };
    } catch (e) {
      // A trap (a panic, or running out of memory) can leave the Wasm instance inconsistent:
      // report it and close, so the pool starts a fresh worker instead of reusing this one.
      const fatal = e instanceof WebAssembly.RuntimeError;
      const message = e instanceof Error ? e.message : String(e);
      return { reply: { type: 'error', job: req.job, message: fatal ? `the decoder failed (${message})` : message, fatal }, transfer: [], fatal };
    }
  }

  return async (msg) => {
    let loadError: string | null = null;
    await ready.catch((e) => (loadError = `the Wasm decoder failed to load: ${e}`));
    if (loadError !== null) {
      // The pool was told once; each call still gets its answer.
      if (msg.type === 'calls') scope.post({ type: 'replies', replies: msg.requests.map((r) => ({ type: 'error', job: r.job, message: loadError! })) });
      return;
    }
    if (msg.type === 'query') {
      scanner?.free();
      try {
        scanner = new BlobScanner(JSON.stringify(msg.query));
      } catch (e) {
        scanner = null;
        scope.post({ type: 'error', job: null, message: e instanceof Error ? e.message : String(e) });
      }
    } else if (msg.type === 'area-nodes') {
      scanner?.setAreaNodes(msg.on);
    } else if (msg.type === 'area-filter') {
      scanner?.setAreaFilter(msg.words ?? new Uint32Array(0));
    } else if (msg.type === 'context-nodes') {
      scanner?.setContextNodes(msg.nodes);
    } else {
      const replies: DecodeReply[] = [];
      const transfer: Transferable[] = [];
      for (const req of msg.requests) {
        const r = reply(req);
        replies.push(r.reply);
        transfer.push(...r.transfer);
        if (r.fatal) {
          scope.post({ type: 'replies', replies }, transfer);
          scope.close();
          return;
        }
      }
      scope.post({ type: 'replies', replies }, transfer);
    }
  };
}
