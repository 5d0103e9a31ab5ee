/// <reference lib="webworker" />
/**
 * The service worker (Workbox, built by vite-plugin-pwa's injectManifest): precaches the app
 * shell, the Wasm decoder, the workers and the bundled sample so the app starts and answers
 * queries offline. The sample is read with Range requests, so those are answered from the
 * precache with a 206 slice. Nothing else is cached: remote PBF ranges are large and partial.
 * A new version waits until the page asks it to take over (the update prompt).
 */
import { clientsClaim } from 'workbox-core';
import { matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { createPartialResponse } from 'workbox-range-requests';
import { registerRoute } from 'workbox-routing';
import { satisfiableRange } from './byte-range';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

const manifest = self.__WB_MANIFEST;
const precachedPbf = new Set(
  manifest.map((e) => new URL(typeof e === 'string' ? e : e.url, self.registration.scope).pathname).filter((p) => p.endsWith('.pbf')),
);

// Range requests for a precached PBF (the sample): a 206 slice of the cached file, or a 416 for
// a range it cannot satisfy (workbox-range-requests answers `bytes=5-1` with a 206).
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && precachedPbf.has(url.pathname) && request.headers.has('range'),
  async ({ request }) => {
    const full = await matchPrecache(new URL(request.url).pathname);
    if (!full) return fetch(request);
    const size = (await full.clone().blob()).size;
    if (!satisfiableRange(request.headers.get('range') ?? '', size)) {
      return new Response(null, { status: 416, statusText: 'Range Not Satisfiable', headers: { 'Content-Range': `bytes */${size}` } });
    }
    return createPartialResponse(request, full);
  },
);

precacheAndRoute(manifest, { ignoreURLParametersMatching: [/.*/] });

self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
