/**
 * Frees a buffer's memory now rather than at the next garbage collection, by detaching it
 * (`ArrayBuffer.prototype.transfer`, ES2024). Reading a file makes one buffer per chunk, and
 * without this the heap grows with the file until V8 gets round to collecting them.
 */
export function release(buffer: ArrayBufferLike): void {
  (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
