import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer } from 'node:net';

import {
  CreateBucketCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

import type { JsonValue } from '../canonical-json.js';
import { JacobianError } from '../errors.js';
import { startCephRgw } from '../testing/ceph-rgw.js';
import { startS3rver } from '../testing/s3rver.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';
import { createS3ArtifactStore, verifyS3Access, type S3ArtifactStoreOptions } from './s3-store.js';
import { describeArtifactStoreContract, type ArtifactStoreHarness } from './store-contract.js';
import { prepareArtifact, type ArtifactStore, type ArtifactStoreLimits } from './store.js';

const MIB = 1024 * 1024;

/** Where an S3 server listens and how to sign for it. */
interface S3Server {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** What a server does, as observed on this machine. */
interface ServerTraits {
  /** Answers 412 to `If-None-Match: *` on an existing key (RGW yes, s3rver no). */
  enforcesIfNoneMatch: boolean;
  /** Rejects a request signed with the wrong secret key (RGW yes, s3rver no). */
  verifiesSignatures: boolean;
  /** Implements ListMultipartUploads (RGW yes, s3rver no: NotImplemented). */
  listsMultipartUploads: boolean;
}

/** One recorded S3 command sent through a client. */
interface SentCommand {
  command: string;
  input: Record<string, unknown>;
  status?: number;
  error?: string;
}

function makeClient(server: S3Server, credentials?: { accessKeyId: string; secretAccessKey: string }): S3Client {
  return new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: credentials ?? { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Record every command `client` sends (once per `send`, before retries) and its outcome;
 * `onSend` runs just before a command goes out.
 */
function recordCommands(client: S3Client, onSend?: (command: string, input: Record<string, unknown>) => void): SentCommand[] {
  const sent: SentCommand[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const entry: SentCommand = { command: context.commandName ?? 'unknown', input: args.input as Record<string, unknown> };
      sent.push(entry);
      onSend?.(entry.command, entry.input);
      try {
        const result = await next(args);
        const metadata = (result.output as { $metadata?: { httpStatusCode?: number } }).$metadata;
        if (metadata?.httpStatusCode !== undefined) entry.status = metadata.httpStatusCode;
        return result;
      } catch (error) {
        const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        entry.error = failure.name ?? 'Error';
        if (failure.$metadata?.httpStatusCode !== undefined) entry.status = failure.$metadata.httpStatusCode;
        throw error;
      }
    },
    { step: 'initialize', name: 'jacobianTestRecorder' },
  );
  return sent;
}

function uniqueName(label: string): string {
  return `jcb-${label}-${randomBytes(5).toString('hex')}`;
}

async function createBucket(admin: S3Client, label: string): Promise<string> {
  const bucket = uniqueName(label);
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
}

async function readObject(admin: S3Client, bucket: string, key: string): Promise<Uint8Array> {
  const response = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (response.Body === undefined) throw new Error(`no body for ${key}`);
  return response.Body.transformToByteArray();
}

/** Keys of an artifact's manifest and payload under `prefix`. */
async function artifactKeys(admin: S3Client, bucket: string, prefix: string, uri: string): Promise<{ manifest: string; payload: string }> {
  const hex = parseArtifactUri(uri).digest;
  const manifest = `${prefix}manifests/sha256/${hex.slice(0, 2)}/${hex}`;
  const text = Buffer.from(await readObject(admin, bucket, manifest)).toString('utf8');
  const payloadHex = (JSON.parse(text) as { payload_digest: string }).payload_digest.slice('sha256:'.length);
  return { manifest, payload: `${prefix}blobs/sha256/${payloadHex.slice(0, 2)}/${payloadHex}` };
}

/** Flip the first byte of an object through the S3 API, keeping its size. */
async function corruptObject(admin: S3Client, bucket: string, key: string): Promise<void> {
  const bytes = Buffer.from(await readObject(admin, bucket, key));
  bytes[0] = bytes[0]! ^ 0x01;
  await admin.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentLength: bytes.byteLength }));
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function rejection(promise: Promise<unknown>): Promise<JacobianError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected a rejection');
}

function draft(payload: JsonValue, summary: Record<string, JsonValue> = {}): ArtifactDraft {
  return {
    schema_uri: 'https://jacobian.dev/schemas/s3-test/v1',
    semantics_uri: 'https://jacobian.dev/semantics/s3-test',
    payload,
    summary,
  };
}

