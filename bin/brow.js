#!/usr/bin/env node
// brow's command line: see `brow --help`.
import { main } from '../dist/doors/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  },
);
