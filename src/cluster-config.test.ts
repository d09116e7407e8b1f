import { describe, expect, it } from 'vitest';
import { loadClusterEnvironment } from './cluster-config.js';

const BASE = { REDIS_URL: 'redis://127.0.0.1:6390', S3_BUCKET: 'artifacts' };

describe('loadClusterEnvironment', () => {
  it('applies defaults', () => {
    const env = loadClusterEnvironment(BASE, 'runner');
    expect(env).toMatchObject({ JACOBIAN_PREFIX: 'jacobian', S3_REGION: 'us-east-1', S3_PREFIX: '', JACOBIAN_HEARTBEAT_TTL_MS: 15000 });
  });

  it('serves operations on 127.0.0.1:9464 unless told otherwise, and on no port when off', () => {
    expect(loadClusterEnvironment(BASE, 'runner')).toMatchObject({ JACOBIAN_OPS_HOST: '127.0.0.1', JACOBIAN_OPS_PORT: 9464 });
    expect(loadClusterEnvironment({ ...BASE, JACOBIAN_OPS_HOST: '0.0.0.0', JACOBIAN_OPS_PORT: '0' }, 'runner')).toMatchObject({ JACOBIAN_OPS_HOST: '0.0.0.0', JACOBIAN_OPS_PORT: 0 });
    expect(loadClusterEnvironment({ ...BASE, JACOBIAN_OPS_PORT: 'off' }, 'runner').JACOBIAN_OPS_PORT).toBeNull();
  });

  it('parses lists and booleans', () => {
    const env = loadClusterEnvironment({ ...BASE, JACOBIAN_POOLS: 'light, heavy', S3_FORCE_PATH_STYLE: 'true', JACOBIAN_CHECKER_PUBLIC_KEYS: 'a.pem,b.pem' }, 'api');
    expect(env.JACOBIAN_POOLS).toEqual(['light', 'heavy']);
    expect(env.S3_FORCE_PATH_STYLE).toBe(true);
    expect(env.JACOBIAN_CHECKER_PUBLIC_KEYS).toEqual(['a.pem', 'b.pem']);
  });

  const bad: [string, NodeJS.ProcessEnv, 'api' | 'runner' | 'checker', RegExp][] = [
    ['a missing REDIS_URL', { S3_BUCKET: 'b' }, 'runner', /^REDIS_URL: is required/],
    ['a REDIS_URL of another scheme', { ...BASE, REDIS_URL: 'http://x' }, 'runner', /^REDIS_URL: must be a redis/],
    ['a missing bucket', { REDIS_URL: BASE.REDIS_URL }, 'runner', /^S3_BUCKET: is required/],
    ['a bad endpoint', { ...BASE, S3_ENDPOINT: 'not a url' }, 'runner', /^S3_ENDPOINT: /],
    ['an api without checker public keys', BASE, 'api', /^JACOBIAN_CHECKER_PUBLIC_KEYS: is required by jacobian api/],
    ['a checker without its key file', BASE, 'checker', /^JACOBIAN_CHECKER_KEY_FILE: is required by jacobian checker/],
    ['a too short heartbeat TTL', { ...BASE, JACOBIAN_HEARTBEAT_TTL_MS: '10' }, 'runner', /^JACOBIAN_HEARTBEAT_TTL_MS: /],
    ['an ops port out of range', { ...BASE, JACOBIAN_OPS_PORT: '65536' }, 'runner', /^JACOBIAN_OPS_PORT: must be a port number/],
    ['an ops port that is not a number', { ...BASE, JACOBIAN_OPS_PORT: 'none' }, 'checker', /^JACOBIAN_OPS_PORT: must be a port number/],
    ['an empty ops host', { ...BASE, JACOBIAN_OPS_HOST: '' }, 'runner', /^JACOBIAN_OPS_HOST: /],
  ];
  for (const [name, env, role, message] of bad) {
    it(`rejects ${name}, naming the variable`, () => {
      expect(() => loadClusterEnvironment(env, role)).toThrow(message);
    });
  }
});
