import { defineConfig } from '@playwright/test';

// Debian's Chromium, headless; SwiftShader gives WebGL2 (which MapLibre needs) without a GPU.
// The background-networking flags stop Chromium calling home on a machine with no internet.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

const PORT = Number(process.env.PBF_EXPLORER_TEST_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // The app itself uses every core (one decode worker each), so tests run one at a time.
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results/playwright',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  // The built app (dist/), served by sirv: Range support, no compression (tests/serve.mjs).
  webServer: {
    command: `node tests/serve.mjs dist ${PORT}`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
