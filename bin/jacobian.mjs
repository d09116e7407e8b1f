#!/usr/bin/env node
// The `jacobian` command. It runs Jacobian compiled to JavaScript (dist/, written by
// scripts/build.mjs, which `npm ci` and `npm install` run as the root package's `prepare`
// script), in plain Node: no TypeScript loader, nothing compiled at start.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('jacobian is not built: run `npm run build` in its folder (npm ci and npm install run it)\n');
  process.exit(1);
}
await import(cli.href);
