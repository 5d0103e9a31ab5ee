/** The JavaScript peer parser used by the benchmark page (no types of its own). */
declare module 'tiny-osmpbf' {
  export default function tinyosmpbf(data: ArrayBuffer | Uint8Array, handler?: (element: unknown) => void): unknown;
}
