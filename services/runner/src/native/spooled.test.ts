import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NativeLauncher, type LaunchRequest } from './launcher.js';
import { runSpooled, SpoolSupply } from './spooled.js';

const SH = '/bin/sh';

describe('spool files (spooled.ts)', () => {
  let dir: string;
  let savedTmpdir: string | undefined;
  let launched: LaunchRequest[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jacobian-spooled-'));
    await mkdir(join(dir, 'tmp'));
    // os.tmpdir() reads TMPDIR on each call: the spool files of these tests go to dir/tmp.
    savedTmpdir = process.env['TMPDIR'];
    process.env['TMPDIR'] = join(dir, 'tmp');
    launched = [];
    const original = Object.getOwnPropertyDescriptor(NativeLauncher.prototype, 'launch')?.value as (this: NativeLauncher, request: LaunchRequest) => ReturnType<NativeLauncher['launch']>;
    vi.spyOn(NativeLauncher.prototype, 'launch').mockImplementation(function (this: NativeLauncher, request: LaunchRequest) {
      launched.push(request);
      return original.call(this, request);
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    if (savedTmpdir === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmpdir;
    await rm(dir, { recursive: true, force: true });
  });

  /** Run `script` with sh through runSpooled and `spools`; its stdout as text. */
  async function run(spools: SpoolSupply, script: string, input = ''): Promise<string> {
    let out = '';
    await runSpooled(SH, ['-c', script], input, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 20, spools }, (chunk) => {
      out += chunk.toString('utf8');
      return null;
    });
    return out;
  }

  /** Let the supply's background open finish (it goes through the thread pool). */
  async function settle(): Promise<void> {
    for (let turn = 0; turn < 20; turn++) await new Promise((done) => setTimeout(done, 5));
  }

  it('makes spool files ahead without names, which the launcher reopens through /proc; nothing is left in the temporary folder', async () => {
    const spools = new SpoolSupply();
    expect(await run(spools, 'echo first')).toBe('first\n');
    await settle();
    expect(await run(spools, 'echo second; echo more')).toBe('second\nmore\n');
    await settle();
    expect(await run(spools, 'cat', 'from stdin\n')).toBe('from stdin\n');
    // The first run had no file made ahead: it created a named one. The next ones took unnamed ones.
    expect(launched.map((request) => request.stdoutFile)).toEqual([
      expect.stringMatching(new RegExp(`^${join(dir, 'tmp')}/jacobian-spool-[0-9a-f]+$`)),
      expect.stringMatching(new RegExp(`^/proc/${process.pid}/fd/\\d+$`)),
      expect.stringMatching(new RegExp(`^/proc/${process.pid}/fd/\\d+$`)),
    ]);
    expect(spools.makesAhead).toBe(true);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('creates named spool files when asked to, or where it cannot make them ahead', async () => {
    for (const spools of [new SpoolSupply({ ahead: false }), new SpoolSupply({ procRoot: join(dir, 'no-proc') })]) {
      launched = [];
      for (const word of ['one', 'two']) {
        expect(await run(spools, `echo ${word}`)).toBe(`${word}\n`);
        await settle();
      }
      expect(spools.makesAhead).toBe(false);
      expect(launched.map((request) => request.stdoutFile?.startsWith(join(dir, 'tmp', 'jacobian-spool-')))).toEqual([true, true]);
      expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    }
  });

  it('keeps making files ahead after a failure that may pass (a missing temporary folder)', async () => {
    const spools = new SpoolSupply();
    process.env['TMPDIR'] = join(dir, 'missing');
    const failed = await run(spools, 'echo lost').then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ code: 'PROVIDER_FAILED', message: expect.stringContaining('could not be created') as unknown });
    await settle();
    expect(spools.makesAhead).toBe(true);
    await mkdir(join(dir, 'missing'));
    expect(await run(spools, 'echo named')).toBe('named\n');
    await settle();
    expect(await run(spools, 'echo ahead')).toBe('ahead\n');
    expect(launched.map((request) => request.stdoutFile)).toEqual([
      expect.stringMatching(new RegExp(`^${join(dir, 'missing')}/jacobian-spool-[0-9a-f]+$`)),
      expect.stringMatching(new RegExp(`^/proc/${process.pid}/fd/\\d+$`)),
    ]);
    expect(await readdir(join(dir, 'missing'))).toEqual([]);
  });

  it('gives up files made ahead when the launcher cannot reopen one, and runs again with a named file (its input kept)', async () => {
    // A /proc stand-in with this process's fd folder, empty: the check passes, the launcher's open fails.
    const fakeProc = join(dir, 'fake-proc');
    await mkdir(join(fakeProc, String(process.pid), 'fd'), { recursive: true });
    const spools = new SpoolSupply({ procRoot: fakeProc });
    expect(await run(spools, 'cat', 'first input\n')).toBe('first input\n');
    await settle();
    expect(spools.makesAhead).toBe(true);
    expect(await run(spools, 'cat', 'second input\n')).toBe('second input\n');
    expect(spools.makesAhead).toBe(false);
    expect(launched.map((request) => request.stdoutFile?.startsWith(fakeProc) === true)).toEqual([false, true, false]);
    // The retry read the same input file, which the refused launch had left in place.
    expect(launched[1]?.stdinFile).toBe(launched[2]?.stdinFile);
    await settle();
    expect(await run(spools, 'echo named')).toBe('named\n');
    expect(launched.at(-1)?.stdoutFile?.startsWith(join(dir, 'tmp', 'jacobian-spool-'))).toBe(true);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });
});