/** A harness factory for the shared contract: every store gets its own bucket and prefix. */
function contractHarness(
  server: () => S3Server,
  admin: () => S3Client,
  label: string,
  limits?: Partial<ArtifactStoreLimits>,
): () => Promise<ArtifactStoreHarness> {
  return async () => {
    const bucket = await createBucket(admin(), label);
    const prefix = 'artifacts/';
    const { endpoint, region, accessKeyId, secretAccessKey } = server();
    const store = createS3ArtifactStore({
      endpoint,
      region,
      bucket,
      prefix,
      credentials: { accessKeyId, secretAccessKey },
      ...(limits === undefined ? {} : { limits }),
    });
    return {
      store,
      async corrupt(uri, part) {
        const keys = await artifactKeys(admin(), bucket, prefix, uri);
        await corruptObject(admin(), bucket, part === 'manifest' ? keys.manifest : keys.payload);
      },
      async [Symbol.asyncDispose]() {
        await store.close();
      },
    };
  };
}

/** Adapter-specific behaviour, run against each server. */
function describeAdapterTests(server: () => S3Server, admin: () => S3Client, traits: ServerTraits): void {
  interface RecordedStore {
    store: ArtifactStore;
    sent: SentCommand[];
    bucket: string;
    prefix: string;
  }

  /** Run `fn` with a store on a fresh bucket whose (injected) client records every command. */
  async function withRecordedStore(
    overrides: Partial<S3ArtifactStoreOptions>,
    onSend: ((command: string, input: Record<string, unknown>) => void) | undefined,
    fn: (ctx: RecordedStore) => Promise<void>,
  ): Promise<void> {
    const bucket = await createBucket(admin(), 'adapter');
    const prefix = 'p/';
    const client = makeClient(server());
    const sent = recordCommands(client, onSend);
    const store = createS3ArtifactStore({ region: server().region, bucket, prefix, client, ...overrides });
    try {
      await fn({ store, sent, bucket, prefix });
    } finally {
      await store.close();
      client.destroy();
    }
  }

  /** No multipart upload was left open (where the server can list them). */
  async function expectNoPendingUploads(bucket: string): Promise<void> {
    if (!traits.listsMultipartUploads) return;
    const uploads = await admin().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect(uploads.Uploads ?? []).toEqual([]);
  }

  function options(overrides: Partial<S3ArtifactStoreOptions> = {}): S3ArtifactStoreOptions {
    const { endpoint, region, accessKeyId, secretAccessKey } = server();
    return { endpoint, region, bucket: 'unused', credentials: { accessKeyId, secretAccessKey }, ...overrides };
  }

  test(`conditional create ${traits.enforcesIfNoneMatch ? 'answers 412' : 'is ignored'} on an existing key, and a repeated put is idempotent`, () =>
    withRecordedStore({}, undefined, async (ctx) => {
      const key = 'probe/conditional';
      await admin().send(new PutObjectCommand({ Bucket: ctx.bucket, Key: key, Body: 'first', IfNoneMatch: '*' }));
      const second = admin().send(new PutObjectCommand({ Bucket: ctx.bucket, Key: key, Body: 'second', IfNoneMatch: '*' }));
      if (traits.enforcesIfNoneMatch) {
        await expect(second).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
        expect(Buffer.from(await readObject(admin(), ctx.bucket, key)).toString()).toBe('first');
      } else {
        await second;
        expect(Buffer.from(await readObject(admin(), ctx.bucket, key)).toString()).toBe('second');
      }

      const first = await ctx.store.put(draft({ n: 1 }));
      ctx.sent.length = 0;
      expect(await ctx.store.put(draft({ n: 1 }))).toEqual(first);
      const puts = ctx.sent.filter((entry) => entry.command === 'PutObjectCommand');
      // Both objects are attempted conditionally only; nothing is rewritten.
      expect(puts).toHaveLength(2);
      for (const entry of puts) expect(entry.input['IfNoneMatch']).toBe('*');
      if (traits.enforcesIfNoneMatch) {
        expect(puts.map((entry) => entry.status)).toEqual([412, 412]);
        // Each 412 was checked by reading the object back.
        expect(ctx.sent.filter((entry) => entry.command === 'GetObjectCommand')).toHaveLength(2);
      }
      expect((await ctx.store.get(first.uri)).payload).toEqual({ n: 1 });
    }));

  test('put repairs a corrupted payload and a corrupted manifest', () =>
    withRecordedStore({}, undefined, async (ctx) => {
      const stored = await ctx.store.put(draft({ repaired: true }));
      const keys = await artifactKeys(admin(), ctx.bucket, ctx.prefix, stored.uri);

      await corruptObject(admin(), ctx.bucket, keys.payload);
      expect((await rejection(ctx.store.get(stored.uri))).code).toBe('ARTIFACT_INTEGRITY');
      ctx.sent.length = 0;
      expect(await ctx.store.put(draft({ repaired: true }))).toEqual(stored);
      if (traits.enforcesIfNoneMatch) {
        const rewrites = ctx.sent.filter((entry) => entry.command === 'PutObjectCommand' && entry.input['IfNoneMatch'] === undefined);
        expect(rewrites.map((entry) => entry.input['Key'])).toEqual([keys.payload]);
      }
      expect((await ctx.store.get(stored.uri)).payload).toEqual({ repaired: true });

      await corruptObject(admin(), ctx.bucket, keys.manifest);
      expect((await rejection(ctx.store.getManifest(stored.uri))).code).toBe('ARTIFACT_INTEGRITY');
      await ctx.store.put(draft({ repaired: true }));
      expect(await ctx.store.getManifest(stored.uri)).toEqual(stored);
    }));

  test('stored objects longer than allowed are rejected as ARTIFACT_INTEGRITY', () =>
    withRecordedStore({ limits: { maxPayloadBytes: 4096, maxManifestBytes: 2048 } }, undefined, async (ctx) => {
      const stored = await ctx.store.put(draft({ small: true }));
      const keys = await artifactKeys(admin(), ctx.bucket, ctx.prefix, stored.uri);
      const overwrite = async (key: string, size: number): Promise<void> => {
        const body = Buffer.alloc(size, 0x20);
        await admin().send(new PutObjectCommand({ Bucket: ctx.bucket, Key: key, Body: body, ContentLength: size }));
      };

      await overwrite(keys.payload, 64 * 1024);
      const payloadError = await rejection(ctx.store.get(stored.uri));
      expect(payloadError.code).toBe('ARTIFACT_INTEGRITY');
      expect(payloadError.message).toMatch(/payload .* is over \d+ bytes/);

      await overwrite(keys.manifest, 64 * 1024);
      const manifestError = await rejection(ctx.store.getManifest(stored.uri));
      expect(manifestError.code).toBe('ARTIFACT_INTEGRITY');
      expect(manifestError.message).toMatch(/maxManifestBytes/);
    }));

  test('payloads above the multipart threshold are uploaded in parts, once', () =>
    withRecordedStore({ multipartThresholdBytes: 5 * MIB, partSizeBytes: 5 * MIB }, undefined, async (ctx) => {
      const payload = 'm'.repeat(6 * MIB);
      const stored = await ctx.store.put(draft(payload));
      const commands = ctx.sent.map((entry) => entry.command);
      expect(commands).toContain('CreateMultipartUploadCommand');
      const parts = ctx.sent.filter((entry) => entry.command === 'UploadPartCommand');
      expect(parts.map((entry) => entry.input['PartNumber'])).toEqual([1, 2]);
      expect(commands.filter((command) => command === 'CompleteMultipartUploadCommand')).toHaveLength(1);
      // The small manifest still goes up in one conditional PutObject.
      expect(ctx.sent.filter((entry) => entry.command === 'PutObjectCommand')).toHaveLength(1);
      expect((await ctx.store.get(stored.uri)).payload).toBe(payload);

      // A second put finds the correct copy and uploads nothing.
      ctx.sent.length = 0;
      await ctx.store.put(draft(payload));
      expect(ctx.sent.map((entry) => entry.command)).not.toContain('CreateMultipartUploadCommand');

      // A corrupted large payload is replaced by a fresh multipart upload.
      const keys = await artifactKeys(admin(), ctx.bucket, ctx.prefix, stored.uri);
      await corruptObject(admin(), ctx.bucket, keys.payload);
      ctx.sent.length = 0;
      await ctx.store.put(draft(payload));
      expect(ctx.sent.map((entry) => entry.command)).toContain('CompleteMultipartUploadCommand');
      expect((await ctx.store.get(stored.uri)).payload).toBe(payload);
      await expectNoPendingUploads(ctx.bucket);
    }));

  test('an abort during a multipart upload cancels it and leaves no parts or objects behind', async () => {
    const controller = new AbortController();
    const abortOnUpload = (command: string): void => {
      if (command === 'UploadPartCommand') controller.abort(new Error('caller gave up'));
    };
    await withRecordedStore({ multipartThresholdBytes: 5 * MIB, partSizeBytes: 5 * MIB }, abortOnUpload, async (ctx) => {
      const input = draft('a'.repeat(6 * MIB));
      const error = await rejection(ctx.store.put(input, { signal: controller.signal }));
      expect(error.code).toBe('EXECUTION_CANCELLED');
      expect(ctx.sent.map((entry) => entry.command)).toContain('AbortMultipartUploadCommand');
      expect(await ctx.store.has(prepareArtifact(input, ctx.store.limits).uri)).toBe(false);
      await expectNoPendingUploads(ctx.bucket);
    });
  });

  test('an abort while the payload is being read stops get with EXECUTION_CANCELLED', async () => {
    const controller = new AbortController();
    // Abort once the manifest has been read, as the payload's GetObject goes out.
    const abortOnBlobRead = (command: string, input: Record<string, unknown>): void => {
      if (command === 'GetObjectCommand' && String(input['Key']).includes('/blobs/')) controller.abort(new Error('caller gave up'));
    };
    await withRecordedStore({}, abortOnBlobRead, async (ctx) => {
      const stored = await ctx.store.put(draft({ read: 'me' }));
      expect(controller.signal.aborted).toBe(false);
      const error = await rejection(ctx.store.get(stored.uri, { signal: controller.signal }));
      expect(error.code).toBe('EXECUTION_CANCELLED');
      expect(controller.signal.aborted).toBe(true);
    });
  });

  test('a missing bucket is reported clearly, never as a missing artifact', async () => {
    const bucket = uniqueName('missing');
    const store = createS3ArtifactStore(options({ bucket }));
    try {
      const missingUri = `artifact://sha256/${'1'.repeat(64)}`;
      for (const call of [() => store.put(draft(1)), () => store.get(missingUri), () => store.has(missingUri)]) {
        const error = await rejection(call());
        expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
        expect(error.retryable).toBe(true);
        expect(error.message).toContain('NoSuchBucket');
        expect(error.message).toContain(bucket);
        expect(error.message).toContain(server().endpoint);
      }
    } finally {
      await store.close();
    }
    const error = await rejection(verifyS3Access(options({ bucket })));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toEqual(['bucket']);
    expect(error.message).toMatch(/NoSuchBucket.*does not exist/);
  });

  test('an unknown access key is reported as a credential problem without leaking the secret', async () => {
    const bucket = await createBucket(admin(), 'creds');
    const secret = 'not-the-secret-0123456789';
    const credentials = { accessKeyId: 'JCBUNKNOWNKEY0001', secretAccessKey: secret };
    const store = createS3ArtifactStore(options({ bucket, credentials }));
    try {
      const error = await rejection(store.get(`artifact://sha256/${'2'.repeat(64)}`));
      expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
      expect(error.message).toContain('InvalidAccessKeyId');
      expect(error.message).toContain(server().endpoint);
      expect(error.message).toContain(bucket);
      expect(JSON.stringify(error.toJSON())).not.toContain(secret);
      expect(JSON.stringify(error.toJSON())).not.toContain(credentials.accessKeyId);
    } finally {
      await store.close();
    }
    const error = await rejection(verifyS3Access(options({ bucket, credentials })));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toEqual(['credentials']);
    expect(error.message).toContain('InvalidAccessKeyId');
    expect(error.message).not.toContain(secret);
  });

  test.skipIf(!traits.verifiesSignatures)('a wrong secret key is reported as SignatureDoesNotMatch', async () => {
    const bucket = await createBucket(admin(), 'sig');
    const secret = 'wrong-secret-abcdefghijklmnop';
    const credentials = { accessKeyId: server().accessKeyId, secretAccessKey: secret };
    const store = createS3ArtifactStore(options({ bucket, credentials }));
    try {
      const error = await rejection(store.put(draft('x')));
      expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
      expect(error.message).toContain('SignatureDoesNotMatch');
      expect(JSON.stringify(error.toJSON())).not.toContain(secret);
    } finally {
      await store.close();
    }
    const error = await rejection(verifyS3Access(options({ bucket, credentials })));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toEqual(['credentials']);
    expect(error.message).toContain('SignatureDoesNotMatch');
  });

  test('a records-area store writes under records/, and stores of either area read both areas', async () => {
    const bucket = await createBucket(admin(), 'areas');
    const prefix = 'p/';
    const main = createS3ArtifactStore(options({ bucket, prefix }));
    const records = createS3ArtifactStore(options({ bucket, prefix, area: 'records' }));
    try {
      const input = await main.put(draft({ graph: [1, 2, 3] }));
      // The record's parent is read from the main area before anything is written.
      const record = await records.put({ ...draft({ verdict: 'ACCEPTED' }), parents: [input.uri] });
      const recordKeys = await artifactKeys(admin(), bucket, `${prefix}records/`, record.uri);
      const inputKeys = await artifactKeys(admin(), bucket, prefix, input.uri);
      for (const key of [recordKeys.manifest, recordKeys.payload, inputKeys.manifest, inputKeys.payload]) {
        expect((await readObject(admin(), bucket, key)).byteLength).toBeGreaterThan(0);
      }
      // Nothing of the record is in the main area.
      await expect(readObject(admin(), bucket, `${prefix}${recordKeys.manifest.slice(`${prefix}records/`.length)}`)).rejects.toThrow();
      expect((await main.get(record.uri)).payload).toEqual({ verdict: 'ACCEPTED' });
      expect((await main.getManifest(record.uri)).manifest.parents).toEqual([input.uri]);
      expect(await main.has(record.uri)).toBe(true);
      expect((await records.get(input.uri)).payload).toEqual({ graph: [1, 2, 3] });
      expect(await records.has(input.uri)).toBe(true);
      // A record changed in the bucket is an integrity error for every reader, not a wrong answer.
      await corruptObject(admin(), bucket, recordKeys.payload);
      expect((await rejection(main.get(record.uri))).code).toBe('ARTIFACT_INTEGRITY');
      // An artifact in neither area is missing from both.
      const absent = `artifact://sha256/${'0'.repeat(64)}`;
      expect(await main.has(absent)).toBe(false);
      expect((await rejection(records.get(absent))).code).toBe('ARTIFACT_NOT_FOUND');
    } finally {
      await main.close();
      await records.close();
    }
  });

  test('an unknown area is a configuration error naming the option', () => {
    expect(() => createS3ArtifactStore(options({ bucket: 'b', area: 'elsewhere' as never }))).toThrow(/option area must be "main" or "records"/);
  });

  test('verifyS3Access accepts a reachable bucket with valid credentials', async () => {
    const bucket = await createBucket(admin(), 'ok');
    await expect(verifyS3Access(options({ bucket, prefix: 'x/' }))).resolves.toBeUndefined();
  });
}

