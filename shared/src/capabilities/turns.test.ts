import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectionAccepted, inOwnTurn, jsonLongerThanAbout } from './turns.js';

describe('inOwnTurn: large synchronous steps, one per turn of the event loop', () => {
  it('runs steps in the order asked, each in a later turn, with what was queued meanwhile handled between them', async () => {
    const order: string[] = [];
    const first = inOwnTurn(() => {
      order.push('first step');
      // Work that arrives while a step runs (here: an immediate, as an answer to another request would be) comes before the next step.
      setImmediate(() => order.push('other work'));
      return 1;
    });
    const second = inOwnTurn(() => {
      order.push('second step');
      return 2;
    });
    order.push('asked');
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual(['asked', 'first step', 'other work', 'second step']);
  });

  it('rejects with what a step threw, and runs the steps after it', async () => {
    const failing = inOwnTurn(() => {
      throw new RangeError('bad step');
    });
    const next = inOwnTurn(() => 'ran');
    await expect(failing).rejects.toThrow(RangeError);
    expect(await next).toBe('ran');
  });
});

describe('jsonLongerThanAbout', () => {
  it('tells a 300 KB graph from a small payload', () => {
    const edges: number[][] = [];
    for (let i = 0; i < 256; i++) for (let j = i + 1; j < 256; j++) edges.push([i, j]);
    expect(jsonLongerThanAbout({ graph: { order: 256, edges } }, 64 * 1024)).toBe(true);
    expect(jsonLongerThanAbout({ graph: { order: 10, edges: edges.slice(0, 15) } }, 64 * 1024)).toBe(false);
    expect(jsonLongerThanAbout({ dimacs: 'x'.repeat(70 * 1024) }, 64 * 1024)).toBe(true);
  });
});

describe('inOwnTurn: connections waiting to be accepted come before the next step', () => {
  it('runs the next step only after a turn that accepted no connection, so that a burst of connections is accepted first', async () => {
    const clients = 12;
    let acceptedCount = 0;
    const server = createServer((socket) => {
      acceptedCount++;
      socket.destroy();
    });
    // As the HTTP server of mcp-api does.
    server.on('connection', connectionAccepted);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sockets: Socket[] = [];
    try {
      // A large step during which the burst connects: libuv accepts one connection per turn of the
      // loop, so without the rule the next step would run after the first connection only.
      const burst = inOwnTurn(() => {
        for (let i = 0; i < clients; i++) sockets.push(connect(port, '127.0.0.1').on('error', () => undefined));
        // Give the kernel a moment to complete the loopback handshakes (so that all wait in the
        // listen queue) while this thread is busy, as it is during a large step.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      });
      const acceptedBeforeNextStep = inOwnTurn(() => acceptedCount);
      await burst;
      expect(await acceptedBeforeNextStep).toBe(clients);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
