import { describe, expect, it } from 'vitest';
import { explainReadiness, NotReadyReason } from './readiness-reasons.js';
import { answerOps, createReadiness } from './telemetry/ops.js';

describe('explainReadiness, with answerOps', () => {
  it('shows the reason a check gave while it fails, and only that check’s', async () => {
    const readiness = explainReadiness(createReadiness(['redis', 'policy', 'artifacts']));
    let policy = 'volatile-lru';
    readiness.provide('redis', () => Promise.resolve('PONG'));
    readiness.provide('policy', () => (policy === 'noeviction' ? Promise.resolve() : Promise.reject(new NotReadyReason(`policy is ${policy}; set noeviction`))));
    // An ordinary error keeps its text to itself: it may carry a URL or an internal detail.
    readiness.provide('artifacts', () => Promise.reject(new Error('connect ECONNREFUSED s3://secret-bucket')));

    const answer = await answerOps({ readiness }, '/readyz');
    expect(answer?.status).toBe(503);
    expect(JSON.parse(answer?.body ?? '')).toEqual({
      status: 'not ready',
      checks: { redis: 'ok', policy: 'failed', artifacts: 'failed' },
      reasons: { policy: 'policy is volatile-lru; set noeviction' },
    });
    expect(answer?.body).not.toContain('secret-bucket');

    policy = 'noeviction';
    readiness.provide('artifacts', () => Promise.resolve(false));
    const fixed = await answerOps({ readiness }, '/readyz');
    expect(fixed?.status).toBe(200);
    expect(JSON.parse(fixed?.body ?? '')).toEqual({ status: 'ready', checks: { redis: 'ok', policy: 'ok', artifacts: 'ok' } });
  });

  it('answers a pending check without a reason, and a plain readiness as answerOps does', async () => {
    const readiness = explainReadiness(createReadiness(['redis']));
    expect(JSON.parse((await answerOps({ readiness }, '/readyz'))?.body ?? '')).toEqual({ status: 'not ready', checks: { redis: 'pending' } });
    const plain = createReadiness(['redis']);
    plain.provide('redis', () => Promise.reject(new NotReadyReason('not shown: this readiness does not explain')));
    expect(JSON.parse((await answerOps({ readiness: plain }, '/readyz'))?.body ?? '')).toEqual({ status: 'not ready', checks: { redis: 'failed' } });
  });

  it('leaves the other operations routes to answerOps', async () => {
    const readiness = explainReadiness(createReadiness([]));
    expect(await answerOps({ readiness }, '/healthz')).toMatchObject({ status: 200 });
    expect(await answerOps({ readiness }, '/metrics')).toMatchObject({ status: 404 });
    expect(await answerOps({ readiness }, '/elsewhere')).toBeUndefined();
  });
});
