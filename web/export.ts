/** Saves a file the query worker made (the GeoJSON export) as a download. */

/** Starts a download of `blob` as `name`. */
export function download(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
