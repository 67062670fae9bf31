import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { openPglite, openPostgres, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { Hub } from '../realtime/hub.ts';
import { loadPlan, type Summary } from './load.ts';
import { progressBar } from './progress.ts';
import { readExport, type Problem } from './read-export.ts';

// `npm run import -- <export.json>`. See docs/import.md.

const USAGE = `Usage: npm run import -- <export.json> [options]

Loads a Firebase Realtime Database JSON export into Sagan, keeping every key.
Running it again with the same export changes nothing.

Options:
  --uid-map <file.json>   {"oldUid": "newUid", ...}: uids to change while importing
  --firebase-auth <file>  a \`firebase auth:export\` JSON file: each Firebase uid becomes the
                          Google account id (sub) Sagan signs the same person in with
  --product <name>        the {product} folder of the export (found automatically if unique)
  --report <file.json>    also write the records not loaded (and warnings) as JSON
  --database-url <url>    PostgreSQL (default: DATABASE_URL, else the embedded database)
  --data-dir <dir>        the embedded database folder (default: DATA_DIR, else ./data)
  -h, --help              show this help`;

export interface CliArgs {
  file: string;
  uidMap?: string;
  firebaseAuth?: string;
  product?: string;
  report?: string;
  databaseUrl?: string;
  dataDir: string;
}

class UsageError extends Error {}

export function parseArgs(
  argv: string[],
  env: Record<string, string | undefined>,
): CliArgs | 'help' {
  const out: Partial<CliArgs> = {};
  const files: string[] = [];
  const flags: Record<string, keyof CliArgs> = {
    '--uid-map': 'uidMap',
    '--firebase-auth': 'firebaseAuth',
    '--product': 'product',
    '--report': 'report',
    '--database-url': 'databaseUrl',
    '--data-dir': 'dataDir',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '-h' || a === '--help') return 'help';
    const [flag, inline] = a.startsWith('--') ? (a.split(/=(.*)/s, 2) as [string, string?]) : [a];
    const key = flags[flag];
    if (key) {
      const value = inline ?? argv[++i];
      if (!value) throw new UsageError(`${flag} needs a value`);
      out[key] = value;
    } else if (a.startsWith('-')) throw new UsageError(`Unknown option ${a}`);
    else files.push(a);
  }
  if (files.length !== 1) throw new UsageError('Give exactly one export file');
  return {
    ...out,
    file: files[0] as string,
    databaseUrl: out.databaseUrl ?? env.DATABASE_URL,
    dataDir: out.dataDir ?? env.DATA_DIR ?? './data',
  };
}

function readUidMap(file: string): Record<string, string> {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UsageError(`${file}: expected {"oldUid": "newUid", ...}`);
  }
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string' || !v)
      throw new UsageError(`${file}: the new uid for ${k} must be a text`);
  }
  return raw as Record<string, string>;
}

/**
 * Firebase gives each account its own uid (localId); Sagan's uid is the Google account id
 * (the ID token's sub), which Firebase keeps as the google.com provider's rawId. Accounts
 * without a Google provider keep their uid (and will not match a Google sign-in).
 */
export function uidMapFromAuthExport(raw: unknown): {
  map: Record<string, string>;
  withoutGoogle: string[];
} {
  const users = (raw as { users?: unknown })?.users;
  if (!Array.isArray(users)) throw new UsageError('the auth export has no "users" list');
  const map: Record<string, string> = {};
  const withoutGoogle: string[] = [];
  for (const u of users as { localId?: unknown; providerUserInfo?: unknown }[]) {
    if (typeof u.localId !== 'string') continue;
    const google = Array.isArray(u.providerUserInfo)
      ? (u.providerUserInfo as { providerId?: unknown; rawId?: unknown }[]).find(
          (p) => p.providerId === 'google.com' && typeof p.rawId === 'string' && p.rawId,
        )
      : undefined;
    if (google) map[u.localId] = google.rawId as string;
    else withoutGoogle.push(u.localId);
  }
  return { map, withoutGoogle };
}

function formatSummary(summary: Summary, problems: Problem[], warnings: Problem[]): string {
  const lines = ['Imported:'];
  for (const [kind, c] of Object.entries(summary)) {
    lines.push(
      `  ${kind.padEnd(20)} ${String(c.created).padStart(6)} new  ${String(c.updated).padStart(6)} updated  ${String(c.unchanged).padStart(6)} unchanged`,
    );
  }
  if (warnings.length) {
    lines.push('', `Loaded with a note (${warnings.length}):`);
    for (const w of warnings) lines.push(`  ${w.path}: ${w.reason}`);
  }
  lines.push('');
  if (problems.length) {
    lines.push(`Not loaded (${problems.length}):`);
    for (const p of problems) lines.push(`  ${p.path}: ${p.reason}`);
  } else lines.push('Every record was loaded.');
  return lines.join('\n');
}

const quietLog = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return quietLog;
  },
  level: 'silent',
} as unknown as FastifyBaseLogger;

/** Returns the exit code: 0 when everything loaded, 3 when some records were not loaded. */
export async function runImport(argv: string[], env = process.env): Promise<number> {
  let args: CliArgs | 'help';
  try {
    args = parseArgs(argv, env);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (args === 'help') {
    console.log(USAGE);
    return 0;
  }
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(args.file, 'utf8'));
  } catch (err) {
    console.error(`Could not read ${args.file}: ${(err as Error).message}`);
    return 2;
  }
  let uidMap: Record<string, string> | undefined;
  try {
    if (args.firebaseAuth) {
      const { map, withoutGoogle } = uidMapFromAuthExport(
        JSON.parse(fs.readFileSync(args.firebaseAuth, 'utf8')),
      );
      uidMap = map;
      if (withoutGoogle.length) {
        console.log(
          `${withoutGoogle.length} account(s) have no Google sign-in and keep their Firebase uid: ${withoutGoogle.join(', ')}`,
        );
      }
    }
    // An explicit --uid-map entry wins over the auth export.
    if (args.uidMap) uidMap = { ...uidMap, ...readUidMap(args.uidMap) };
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 2;
  }
  const plan = readExport(json, { product: args.product, uidMap });
  const db: Db = args.databaseUrl
    ? await openPostgres(args.databaseUrl)
    : await openPglite(path.resolve(args.dataDir));
  try {
    await migrate(db);
    // The hub bumps the topics of what each record changed, so a server running on the same
    // PostgreSQL shows the imported records live.
    const hub = new Hub(db, quietLog);
    const bar = progressBar();
    const result = await loadPlan({ db, hub }, plan, {
      onProgress: (done, total, kind) => bar.update(done, total, kind),
    });
    bar.end();
    const problems = [...plan.problems, ...result.problems];
    console.log(formatSummary(result.summary, problems, plan.warnings));
    if (args.report) {
      fs.writeFileSync(
        args.report,
        JSON.stringify(
          { summary: result.summary, notLoaded: problems, warnings: plan.warnings },
          null,
          2,
        ),
      );
    }
    return problems.length ? 3 : 0;
  } finally {
    await db.close();
  }
}
