#!/usr/bin/env node
// The `pbf-explorer` command (package.json "bin"): runs the bundle `npm run build` writes to dist-cli/.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist-cli/main.js', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('pbf-explorer: not built yet: run `npm run build` (or `npm start` / `npm test`) in the repository first\n');
  process.exit(2);
}
await import(bundle.href);
