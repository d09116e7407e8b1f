/**
 * The benchmark's S3 server: s3rver (through @jacobian/shared/testing) in its own process, so
 * its work does not share an event loop with the load generator. Configured by environment:
 * BENCH_S3_BUCKET. Prints one JSON line with its endpoint on stdout; answers a `stats` line on
 * stdin with the number of HTTP requests it has served, by method; stops on SIGTERM.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { startS3rver } from '@jacobian/shared/testing';

const bucket = process.env['BENCH_S3_BUCKET'] ?? 'jacobian-bench';
const requests: Record<string, number> = {};
subscribe('http.server.request.start', (message) => {
  const method = (message as { request?: IncomingMessage }).request?.method ?? '?';
  requests[method] = (requests[method] ?? 0) + 1;
});

const s3 = await startS3rver({ buckets: [bucket] });
process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'stats') process.stdout.write(`${JSON.stringify({ requests })}\n`);
});

process.once('SIGTERM', () => {
  void s3.stop().finally(() => process.exit(0));
});
