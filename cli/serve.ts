/**
 * `pbf-explorer serve [FILE]`: the built app (`dist/`, beside the command line's bundle) served
 * on 127.0.0.1 with sirv, for the page without a web server of one's own; FILE, when given, is
 * served too (at `/file/NAME`, with Range requests, as any web server would) and the printed
 * address opens it. Only that file of its folder is served.
 */
import { createServer, type Server } from 'node:http';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

/** Where `npm run build` puts the app: `dist/`, a folder up from the command line's `dist-cli/`. */
const APP_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

/** A server started by {@link serveApp}: the page's address, and how to stop it. */
export interface Serving {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the app on `http://127.0.0.1:PORT/` (`port` 0: any free one), and `file` at
 * `/file/NAME` when given.
 * @returns the address that opens the file (or the bundled sample) with a first query.
 * @throws Error when the port is taken or the app is not built.
 */
export async function serveApp(file: string | null, port: number, appDir = APP_DIR): Promise<Serving> {
  const app = sirv(appDir, { etag: true });
  const name = file ? basename(file) : null;
  // dev: the folder is not listed up front (it may hold thousands of files), only FILE is asked for.
  const files = file ? sirv(dirname(file), { dev: true, etag: true }) : null;
  const filePath = name ? `/file/${encodeURIComponent(name)}` : null;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (files && path === filePath) {
      req.url = `/${encodeURIComponent(name!)}`;
      files(req, res, () => notFound(res));
    } else if (path.startsWith('/file/')) notFound(res);
    else app(req, res, () => notFound(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new Error(e.code === 'EADDRINUSE' ? `port ${port} is taken: give another with --port` : e.message)));
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  const query = filePath ? `?src=${filePath}&q=amenity%3Dcafe` : '?src=/sample/helsinki.osm.pbf&q=amenity%3Dcafe&near=60.1699,24.9384&radius=1000';
  return { url: `${origin}/${query}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function notFound(res: import('node:http').ServerResponse): void {
  res.statusCode = 404;
  res.end('not found');
}
