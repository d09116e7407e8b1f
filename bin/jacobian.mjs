#!/usr/bin/env node
// The `jacobian` command. Jacobian is TypeScript run through tsx's loader, so there is no
// build step between `npm ci` and a working command.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
