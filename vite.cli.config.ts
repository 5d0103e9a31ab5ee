import { defineConfig } from 'vite';

// The command line: two Node entries bundled for Node ≥ 20 into dist-cli/ — the main
// program and the decode thread it starts once per core. `npm run build:cli` copies the Wasm
// decoder beside them (workers/node-wasm.ts finds it there, in a packed install too).
export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: 'dist-cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: {
      input: { main: 'cli/main.ts', 'decode-thread': 'workers/decode-thread.ts' },
      output: { entryFileNames: '[name].js', chunkFileNames: '[name].js', format: 'es' },
    },
  },
});
