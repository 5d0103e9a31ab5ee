#!/usr/bin/env node
/**
 * Serves a built app folder for the browser tests and the benchmark with sirv, a well-kept
 * static server with Range support (RFC 7233). Unlike `vite preview` it does not gzip
 * responses: a gzipped 206 makes byte ranges meaningless.
 * `node tests/serve.mjs [DIR=dist] [PORT=4173]`
 */
import { createServer } from 'node:http';
import sirv from 'sirv';

const [dir = 'dist', port = '4173'] = process.argv.slice(2);
const files = sirv(dir, { etag: true, single: false });
createServer((req, res) =>
  files(req, res, () => {
    res.statusCode = 404;
    res.end('not found');
  }),
).listen(Number(port), '127.0.0.1', () => console.log(`serving ${dir} on http://127.0.0.1:${port}`));
