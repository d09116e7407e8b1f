// Test fixtures (real Redis, a real S3 server) and /proc readings for this workspace's tests,
// the cross-service tests in test/ and the benchmarks in bench/. Published as
// @jacobian/shared/testing, never imported by product code.
export { startRedisServer } from './redis-server.js';
export type { RedisServer, StartRedisServerOptions } from './redis-server.js';
export { startCephRgw } from './ceph-rgw.js';
export type { CephRgwInstance, StartCephRgwOptions } from './ceph-rgw.js';
export { startS3rver } from './s3rver.js';
export type { S3rverInstance, StartS3rverOptions } from './s3rver.js';
export { descendants, isAlive, processesWithEnv, readStat, reapProcessesWithEnv, rssKiB } from './processes.js';
export type { ProcStat } from './processes.js';
export { findSingular, singularReducedBases } from '../domains/polynomial/singular.testing.js';
export type { SingularJob } from '../domains/polynomial/singular.testing.js';
export { mulberry32 } from './seeded.js';
export { polynomialFromRoots, triangularWithKnownMinimalPolynomial } from './matrix-fixtures.js';
export { memoryTracing } from './memory-tracing.js';
export type { MemoryTracing } from './memory-tracing.js';
export { journalRecords } from './journal-records.js';
export type { JournalRecord } from './journal-records.js';
export { carriesJsonRpcResult, LEGACY_HEADERS, LEGACY_INITIALIZE, MODERN_FIND, MODERN_HEADERS, nonCanonicalMcpTargets, parseRawResponses, rawHttp, rawRequest } from './raw-http.js';
export type { RawExchange, RawHttpOptions, RawRequest, RawResponse } from './raw-http.js';
export { slowCheckProvider } from './slow-check-provider.js';
export type { SlowCheckProvider } from './slow-check-provider.js';
export { GLPK_EXACT_INTEGER_LIMIT, glpkExactFeed, glpkValueAgrees, readGlpkBasicSolution } from '../domains/lp/glpk-exact.testing.js';
export type { GlpkBasicSolution, GlpkExactFeed, GlpkStatus } from '../domains/lp/glpk-exact.testing.js';
