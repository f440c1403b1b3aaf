#!/usr/bin/env node
// The boxwright command: the bundled CLI built by `npm run build` (prepare).
import { run } from '../dist/bundle/boxwright.js';

run(process.argv.slice(2));
