import { dirname } from 'node:path';
import { defineConfig } from 'vite';

// `npm start -- some.osm.pbf` sets PBF_FILE so the dev server may read that file's folder.
const extraAllowed = process.env.PBF_FILE ? [dirname(process.env.PBF_FILE)] : [];

// The UI lives in web/, the pipeline in workers/, the Wasm package in wasm/pkg/ (built by
// wasm-pack), static files (the sample PBF) in public/.
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  base: './',
  // maplibre-gl alone is about 1 MB minified.
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1600,
    // bench.html is the map-less page `npm run bench` drives.
    rollupOptions: { input: { main: 'web/index.html', bench: 'web/bench.html' } },
  },
  worker: { format: 'es' },
  server: { fs: { allow: ['..', ...extraAllowed] } },
});
