// PGlite's own query() runs each call as six round trips into PostgreSQL (Parse, Describe the
// statement, Bind, Describe the portal, Execute, Sync), and the Parse makes PostgreSQL parse,
// analyse and plan the text again every time: on a score write that is a large share of the
// WebAssembly's time. Here each text is parsed once, as a named prepared statement of the one
// session PGlite has, and each call after that is one round trip (Bind, Describe, Execute,
// Sync). The PostgreSQL driver does the same (db.ts `prepared`).
import { parse, protocol, type PGlite, type Transaction } from '@electric-sql/pglite';

/** At most this many texts are kept prepared; past it (SQL built with varying shapes) a text runs through PGlite's own query(). */
const MAX_PREPARED = 1000;

interface Statement {
  name: string;
  /** The parameters' type ids, as PostgreSQL inferred them: each value is serialised by its type. */
  types: number[];
}

const { serialize } = protocol;
const callTail = concat([
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
]);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface PgliteStatements {
  /** A statement outside any transaction: it waits for an open one to end, as query() does. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A statement of the transaction `t` (inside PGlite's transaction callback). */
  txQuery<T>(t: Transaction, sql: string, params?: unknown[]): Promise<T[]>;
}

export function pgliteStatements(pglite: PGlite): PgliteStatements {
  const statements = new Map<string, Statement>();

  async function statementFor(sql: string): Promise<Statement | undefined> {
    const known = statements.get(sql);
    if (known || statements.size >= MAX_PREPARED) return known;
    const name = `s${statements.size + 1}`;
    // A text that does not parse throws here and is not kept; its error is the caller's.
    const { messages } = await pglite.execProtocol(
      concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    statements.set(sql, statement);
    return statement;
  }

  /** Runs under PGlite's query lock, which its own query() and a transaction's statements take. */
  async function run<T>(sql: string, params: unknown[] | undefined, outsideTx: boolean) {
    const statement = await statementFor(sql);
    if (!statement) return undefined;
    // As PGlite's query() serialises a value: by the type PostgreSQL inferred for it.
    const values = (params ?? []).map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[statement.types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await pglite.execProtocol(
      concat([serialize.bind({ statement: statement.name, values }), callTail]),
      // Outside a transaction PGlite's query() writes its files out after each statement.
      { syncToFs: outsideTx },
    );
    return (parse.parseResults(messages, pglite.parsers)[0]?.rows ?? []) as T[];
  }

  return {
    async query<T>(sql: string, params?: unknown[]) {
      // query() takes the transaction lock first, so a statement never lands inside a
      // transaction another caller holds open.
      const rows = await pglite._runExclusiveTransaction(() =>
        pglite.runExclusive(() => run<T>(sql, params, true)),
      );
      return rows ?? (await pglite.query<T>(sql, params)).rows;
    },
    async txQuery<T>(t: Transaction, sql: string, params?: unknown[]) {
      if (t.closed) throw new Error('Transaction is closed');
      const rows = await pglite.runExclusive(() => run<T>(sql, params, false));
      return rows ?? (await t.query<T>(sql, params)).rows;
    },
  };
}
