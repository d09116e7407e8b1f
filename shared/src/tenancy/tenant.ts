/**
 * Tenants: who a run, an artifact or a reasoning log belongs to when the MCP endpoint is
 * authenticated (see the API's auth file). Without authentication there is one, unnamed,
 * default tenant, whose data lives where it always did; a named tenant's data lives apart from
 * every other's (its own artifact folder or key prefix, its own reasoning log, its own job IDs).
 */
import { z } from 'zod';

import { JacobianError } from '../errors.js';

/** 1–63 of a-z 0-9 . _ -, starting with a letter or digit: safe as a path segment, a key segment, a job ID suffix. */
export const TENANT_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export const TenantSchema = z.string().regex(TENANT_PATTERN, 'a tenant is 1-63 of a-z 0-9 . _ -, starting with a letter or digit');

/** Throw unless `tenant` is a valid tenant name. */
export function checkTenant(tenant: string): string {
  if (!TENANT_PATTERN.test(tenant) || tenant.includes('..')) {
    throw new JacobianError('INVALID_REQUEST', `tenant ${JSON.stringify(tenant.slice(0, 80))} is not a valid tenant name (1-63 of a-z 0-9 . _ -, starting with a letter or digit, no "..")`);
  }
  return tenant;
}

/** One resource per tenant (a store, a log), made on first use and closed together. */
export interface TenantScopes<T> {
  /** The default tenant's resource for undefined; a named tenant's own otherwise. */
  of(tenant: string | undefined): T;
  /** Close every named tenant's resource (not the default's, which its owner closes). */
  close(): Promise<void>;
}

/**
 * Per-tenant instances of a resource. Tenants come from the operator's token file or from the
 * operator's authorization server, so their number is the operator's to bound; instances are
 * kept until close.
 */
export function tenantScopes<T>(defaultScope: T, make: (tenant: string) => T, close: (value: T) => Promise<void>): TenantScopes<T> {
  const scopes = new Map<string, T>();
  let closed = false;
  return {
    of(tenant) {
      if (tenant === undefined) return defaultScope;
      let scope = scopes.get(tenant);
      if (scope === undefined) {
        if (closed) throw new JacobianError('INTERNAL', 'tenant scopes are closed');
        scope = make(checkTenant(tenant));
        scopes.set(tenant, scope);
      }
      return scope;
    },
    async close() {
      closed = true;
      const all = [...scopes.values()];
      scopes.clear();
      const results = await Promise.allSettled(all.map((scope) => close(scope)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  };
}
