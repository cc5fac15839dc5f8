// Runs the CLI from source (through tsx) when dist/ is older than the sources, so the stdio test
// always exercises the code under test. The real bin/baton.js is used when dist is fresh.
import { main } from '../../../src/cli/index.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
