// npm run restore -- <file.tar>: see docs/deploy.md.
import { runRestore } from '../apps/server/src/ops/cli.ts';

runRestore(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
