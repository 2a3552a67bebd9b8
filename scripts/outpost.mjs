#!/usr/bin/env node
// The package's `outpost` executable (package.json bin; `npx outpost …` in the project): the CLI of
// the built server, built first when missing or older than the sources (as `npm start`).
import { runBuilt } from './start.mjs';

await runBuilt(process.argv.slice(2));
