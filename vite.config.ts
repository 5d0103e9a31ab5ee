import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// `npm start -- some.osm.pbf` sets PBF_FILE so the dev server may read that file's folder.
const here = dirname(fileURLToPath(import.meta.url));
const extraAllowed = process.env.PBF_FILE ? [dirname(process.env.PBF_FILE)] : [];
const FRAME_HEADERS = { 'Content-Security-Policy': "frame-ancestors 'self'", 'X-Frame-Options': 'SAMEORIGIN' };

// The UI lives in web/, the pipeline in workers/, the Wasm package in wasm/pkg/ (built by
// wasm-pack), static files (the sample PBF, icons) in public/.
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  base: './',
  define: {
    // Shown in the page footer; the update test builds two versions that differ only here.
    __BUILD_ID__: JSON.stringify(process.env.PBF_EXPLORER_BUILD_ID ?? new Date().toISOString().slice(0, 16)),
  },
  build: {
    outDir: process.env.PBF_EXPLORER_OUT_DIR ?? '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // maplibre-gl alone is about 1 MB minified.
    chunkSizeWarningLimit: 1600,
    // bench.html is the map-less page `npm run bench` drives.
    rollupOptions: { input: { main: resolve(here, 'web/index.html'), bench: resolve(here, 'web/bench.html') } },
  },
  // PBF_WASM_PKG: another wasm-pack output in wasm/ in place of wasm/pkg (the test-trap build).
  resolve: { alias: process.env.PBF_WASM_PKG ? [{ find: /^(?:\.\.\/)+wasm\/pkg\//, replacement: `${resolve(here, 'wasm', process.env.PBF_WASM_PKG)}/` }] : [] },
  worker: { format: 'es' },
  // No other site may frame the app (its questions could be clickjacked; a <meta> CSP cannot say
  // this): docs/security.md.
  server: { fs: { allow: ['..', ...extraAllowed] }, headers: FRAME_HEADERS },
  preview: { headers: FRAME_HEADERS },
  plugins: [
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{html,js,css,wasm,svg,png,pbf,json}'],
        globIgnores: ['bench.html', 'assets/bench-*'],
        maximumFileSizeToCacheInBytes: 4 << 20,
      },
      manifest: {
        id: './',
        name: 'pbf-explorer',
        short_name: 'pbf-explorer',
        description: 'Query OpenStreetMap .osm.pbf files in the browser: tags near a place, on a map, offline.',
        start_url: './',
        scope: './',
        display: 'standalone',
        theme_color: '#1f6feb',
        background_color: '#fbfbfa',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        file_handlers: [{ action: './', accept: { 'application/x-osm-pbf': ['.pbf'] } }],
      } as Record<string, unknown>,
    }),
  ],
});
