import type { Progress } from '../types';

/**
 * A wait for the server shorter than this (ms) is not shown: replies come in well under it.
 * The read is dropped and asked for again at HTTP_STALL_MS (workers/source/http-retry.ts).
 */
export const WAITING_NOTE_MS = 3000;

/** The progress line's note while a read has waited long for the server (page and command line alike), else ''. */
export function waitingNote(p: Progress): string {
  const ms = p.waitingMs ?? 0;
  return ms >= WAITING_NOTE_MS ? ` · waiting for the server: no byte for ${Math.floor(ms / 1000)} s` : '';
}
