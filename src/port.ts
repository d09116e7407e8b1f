import { createServer } from 'node:net';

/**
 * Fail at once, with the way out, when `host:port` cannot be listened on (another process holds
 * it): checked before the slow part of start-up (probing providers, connecting to Redis), so
 * nobody waits for a start that cannot end in a server. Listening for real can still fail if
 * another process takes the port in between; {@link listenError} words that failure the same way.
 */
export async function ensurePortFree(host: string, port: number): Promise<void> {
  // Port 0 asks the system for a free port: nothing to check.
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenError(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** An error of listening on `host:port`, with a hint to pass `--port` when the port is taken or not allowed; other errors as they are. */
export function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new Error(`cannot listen on ${host}:${port}: the port is in use by another process; choose another with --port (e.g. --port ${port === 65535 ? 8753 : port + 1}, or --port 0 for any free port)`, { cause: error });
  if (code === 'EACCES') return new Error(`cannot listen on ${host}:${port}: permission denied; choose a port above 1023 with --port`, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}
