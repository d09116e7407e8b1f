import { describe, expect, it } from 'vitest';

import { admitRequest } from '../capabilities/host.js';
import { CapabilityRequestSchema } from '../contracts/capability.js';
import { JacobianError } from '../errors.js';
import { parseRunJobData } from '../queue/job-data.js';
import { checkTenant, tenantScopes } from './tenant.js';

describe('tenant names', () => {
  it.each(['acme', 'a', 'team-7.prod_eu', '0day'])('accepts %s', (name) => {
    expect(checkTenant(name)).toBe(name);
  });

  it.each(['', 'Acme', '-lead', '.hidden', 'a/b', 'a..b', 'x'.repeat(64), 'sp ace'])('refuses %j with a typed error', (name) => {
    expect(() => checkTenant(name)).toThrow(JacobianError);
  });
});

describe('tenant scopes', () => {
  it('makes one resource per tenant on first use, serves the default for no tenant, and closes what it made', async () => {
    const made: string[] = [];
    const closed: string[] = [];
    const scopes = tenantScopes('default', (tenant) => (made.push(tenant), `store:${tenant}`), (store) => (closed.push(store), Promise.resolve()));
    expect(scopes.of(undefined)).toBe('default');
    expect(scopes.of('acme')).toBe('store:acme');
    expect(scopes.of('acme')).toBe('store:acme');
    expect(scopes.of('globex')).toBe('store:globex');
    expect(made).toEqual(['acme', 'globex']);
    expect(() => scopes.of('../etc')).toThrow(JacobianError);
    await scopes.close();
    expect(closed.sort()).toEqual(['store:acme', 'store:globex']);
    expect(() => scopes.of('initech')).toThrow(/closed/);
  });
});

describe('a tenant\'s runs', () => {
  const request = CapabilityRequestSchema.parse({ capability_id: 'test.op', payload: { n: 1 } });

  it('are their own jobs with the same request digest, and carry the tenant across the queue', () => {
    const plain = admitRequest(request);
    const acme = admitRequest(request, 'acme');
    const globex = admitRequest(request, 'globex');
    expect(plain.tenant).toBeUndefined();
    expect(acme.request_digest).toBe(plain.request_digest);
    expect(new Set([plain.job_id, acme.job_id, globex.job_id]).size).toBe(3);
    expect(acme.job_id).toBe(`${plain.job_id}.acme`);
    expect(parseRunJobData({ run: acme, target: { kind: 'pool', pool: 'light' } }).run.tenant).toBe('acme');
    expect(() => parseRunJobData({ run: { ...acme, tenant: 'Not Valid' }, target: { kind: 'pool', pool: 'light' } })).toThrow();
  });

  it('cannot be admitted for an invalid tenant', () => {
    expect(() => admitRequest(request, 'a/b')).toThrow(JacobianError);
  });
});
