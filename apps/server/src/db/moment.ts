import type { Queryable } from './db.ts';

/**
 * What a backup holds, table by table, at the moment it was taken: the row count and a digest
 * of every row's text. A restore compares its tables with these, so a backup that does not give
 * back what it held fails loudly instead of on the day it is needed.
 */
export interface Moment {
  /** The database's clock when the backup was taken (ISO 8601, UTC). */
  takenAt: string;
  /** The newest migration applied: a restore must run code that knows it. */
  schemaVersion: string;
  tables: Record<string, { rows: number; digest: string }>;
  /**
   * The backup's moment as the newest entry of each log it holds (DESIGN §10: "the highest
   * event id"), table by table: the highest value of each numbered column ("table.column":
   * a bigserial id), and of game_events.at (its ids are the clients' keys and its seq counts
   * per game, so its newest is its newest server time). As text: bigints. Absent from
   * backups taken before it was recorded.
   */
  highest?: Record<string, string | null>;
}

/** Logs without a numbered column, and the column that says which entry is newest. */
const NEWEST_OF: Record<string, string> = { game_events: 'at' };

/**
 * Tables a restore leaves out: sessions are credentials (a restored server signs everyone in
 * again), and a backup must not become a way to carry them off.
 */
export const TABLES_NOT_RESTORED = ['sessions'] as const;

/**
 * Every table of the schema, read from the catalogue: tables added by later migrations (event
 * logs, moderation) are in the backup without anyone listing them.
 */
export async function tableNames(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  return rows.map((r) => r.name);
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A table's rows as a digest independent of row order. Run inside one transaction with the
 * time zone pinned (timestamps print in the session's zone), so both ends print rows alike.
 */
async function tableDigest(q: Queryable, table: string): Promise<{ rows: number; digest: string }> {
  const [r] = await q.query<{ rows: number; digest: string | null }>(
    `SELECT count(*)::int AS rows,
            md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest
       FROM ${quoteIdent(table)} t`,
  );
  return { rows: r?.rows ?? 0, digest: r?.digest ?? '' };
}

/**
 * The highest value of every numbered column (a bigserial's sequence default) and of the logs
 * in NEWEST_OF, read in the caller's snapshot.
 */
async function highestOf(q: Queryable, tables: string[]): Promise<Record<string, string | null>> {
  const numbered = await q.query<{ table: string; column: string }>(
    `SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'
      ORDER BY table_name, column_name`,
  );
  const columns = [
    ...numbered.filter((c) => tables.includes(c.table)),
    ...Object.entries(NEWEST_OF)
      .filter(([table]) => tables.includes(table))
      .map(([table, column]) => ({ table, column })),
  ];
  const highest: Record<string, string | null> = {};
  for (const { table, column } of columns) {
    const [r] = await q.query<{ max: string | null }>(
      `SELECT max(${quoteIdent(column)})::text AS max FROM ${quoteIdent(table)}`,
    );
    highest[`${table}.${column}`] = r?.max ?? null;
  }
  return highest;
}

/** The moment of the transaction q is in (the caller holds it open while it copies). */
export async function momentOf(q: Queryable): Promise<Moment> {
  await q.query(`SET LOCAL TimeZone = 'UTC'`);
  const [clock] = await q.query<{ now: string }>(
    `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now`,
  );
  const [schema] = await q.query<{ version: string | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  const tables: Moment['tables'] = {};
  for (const table of await tableNames(q)) {
    if ((TABLES_NOT_RESTORED as readonly string[]).includes(table)) continue;
    tables[table] = await tableDigest(q, table);
  }
  const highest = await highestOf(q, Object.keys(tables));
  return { takenAt: clock?.now ?? '', schemaVersion: schema?.version ?? '', tables, highest };
}
