/**
 * Decodes a `BlobHeader` (fileformat.proto: `type = 1` string, `indexdata = 2` bytes,
 * `datasize = 3` int32) — the only protobuf the main thread reads, so frames can be cut
 * out of the byte stream without the Wasm module.
 */

/** The fields of a BlobHeader the framer needs. */
export interface BlobHeader {
  type: string;
  /** Size in bytes of the Blob that follows. */
  datasize: number;
}

/** Reads a base-128 varint (protobuf encoding) at `pos`; returns [value, next position]. */
function readVarint(bytes: Uint8Array, pos: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= bytes.length) throw new Error('varint runs past the end');
    const b = bytes[pos++];
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) return [value, pos];
    scale *= 128;
  }
  throw new Error('varint longer than 10 bytes');
}

/**
 * Decodes an encoded BlobHeader message.
 * @throws Error when the message is malformed or lacks `type` or `datasize`.
 */
export function decodeBlobHeader(bytes: Uint8Array): BlobHeader {
  let type: string | null = null;
  let datasize: number | null = null;
  let pos = 0;
  while (pos < bytes.length) {
    const [key, afterKey] = readVarint(bytes, pos);
    pos = afterKey;
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) {
      const [v, next] = readVarint(bytes, pos);
      pos = next;
      // int32 is sign-extended to 64 bits on the wire: anything ≥ 2^31 is negative.
      if (field === 3) datasize = v >= 2 ** 31 ? -1 : v;
    } else if (wire === 2) {
      const [len, next] = readVarint(bytes, pos);
      if (next + len > bytes.length) throw new Error('field runs past the end');
      if (field === 1) type = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(next, next + len));
      pos = next + len;
    } else if (wire === 1 || wire === 5) {
      pos += wire === 1 ? 8 : 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  if (pos > bytes.length) throw new Error('field runs past the end');
  if (type === null || datasize === null) throw new Error('missing the required type or datasize field');
  return { type, datasize };
}
