// Runs the CLI from source (tests spawn it with `node --import tsx src/cli/entry.ts …`, where the
// compiled dist/ that bin/switchboard.js needs may not exist).
import { main } from '../main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
