/** The V8 flags every jacobian process sets for itself as it starts (see v8-flags.mjs). */
export declare const JACOBIAN_V8_FLAGS: readonly string[];
/** Set {@link JACOBIAN_V8_FLAGS} in this process. Call before anything of Jacobian is loaded. */
export declare function applyJacobianV8Flags(): void;
