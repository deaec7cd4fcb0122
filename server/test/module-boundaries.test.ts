import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Module boundaries (docs/data-model.md): each server module writes only the tables it owns and asks the owner's
 * repo or service for the rest. The owner of each table comes from docs/data-model.md (and, for a table it does
 * not list, from the `*.tables.ts` file declaring it). The modules' sources are read as text: table names after
 * SQL keywords in SQL text (FROM, JOIN, INTO, UPDATE, DELETE FROM, TRUNCATE) and in Kysely calls (selectFrom,
 * insertInto, updateTable, deleteFrom, joins). No module writes another module's table; reads of another module's
 * tables are allowed only where listed in READS, and a listed read the code no longer needs fails too, so the list
 * only shrinks.
 */
const server = join(dirname(fileURLToPath(import.meta.url)), '..');
const modulesDir = join(server, 'src/modules');

/**
 * Reads of another module's tables in joins and reports. Each pair is one module reading one foreign table; a
 * new pair fails until it is listed here or the read goes through the owner's repo.
 */
const READS: Record<string, string[]> = {
  // The archive's index joins the stations and networks it indexes (retention, listings).
  archive: ['networks', 'stations'],
  // Billing joins the buyer to its payments, checkouts and invoices.
  billing: ['users'],
  // The back office's payment list joins each payment's buyer, checkout and invoice number.
  invoicing: ['checkout_sessions', 'payments', 'users'],
  // Terms acceptance lists join their users.
  documents: ['terms_acceptances', 'users'],
  // A feed's owner is named by e-mail address in the feed form and list (docs/adr/0081).
  catalogue: ['users'],
  // Notices read what they announce: subscriptions, grants and networks; outage alerts a station's recorded states,
  // the connection log of the rovers it served, their accounts' owners, the owner of the station's feed and the
  // admins (docs/adr/0070, 0081).
  mail: [
    'access_grants',
    'feeds',
    'networks',
    'ntrip_accounts',
    'ntrip_sessions',
    'products',
    'station_state_changes',
    'stations',
    'subscriptions',
    'users',
  ],
  // The caster's authorize and catalogue ports: one statement per decision (docs/adr/0010, 0026).
  ntrip: [
    'access_grants',
    'feeds',
    'networks',
    'ntrip_accounts',
    'organization_members',
    'organizations',
    'stations',
    'users',
  ],
  // Diagnostics of one account: its refusals and login failures, and who may see them.
  'ntrip-diagnostics': ['ntrip_accounts', 'ntrip_login_failures', 'ntrip_refusals', 'organization_members'],
  // The operator dashboard's figures across the portal (docs/adr/0027).
  operator: [
    'access_grants',
    'networks',
    'payments',
    'products',
    'refunds',
    'rinex_jobs',
    'stations',
    'subscriptions',
    'token_ledger',
  ],
  // Members' e-mails, and the accounts a leaving member holds.
  organizations: ['ntrip_accounts', 'users'],
  // RINEX access checks (grants, subscriptions, memberships) and the archive's hours of the catalogue's stations.
  rinex: [
    'access_grants',
    'archive_hours',
    'networks',
    'organization_members',
    'products',
    'stations',
    'subscriptions',
  ],
  // Who changed a setting.
  settings: ['users'],
  // The public status page: the catalogue's public stations and their recorded states (docs/adr/0068).
  status: ['networks', 'station_state_changes', 'stations'],
  // An owner's endpoint count is taken under a lock on its users or organizations row (the limit of 10); an NTRIP
  // account's events go to its organisation or its owner.
  webhooks: ['ntrip_accounts', 'organizations', 'users'],
  // The latest terms version, read with the identity on every request.
  users: ['legal_documents'],
};

interface TableUse {
  table: string;
  write: boolean;
  line: number;
}

/** The tables a source names in SQL text and Kysely calls; comments are left out. */
function tablesUsed(source: string, tables: ReadonlySet<string>): TableUse[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|\s)\/\/.*$/gm, '$1');
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  const uses: TableUse[] = [];
  for (const m of code.matchAll(
    /\b(DELETE\s+FROM|FROM|JOIN|INTO|UPDATE|TRUNCATE(?:\s+TABLE)?)\s+([a-z_][a-z0-9_]*)/g,
  )) {
    const [, keyword = '', table = ''] = m;
    if (tables.has(table)) uses.push({ table, write: !/^(FROM|JOIN)$/.test(keyword), line: lineOf(m.index) });
  }
  for (const m of code.matchAll(
    /\.(selectFrom|innerJoin|leftJoin|rightJoin|fullJoin|insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"`]([a-z_][a-z0-9_]*)/g,
  )) {
    const [, call = '', table = ''] = m;
    if (tables.has(table)) uses.push({ table, write: !/^(selectFrom|\w+Join)$/.test(call), line: lineOf(m.index) });
  }
  return uses;
}

