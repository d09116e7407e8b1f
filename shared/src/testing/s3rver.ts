import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A running in-process s3rver: a small S3 emulator for fast tests. */
export interface S3rverInstance {
  /** `http://127.0.0.1:<port>`; address it path-style. */
  endpoint: string;
  /** Any region name works; this is the one to sign with. */
  region: string;
  /** s3rver's fixed test key pair. It does not check SigV4 signatures, so a wrong secret is accepted. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Folder holding the emulator's objects. */
  directory: string;
  /** Stop the server and delete its folder. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Options for {@link startS3rver}. */
export interface StartS3rverOptions {
  /** Buckets to create before the server starts answering. */
  buckets?: string[];
}

/** The part of s3rver's (untyped, CommonJS) API used here. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections?: () => void };
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverServer;

/**
 * Start s3rver inside this process on 127.0.0.1 with an OS-chosen port and a fresh temp folder.
 * Note its limits: it ignores `If-None-Match` (it overwrites) and does not verify signatures.
 */
export async function startS3rver(options: StartS3rverOptions = {}): Promise<S3rverInstance> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'jacobian-s3rver-'));
  // s3rver ships no types; load it through require and describe the few members used.
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name })),
  });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    directory,
    stop() {
      stopped ??= (async () => {
        const closing = server.close();
        // Keep-alive sockets from clients would otherwise hold the server open.
        server.httpServer?.closeAllConnections?.();
        await closing;
        await rm(directory, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
