#!/usr/bin/env node
// The `jacobian` command. Jacobian is TypeScript run through tsx's loader, so there is no
// build step between `npm ci` and a working command.
import { register } from 'tsx/esm/api';
import { applyJacobianV8Flags } from './v8-flags.mjs';

// Before anything of Jacobian is compiled: baseline code for every function, and no collector
// threads beside the JavaScript thread (see v8-flags.mjs).
applyJacobianV8Flags();

register();
await import('../src/cli.ts');
