/**
 * The bare BullMQ peer's consumer: a plain BullMQ Worker whose processor returns a small object
 * at once. Configured by environment: BENCH_REDIS_URL, BENCH_PREFIX, BENCH_QUEUE,
 * BENCH_CONCURRENCY. Logs a JSON `ready` line on stderr once it takes jobs; closes on SIGTERM.
 */
import { Worker } from 'bullmq';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`bare-worker: ${name} is not set`);
  return value;
}

const worker = new Worker(required('BENCH_QUEUE'), (job) => Promise.resolve({ ok: true, n: (job.data as { i?: number }).i ?? 0 }), {
  connection: { url: required('BENCH_REDIS_URL') },
  prefix: required('BENCH_PREFIX'),
  concurrency: Number(required('BENCH_CONCURRENCY')),
});
worker.on('error', (error) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg: 'worker error', error: error.message })}\n`));
await worker.waitUntilReady();
process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'ready', pid: process.pid })}\n`);

process.once('SIGTERM', () => {
  void worker.close().finally(() => process.exit(0));
});
