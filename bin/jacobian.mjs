#!/usr/bin/env node
// The `jacobian` command. Jacobian is TypeScript run through tsx's loader, so there is no
// build step between `npm ci` and a working command.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// Every function gets V8's baseline code (Sparkplug) when it is first compiled, instead of being
// interpreted until it has run often. A server answers many questions that each run some code
// for the first time, or for one of few times (a capability asked once, a new law set): measured
// on the countermodel benchmark's first calls, 4.9–5.2 ms against 5.8–6.3 ms per call, with the
// same times once warm, for 18 MB more memory and about 0.15 s more to start. Set here, before
// anything of Jacobian is compiled, so that every way of starting it (npm start, the containers'
// entry point, an MCP client's stdio command) runs the same way. Node keeps V8's flags writable
// after start for this call.
setFlagsFromString('--always-sparkplug');

register();
await import('../src/cli.ts');
