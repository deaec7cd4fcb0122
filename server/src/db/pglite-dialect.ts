import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * PGlite has one connection. Kysely would otherwise hand it to two transactions at once and interleave
 * their statements, so connections are leased one at a time, like a pool of size one.
 */
class PGliteDriver implements Driver {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  readonly #connection: DatabaseConnection;

  constructor(private readonly client: PGlite) {
    this.#connection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        // Parameterless statements go through the simple protocol, which also runs multi-statement scripts (migrations).
        const result =
          query.parameters.length === 0
            ? ((await client.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
            : await client.query<R>(query.sql, [...query.parameters]);
        const affected = result.affectedRows;
        return {
          rows: result.rows as R[],
          ...(affected !== undefined && { numAffectedRows: BigInt(affected) }),
        };
      },
      streamQuery: () => {
        throw new Error('PGlite does not stream query results');
      },
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#tail;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

export function pgliteDialect(client: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(client),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
