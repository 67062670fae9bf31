// npm run import -- <export.json> [--uid-map map.json]: see docs/import.md.
import { runImport } from '../apps/server/src/import/cli.ts';

runImport(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
