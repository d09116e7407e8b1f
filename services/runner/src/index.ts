export { createRunner, runnerRegistrations, type RunnerRegistrationOptions, type Runner, type RunnerOptions } from './runner.js';
export { constructExplicit, ConstructExplicitInput } from './graph/construct-explicit.js';
export { maximumInducedTree, MaximumInducedTreeOutput } from './graph/maximum-induced-tree.js';
export { artifactPut } from './artifact/put.js';
export { GRAPH_INVARIANTS } from './graph/invariants.js';
export { DEFAULT_NAUTY_DIRECTORIES, type NautyProbeOptions } from './providers/nauty.js';
export { enumerateNonisomorphic, ENUMERATE_TS_FEATURES, ENUMERATE_TS_PROVIDER, ENUMERATE_TS_SOURCES } from './graph/enumerate.js';
export { probeGeng } from './graph/enumerate-geng.js';
