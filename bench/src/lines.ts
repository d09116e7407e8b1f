import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** JSON lines from a child's stdout, read one at a time. */
export class JsonLineReader {
  private readonly buffered: unknown[] = [];
  private readonly waiting: ((value: unknown) => void)[] = [];
  private ended = false;

  constructor(stream: Readable, private readonly name: string) {
    const lines = createInterface({ input: stream });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      const waiter = this.waiting.shift();
      if (waiter !== undefined) waiter(value);
      else this.buffered.push(value);
    });
    lines.on('close', () => {
      this.ended = true;
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    });
  }

  /** The next JSON line, or undefined once the stream has ended. */
  next(timeoutMs = 120_000): Promise<unknown> {
    const value = this.buffered.shift();
    if (value !== undefined) return Promise.resolve(value);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(onValue);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new Error(`${this.name}: no output within ${timeoutMs} ms`));
      }, timeoutMs);
      const onValue = (v: unknown): void => {
        clearTimeout(timer);
        resolve(v);
      };
      this.waiting.push(onValue);
    });
  }
}
