/**
 * The protocol between the query worker's pool and a decode worker: one map from each call to
 * its arguments and its result, so both sides are typed without casts.
 */
import type { Query } from '../types';

/** What a decode worker can be asked to do with one Blob, and what it answers. */
export interface DecodeCalls {
  /** Inflate and scan an `OSMData` Blob: the scan, encoded for `QueryAssembler.addBlob`. */
  scan: { args: { blob: Uint8Array }; result: ArrayBuffer };
  /**
   * The locations of the nodes `wanted` (ascending ids) in an `OSMData` Blob, encoded for
   * `QueryAssembler.addBlob`; with `ways`, the node refs of the ways `wanted`.
   */
  locate: { args: { blob: Uint8Array; wanted: Float64Array; ways: boolean }; result: ArrayBuffer };
  /** The basemap features of an `OSMData` Blob, drawn from the nodes of `context-nodes` (`BlobScanner.contextWays`). */
  context: { args: { blob: Uint8Array }; result: Int32Array };
}

export type DecodeCall = keyof DecodeCalls;

/** A call as sent: its name, a job number, and its arguments. */
export type DecodeRequest = { [K in DecodeCall]: { call: K; job: number } & DecodeCalls[K]['args'] }[DecodeCall];

/** A call's answer: its name, its job number, and its result. */
export type DecodeResult = { [K in DecodeCall]: { call: K; job: number; result: DecodeCalls[K]['result'] } }[DecodeCall];

/** Messages from the pool to a decode worker. */
export type ToDecodeWorker =
  /** The query applied to the blobs that follow (`null`: only count elements). */
  | { type: 'query'; query: Query | null }
  /** Whether scans report the locations of the nodes in the area. */
  | { type: 'area-nodes'; on: boolean }
  /** The area filter scans apply (`QueryAssembler.scanAreaFilter`), or none. */
  | { type: 'area-filter'; words: Uint32Array | null }
  /** The area's node locations basemap ways are drawn from: `[ids…, lats_e7…, lons_e7…]`. */
  | { type: 'context-nodes'; nodes: Float64Array }
  /** Calls answered in order with one `replies` message (a few Blobs a message: see the pool). */
  | { type: 'calls'; requests: DecodeRequest[] };

/** A decode worker's answer to one call. */
export type DecodeReply =
  /**
   * `wasmBytes`: the worker's Wasm linear memory size, which only grows; `spent`: the Blob's
   * buffer, handed back to be used again.
   */
  | ({ type: 'result'; wasmBytes: number; spent: ArrayBuffer } & DecodeResult)
  /** `fatal`: the Wasm instance trapped and the worker is closing; the pool replaces it. */
  | { type: 'error'; job: number; message: string; fatal?: boolean };

/** Messages from a decode worker to the pool. */
export type FromDecodeWorker =
  | { type: 'ready' }
  /** The answers to one `calls` message, in its order (fewer when the worker is closing). */
  | { type: 'replies'; replies: DecodeReply[] }
  /** A failure of no call: a bad query, or the Wasm decoder not loading. */
  | { type: 'error'; job: null; message: string };
