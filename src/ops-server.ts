import { createServer } from 'node:http';
import { answerOps, listenHttp, type OpsEndpoints } from '@jacobian/shared';

export interface RunningOpsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The operations server of a role: GET /healthz, /readyz and /metrics on their own port, with
 * no authentication (they reveal no payloads, keys or tokens), so that probes and scrapes
 * reach them even while the role is starting or its main port is busy.
 */
export async function startOpsServer(options: { host: string; port: number; ops: OpsEndpoints; onError?: (error: Error) => void }): Promise<RunningOpsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    answerOps(options.ops, path).then(
      (answer) => {
        const { status, contentType, body } = answer ?? { status: 404, contentType: 'text/plain', body: 'not found\n' };
        response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
        response.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
      },
    );
  });
  const { origin } = await listenHttp(server, options.host, options.port);
  let closing: Promise<void> | undefined;
  return {
    url: origin,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
