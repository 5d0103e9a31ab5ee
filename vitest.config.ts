import { defineConfig } from 'vitest/config';

// Fast unit tests of the pieces with no browser dependency (Node, no DOM): framing of a fake
// source, HTTP helpers, URL state, query text. The Wasm decoder is loaded from wasm/pkg.
export default defineConfig({
  test: { include: ['tests/unit/**/*.test.ts'], environment: 'node' },
});