describe('S3 artifact store on Ceph RGW', () => {
  let rgw: Awaited<ReturnType<typeof startCephRgw>> | undefined;
  let admin: S3Client | undefined;
  const server = (): S3Server => rgw ?? expect.unreachable('Ceph RGW did not start');
  const adminClient = (): S3Client => admin ?? expect.unreachable('Ceph RGW did not start');

  beforeAll(async () => {
    rgw = await startCephRgw();
    admin = makeClient(rgw);
  }, 180_000);

  afterAll(async () => {
    admin?.destroy();
    await rgw?.stop();
  }, 60_000);

  describeArtifactStoreContract('S3 on Ceph RGW', contractHarness(server, adminClient, 'contract'));
  describeAdapterTests(server, adminClient, { enforcesIfNoneMatch: true, verifiesSignatures: true, listsMultipartUploads: true });
});

describe('S3 artifact store on s3rver', () => {
  let s3rver: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let admin: S3Client | undefined;
  const server = (): S3Server => s3rver ?? expect.unreachable('s3rver did not start');
  const adminClient = (): S3Client => admin ?? expect.unreachable('s3rver did not start');

  beforeAll(async () => {
    s3rver = await startS3rver();
    admin = makeClient(s3rver);
  });

  afterAll(async () => {
    admin?.destroy();
    await s3rver?.stop();
  });

  // s3rver rewrites files in place, so only servers with atomic object replacement run the
  // concurrent-put check (Ceph RGW above does).
  describeArtifactStoreContract('S3 on s3rver', contractHarness(server, adminClient, 'contract'), { atomicConcurrentWrites: false });
  describeArtifactStoreContract(
    'S3 on s3rver (small limits)',
    contractHarness(server, adminClient, 'small', { maxPayloadBytes: 1024, maxManifestBytes: 2048 }),
    { atomicConcurrentWrites: false },
  );
  describeAdapterTests(server, adminClient, { enforcesIfNoneMatch: false, verifiesSignatures: false, listsMultipartUploads: false });
});

