import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Start `server` listening on `host:port` (port 0: a free one). Resolves with the port taken
 * and the URL origin to reach it (an IPv6 host in brackets); rejects with the listen error
 * (EADDRINUSE, EACCES, ...) and leaves no listener behind.
 */
export async function listenHttp(server: Server, host: string, port: number): Promise<{ port: number; origin: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { port: address.port, origin: `http://${shownHost}:${address.port}` };
}
