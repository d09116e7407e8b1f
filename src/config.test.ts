import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyDigest } from '@jacobian/shared';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jacobian-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('defaults: data dir under XDG_DATA_HOME, DEFAULT policy, bundled checkers', async () => {
    const config = await loadConfig({ XDG_DATA_HOME: '/data' });
    expect(config.dataDir).toBe('/data/jacobian');
    expect(config.policy).toEqual({ profile: 'DEFAULT', hidden_ids: [], hidden_domains: [], hidden_tags: [], hidden_modes: [] });
    expect(config.authorization).toBe('bundled');
    expect(config.concurrency).toBeGreaterThanOrEqual(1);
    expect(config.reasoningMode).toBe('OFF');
  });

  it.each(['OFF', 'AUDIT', 'REQUIRED'] as const)('reads JACOBIAN_REASONING_MODE=%s', async (mode) => {
    expect((await loadConfig({ JACOBIAN_REASONING_MODE: mode })).reasoningMode).toBe(mode);
  });

  it('merges a policy file with the environment lists', async () => {
    const file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify({ profile: 'COMPUTE_VERIFY_NO_RETRIEVAL', hidden_ids: ['artifact.put'] }));
    const config = await loadConfig({ JACOBIAN_POLICY_FILE: file, JACOBIAN_HIDE_IDS: 'graph.construct.explicit, ', JACOBIAN_HIDE_MODES: 'VERIFY' });
    expect(config.policy.profile).toBe('COMPUTE_VERIFY_NO_RETRIEVAL');
    expect(config.policy.hidden_ids).toEqual(['artifact.put', 'graph.construct.explicit']);
    expect(config.policy.hidden_modes).toEqual(['VERIFY']);
    expect(policyDigest(config.policy)).not.toBe(policyDigest((await loadConfig({})).policy));
  });

  it('reads an authorization file and accepts none', async () => {
    const file = join(dir, 'auth.json');
    const entry = { checker_id: 'x', checker_digest: `sha256:${'a'.repeat(64)}` };
    await writeFile(file, JSON.stringify({ authorized: [entry] }));
    expect((await loadConfig({ JACOBIAN_CHECKER_AUTHORIZATION: file })).authorization).toEqual({ authorized: [entry] });
    expect((await loadConfig({ JACOBIAN_CHECKER_AUTHORIZATION: 'none' })).authorization).toEqual({ authorized: [] });
  });

  const bad: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['a non-numeric concurrency', { JACOBIAN_CONCURRENCY: 'many' }, /^JACOBIAN_CONCURRENCY: /],
    ['an unknown profile', { JACOBIAN_POLICY_PROFILE: 'OPEN' }, /^JACOBIAN_POLICY_PROFILE: /],
    ['an unknown mode to hide', { JACOBIAN_HIDE_MODES: 'PROVE' }, /JACOBIAN_HIDE_\*.*hidden_modes/],
    ['a missing policy file', { JACOBIAN_POLICY_FILE: '/nonexistent/policy.json' }, /^JACOBIAN_POLICY_FILE: cannot read/],
    ['an unknown log level', { JACOBIAN_LOG_LEVEL: 'loud' }, /^JACOBIAN_LOG_LEVEL: /],
    ['an unknown reasoning mode', { JACOBIAN_REASONING_MODE: 'ON' }, /^JACOBIAN_REASONING_MODE: must be OFF, AUDIT or REQUIRED/],
    ['a lower-case reasoning mode', { JACOBIAN_REASONING_MODE: 'required' }, /^JACOBIAN_REASONING_MODE: /],
  ];
  for (const [name, env, message] of bad) {
    it(`fails fast on ${name}, naming the variable`, async () => {
      await expect(loadConfig(env)).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(message) as unknown });
    });
  }

  it('names the file and field of a malformed authorization file', async () => {
    const file = join(dir, 'bad-auth.json');
    await writeFile(file, JSON.stringify({ authorized: [{ checker_id: 'x', checker_digest: 'md5:1' }] }));
    await expect(loadConfig({ JACOBIAN_CHECKER_AUTHORIZATION: file })).rejects.toMatchObject({
      message: expect.stringMatching(/JACOBIAN_CHECKER_AUTHORIZATION: .*authorized\.0\.checker_digest/) as unknown,
    });
  });

  it('rejects an unknown field in a policy file', async () => {
    const file = join(dir, 'extra.json');
    await writeFile(file, JSON.stringify({ profile: 'DEFAULT', hide: ['x'] }));
    await expect(loadConfig({ JACOBIAN_POLICY_FILE: file })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