describe('S3 artifact store without a server', () => {
  test('an unreachable endpoint is reported with the endpoint and the network error', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const options = { endpoint, region: 'us-east-1', bucket: 'artifacts', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK-secret' } };
    const store = createS3ArtifactStore(options);
    try {
      const error = await rejection(store.get(`artifact://sha256/${'3'.repeat(64)}`));
      expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(endpoint);
      expect(error.message).toContain('ECONNREFUSED');
      expect(error.message).toContain('artifacts');
    } finally {
      await store.close();
    }
    const error = await rejection(verifyS3Access(options));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toEqual(['endpoint']);
    expect(error.message).toMatch(/ECONNREFUSED.*nothing accepts connections/);
  });

  /** A fake S3 endpoint: `answer` decides each request; every request's method, URL and headers are kept. */
  async function fakeS3(answer: (method: string, url: string) => number | 'hang'): Promise<{
    endpoint: string;
    seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
    closedSockets: () => number;
    server: Server;
  }> {
    const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
    let closed = 0;
    const server = createHttpServer((request, response) => {
      const method = request.method ?? '?';
      const url = request.url ?? '';
      seen.push({ method, url, headers: request.headers });
      request.resume();
      request.on('end', () => {
        const status = answer(method, url);
        if (status === 'hang') return;
        response.writeHead(status, { 'content-length': '0' }).end();
      });
    });
    server.on('connection', (socket) => socket.on('close', () => (closed += 1)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return { endpoint: `http://127.0.0.1:${address.port}`, seen, closedSockets: () => closed, server };
  }

  async function stopServer(server: Server): Promise<void> {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  test('an abort while a PUT is in flight cancels the put at once and drops the request', async () => {
    const fake = await fakeS3((method) => (method === 'PUT' ? 'hang' : 200));
    const store = createS3ArtifactStore({ endpoint: fake.endpoint, region: 'us-east-1', bucket: 'b', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } });
    try {
      const controller = new AbortController();
      const putting = rejection(store.put(draft({ hang: true }), { signal: controller.signal }));
      await vi.waitFor(() => expect(fake.seen.filter((request) => request.method === 'PUT')).toHaveLength(1));
      controller.abort(new Error('caller gave up'));
      const error = await putting;
      expect(error.code).toBe('EXECUTION_CANCELLED');
      expect(error.path).toEqual(['options', 'signal']);
      expect(error.message).toContain('/blobs/');
      // The hanging request's connection is closed by the client, not left to its idle timeout.
      await vi.waitFor(() => expect(fake.closedSockets()).toBeGreaterThanOrEqual(1));
      // Nothing after the payload was attempted: the manifest never follows a cancelled payload.
      expect(fake.seen.filter((request) => request.method === 'PUT')).toHaveLength(1);
    } finally {
      await store.close();
      await stopServer(fake.server);
    }
  });

  test.each<[string, Partial<S3ArtifactStoreOptions>, string]>([
    ['an empty bucket', { bucket: '' }, 'bucket'],
    ['an empty region', { region: '' }, 'region'],
    ['a non-URL endpoint', { endpoint: 'not a url' }, 'endpoint'],
    ['credentials in the endpoint URL', { endpoint: 'http://ak:sk@127.0.0.1:1' }, 'endpoint'],
    ['a prefix starting with /', { prefix: '/x/' }, 'prefix'],
    ['a part size under 5 MiB', { partSizeBytes: MIB }, 'partSizeBytes'],
    ['a zero multipart threshold', { multipartThresholdBytes: 0 }, 'multipartThresholdBytes'],
    ['an empty secret', { credentials: { accessKeyId: 'a', secretAccessKey: '' } }, 'credentials'],
  ])('rejects options with %s as CONFIG_INVALID', (_label, overrides, field) => {
    const base: S3ArtifactStoreOptions = { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', bucket: 'b', ...overrides };
    let caught: unknown;
    try {
      createS3ArtifactStore(base);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JacobianError);
    expect((caught as JacobianError).code).toBe('CONFIG_INVALID');
    expect((caught as JacobianError).path?.[0]).toBe(field);
  });

  test('close() makes later calls fail as ARTIFACT_STORE_UNAVAILABLE', async () => {
    const store = createS3ArtifactStore({ endpoint: 'http://127.0.0.1:1', region: 'us-east-1', bucket: 'b' });
    await store.close();
    expect((await rejection(store.get(`artifact://sha256/${'4'.repeat(64)}`))).code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    expect((await rejection(store.put(draft(1)))).code).toBe('ARTIFACT_STORE_UNAVAILABLE');
  });
});
