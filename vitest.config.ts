import { defineConfig } from 'vitest/config';

// Unit specs beside the modules they test (Node, no DOM), and the integration tests that start
// servers or the command line (tests/integration/). The Wasm decoder is loaded from wasm/pkg.
export default defineConfig({
  test: { include: ['cli/**/*.test.ts', 'web/**/*.test.ts', 'workers/**/*.test.ts', 'tests/integration/**/*.test.ts'], environment: 'node' },
});