function owners(): Map<string, string> {
  const map = new Map<string, string>();
  for (const row of readFileSync(join(server, '../docs/data-model.md'), 'utf8').matchAll(/^\|([^|]+)\|([^|]+)\|/gm)) {
    const tables = (row[1] ?? '').split(',').map((t) => t.trim());
    const owner = (row[2] ?? '').trim();
    if (!/^[a-z-]+$/.test(owner) || !tables.every((t) => /^[a-z_]+$/.test(t))) continue;
    for (const table of tables) map.set(table, owner);
  }
  for (const module of readdirSync(modulesDir)) {
    for (const file of readdirSync(join(modulesDir, module), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.tables.ts')) continue;
      const declared = /interface DB \{([^}]*)\}/.exec(readFileSync(join(modulesDir, module, file), 'utf8'));
      for (const m of (declared?.[1] ?? '').matchAll(/^\s*([a-z_]+):/gm)) {
        if (m[1] && !map.has(m[1])) map.set(m[1], module);
      }
    }
  }
  return map;
}

interface Finding {
  module: string;
  file: string;
  use: TableUse;
  owner: string;
}

/** Every use of a table another module owns, in the given sources (module -> file -> text). */
function foreignUses(sources: Map<string, Map<string, string>>, ownerOf: Map<string, string>): Finding[] {
  const tables = new Set(ownerOf.keys());
  const findings: Finding[] = [];
  for (const [module, files] of sources) {
    for (const [file, text] of files) {
      for (const use of tablesUsed(text, tables)) {
        const owner = ownerOf.get(use.table) as string;
        if (owner !== module) findings.push({ module, file, use, owner });
      }
    }
  }
  return findings;
}

function moduleSources(): Map<string, Map<string, string>> {
  const sources = new Map<string, Map<string, string>>();
  for (const module of readdirSync(modulesDir)) {
    const files = new Map<string, string>();
    for (const file of readdirSync(join(modulesDir, module), { recursive: true, encoding: 'utf8' })) {
      if (/\.(ts|mjs)$/.test(file) && !file.endsWith('.tables.ts')) {
        files.set(file, readFileSync(join(modulesDir, module, file), 'utf8'));
      }
    }
    sources.set(module, files);
  }
  return sources;
}

const describeUse = (f: Finding) =>
  `${f.module}/${f.file}:${f.use.line} ${f.use.write ? 'writes' : 'reads'} ${f.use.table} (owner: ${f.owner})`;

const allowed = (f: Finding) => !f.use.write && (READS[f.module] ?? []).includes(f.use.table);

describe('server module boundaries', () => {
  const ownerOf = owners();
  const findings = foreignUses(moduleSources(), ownerOf);

  it('knows an owner for every table the modules name, from docs/data-model.md', () => {
    expect(ownerOf.get('users')).toBe('users');
    expect(ownerOf.get('ntrip_accounts')).toBe('ntrip-accounts');
    expect(ownerOf.get('organization_members')).toBe('organizations');
    expect(ownerOf.get('rinex_jobs')).toBe('rinex');
  });

  it('no module writes another module’s table', () => {
    expect(findings.filter((f) => f.use.write).map(describeUse)).toEqual([]);
  });

  it('no module reads another module’s table, beyond the listed exceptions', () => {
    expect(findings.filter((f) => !f.use.write && !allowed(f)).map(describeUse)).toEqual([]);
  });

  it('lists no exception the code no longer needs', () => {
    const used = new Set(findings.filter((f) => !f.use.write).map((f) => `${f.module} reads ${f.use.table}`));
    const listed = Object.entries(READS).flatMap(([m, tables]) => tables.map((t) => `${m} reads ${t}`));
    expect(listed.filter((e) => !used.has(e))).toEqual([]);
  });

  it('finds a deliberate violation in SQL text and in Kysely calls, and not in comments or own tables', () => {
    const source = [
      '// the users row is locked by the users module: SELECT id FROM users',
      'const a = sql`UPDATE users SET email = NULL`;',
      "await trx.deleteFrom('organization_members').where('user_id', '=', id).execute();",
      "await trx.selectFrom('ntrip_accounts').select('id').execute();",
      'const b = sql`SELECT m.role FROM organization_members m JOIN organizations o ON o.id = m.organization_id`;',
    ].join('\n');
    const found = foreignUses(new Map([['ntrip-accounts', new Map([['probe.ts', source]])]]), ownerOf);
    expect(found.map(describeUse)).toEqual([
      'ntrip-accounts/probe.ts:2 writes users (owner: users)',
      'ntrip-accounts/probe.ts:5 reads organization_members (owner: organizations)',
      'ntrip-accounts/probe.ts:5 reads organizations (owner: organizations)',
      'ntrip-accounts/probe.ts:3 writes organization_members (owner: organizations)',
    ]);
    expect(found.some(allowed)).toBe(false);
  });
});
