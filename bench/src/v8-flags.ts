/**
 * The benchmark's own process runs with the V8 flags of the jacobian command: the graphs
 * benchmark runs the capability in this process, and measures it as `jacobian serve` runs it.
 * Imported first by main.ts, so that the flags are set before the other modules are evaluated.
 */
import { applyJacobianV8Flags } from '../../bin/v8-flags.mjs';

applyJacobianV8Flags();
