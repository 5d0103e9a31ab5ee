/** A static server for one test, on a free local port (sirv, with Range support). */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/**
 * Serves `handler` (a folder: sirv of it, no caching) on 127.0.0.1 at a port the system picks;
 * resolves with its origin (`http://127.0.0.1:PORT`) and `close`.
 */
export async function startLocalServer(handler: string | RequestListener): Promise<{ origin: string; close: () => void }> {
  const server = createServer(typeof handler === 'string' ? sirv(handler, { dev: true }) : handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
