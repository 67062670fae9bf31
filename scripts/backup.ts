// npm run backup -- <file.tar>: see docs/deploy.md.
import { runBackup } from '../apps/server/src/ops/cli.ts';

runBackup(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
