import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import { createTestDatabase, testDatabaseKind } from './support/database.ts';

/**
 * The Kysely row types (db/schema.ts and the modules' *.tables.ts) are written by hand beside each migration, and
 * queries are only as safe as they are true. This reads what the TypeScript compiler makes of `Selectable<DB>` and
 * compares it with the migrated database: the same tables, the same columns, null allowed in both or neither, and a
 * type of the right kind for the common column types (a Kysely select of that column gets what the type says).
 */
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

interface TypedColumn {
  nullable: boolean;
  kinds: Set<string>;
}

function typedTables(): Map<string, Map<string, TypedColumn>> {
  const modules = join(serverDir, 'src/modules');
  const tableFiles = readdirSync(modules).flatMap((m) =>
    readdirSync(join(modules, m))
      .filter((f) => f.endsWith('.tables.ts'))
      .map((f) => join(modules, m, f)),
  );
  const probe = join(serverDir, 'src/db/__schema_probe__.ts');
  const probeText = [
    "import type { Selectable } from 'kysely';",
    "import type { DB } from './schema.ts';",
    ...tableFiles.map((f) => `import '${f}';`),
    'export type Rows = { [K in keyof DB]: Selectable<DB[K]> };',
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === probe ? probeText : readFile(f));
  host.fileExists = (f) => f === probe || fileExists(f);
  host.getSourceFile = (f, lang, onError) =>
    f === probe ? ts.createSourceFile(f, probeText, lang) : getSourceFile(f, lang, onError);
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe) as ts.SourceFile;
  const rowsAlias = source.statements.find(ts.isTypeAliasDeclaration) as ts.TypeAliasDeclaration;
  const rows = checker.getTypeAtLocation(rowsAlias.name);

  const kindOf = (t: ts.Type): string => {
    if (t.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return 'unknown';
    if (t.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return 'string';
    if (t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return 'number';
    if (t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return 'boolean';
    if (t.flags & ts.TypeFlags.Null) return 'null';
    const name = t.getSymbol()?.getName();
    if (name === 'Date') return 'Date';
    if (name === 'Uint8Array' || name === 'Buffer') return 'bytes';
    if (checker.isArrayType(t)) return 'array';
    return 'other';
  };
  const tables = new Map<string, Map<string, TypedColumn>>();
  for (const table of checker.getPropertiesOfType(rows)) {
    const row = checker.getTypeOfSymbolAtLocation(table, source);
    const columns = new Map<string, TypedColumn>();
    for (const column of checker.getPropertiesOfType(row)) {
      const type = checker.getTypeOfSymbolAtLocation(column, source);
      const parts = type.isUnion() ? type.types : [type];
      const kinds = new Set(parts.map(kindOf));
      columns.set(column.getName(), { nullable: kinds.delete('null'), kinds });
    }
    tables.set(table.getName(), columns);
  }
  return tables;
}

/** The TypeScript kind a select of each common PostgreSQL type gets through this project's drivers. */
const KIND_OF_SQL_TYPE: Record<string, string> = {
  boolean: 'boolean',
  text: 'string',
  'character varying': 'string',
  character: 'string',
  uuid: 'string',
  citext: 'string',
  inet: 'string',
  smallint: 'number',
  integer: 'number',
  // Parsed to a number (db/client.ts).
  bigint: 'number',
  real: 'number',
  'double precision': 'number',
  'timestamp with time zone': 'Date',
  'timestamp without time zone': 'Date',
  date: 'Date',
  bytea: 'bytes',
  ARRAY: 'array',
};

type Columns = Map<string, Map<string, { nullable: boolean; type: string }>>;

async function migratedColumns(handle: DatabaseHandle): Promise<Columns> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>`
    SELECT table_name, column_name, is_nullable, data_type
    FROM information_schema.columns
    WHERE table_schema = 'public'
      AND table_name IN (SELECT table_name FROM information_schema.tables
                         WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
  `.execute(handle.db);
  const actual: Columns = new Map();
  for (const r of rows) {
    const table = actual.get(r.table_name) ?? new Map();
    table.set(r.column_name, { nullable: r.is_nullable === 'YES', type: r.data_type });
    actual.set(r.table_name, table);
  }
  return actual;
}

/** Every difference between the row types and the database, one line each; none when they agree. */
function driftOf(typed: Map<string, Map<string, TypedColumn>>, actual: Columns): string[] {
  const drift: string[] = [];
  for (const table of typed.keys()) {
    if (!actual.has(table)) drift.push(`${table}: in the types, not in the database`);
  }
  for (const [table, columns] of actual) {
    const typedColumns = typed.get(table);
    if (!typedColumns) {
      drift.push(`${table}: in the database, not in the types`);
      continue;
    }
    for (const [name, column] of columns) {
      const t = typedColumns.get(name);
      if (!t) {
        drift.push(`${table}.${name}: in the database, not in the types`);
        continue;
      }
      // An `unknown` column (JSON read by its module's parser) takes null as well as anything else.
      if (t.nullable !== column.nullable && !t.kinds.has('unknown')) {
        drift.push(`${table}.${name}: ${column.nullable ? 'nullable' : 'NOT NULL'} in the database, not in the types`);
      }
      const expected = KIND_OF_SQL_TYPE[column.type];
      if (expected && !(t.kinds.size === 1 && t.kinds.has(expected))) {
        drift.push(`${table}.${name}: ${column.type} in the database, typed as ${[...t.kinds].join(' | ')}`);
      }
    }
    for (const name of typedColumns.keys()) {
      if (!columns.has(name)) drift.push(`${table}.${name}: in the types, not in the database`);
    }
  }
  return drift;
}

describe(`db/schema.ts against the migrations on ${testDatabaseKind()}`, () => {
  let handle: DatabaseHandle;
  let typed: Map<string, Map<string, TypedColumn>>;

  beforeAll(async () => {
    handle = await createTestDatabase();
    typed = typedTables();
  }, 120_000);
  afterAll(() => handle?.close());

  it('types every table the migrations create, every column with its name, null or not, and its kind', async () => {
    expect(driftOf(typed, await migratedColumns(handle))).toEqual([]);
  });

  it('reports a deliberate drift of each kind', async () => {
    await sql`CREATE TABLE drift_probe (id integer)`.execute(handle.db);
    await sql`ALTER TABLE ntrip_sessions ADD COLUMN drift_note text`.execute(handle.db);
    await sql`ALTER TABLE ntrip_sessions DROP COLUMN rtcm_profile`.execute(handle.db);
    await sql`ALTER TABLE ntrip_sessions ALTER COLUMN end_reason SET NOT NULL`.execute(handle.db);
    await sql`ALTER TABLE users ALTER COLUMN display_name TYPE integer USING NULL`.execute(handle.db);
    await sql`ALTER TABLE user_photos RENAME TO user_pictures`.execute(handle.db);
    expect(driftOf(typed, await migratedColumns(handle)).sort()).toEqual(
      [
        'drift_probe: in the database, not in the types',
        'ntrip_sessions.drift_note: in the database, not in the types',
        'ntrip_sessions.rtcm_profile: in the types, not in the database',
        'ntrip_sessions.end_reason: NOT NULL in the database, not in the types',
        'users.display_name: integer in the database, typed as string',
        'user_photos: in the types, not in the database',
        'user_pictures: in the database, not in the types',
      ].sort(),
    );
  });
});
