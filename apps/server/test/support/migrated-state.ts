// The migrated state the tests' pooled databases are put back to between loans (issue 41): shared by the PGlite
// pool (pglite-pool.ts) and the PostgreSQL one (postgres-pool.ts), so both refuse to lend again a database whose
// schema a test changed.

/** What both a PGlite instance and a node-postgres client offer: a query with parameters and its rows. */
export interface Queryable {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/** The migrated state a database is put back to, read from the first one the worker lends. */
export interface MigratedState {
  fingerprint: string;
  /** Every table of the public schema, quoted. */
  tables: string[];
  /** Each table that the migrations left rows in (schema_migrations), with those rows as JSON. */
  rows: { table: string; json: string }[];
  sequences: string[];
}

// Everything a test could change in the schema: relations (kind, persistence, row security, access) with their
// columns and defaults, view bodies, sequences' settings, constraints, indexes, triggers, rules, policies, types
// and enum labels, functions with their attributes, extensions, schemas, roles, per-database settings and large
// objects. Planner statistics are left out: they change plans, not answers.
const schemaFingerprint = `select md5(coalesce(string_agg(part, '|' order by part), '')) as fingerprint from (
  select format('c:%s.%s:%s:%s:%s:%s:%s:%s', n.nspname, c.relname, c.relkind, c.relpersistence, c.relrowsecurity,
    c.relacl, case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end, (
    select string_agg(format('%s %s %s %s', a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
      pg_get_expr(d.adbin, d.adrelid)), ',' order by a.attnum)
    from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)) as part
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg\\_%temp\\_%'
  union all select format('q:%s:%s:%s:%s:%s:%s:%s', seqrelid::regclass, seqtypid, seqstart, seqincrement, seqmax,
    seqmin, seqcycle) from pg_sequence
  union all select format('k:%s:%s:%s', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint
  where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  union all select format('i:%s', pg_get_indexdef(i.indexrelid)) from pg_index i join pg_class c on c.oid = i.indrelid
  where c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
  union all select format('t:%s:%s', pg_get_triggerdef(oid), tgenabled) from pg_trigger where not tgisinternal
  union all select format('e:%s:%s:%s', evtname, evtevent, evtfoid::regproc) from pg_event_trigger
  union all select format('w:%s:%s', pg_get_ruledef(oid), ev_enabled) from pg_rewrite
  where ev_class in (select oid from pg_class
    where relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace))
  union all select format('p:%s:%s:%s:%s:%s:%s', polrelid::regclass, polname, polcmd, polpermissive,
    pg_get_expr(polqual, polrelid), pg_get_expr(polwithcheck, polrelid)) from pg_policy
  union all select format('y:%s.%s:%s', typnamespace::regnamespace, typname, typtype) from pg_type
  where typnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
  union all select format('l:%s:%s:%s', enumtypid::regtype, enumsortorder, enumlabel) from pg_enum
  union all select format('f:%s:%s:%s:%s:%s:%s', p.oid::regprocedure, md5(p.prosrc), p.proconfig, p.prosecdef,
    p.provolatile, p.proacl) from pg_proc p
  where p.pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  union all select format('x:%s:%s', extname, extversion) from pg_extension
  union all select format('n:%s:%s', nspname, nspacl) from pg_namespace where nspname not like 'pg\\_%temp\\_%'
  union all select format('r:%s', rolname) from pg_roles
  union all select format('s:%s:%s', setrole, setconfig) from pg_db_role_setting
  where setdatabase in (0, (select oid from pg_database where datname = current_database()))
  union all select format('o:%s', count(*)) from pg_largeobject_metadata
  union all select format('d:%s:%s:%s', datconnlimit, datallowconn, datacl) from pg_database
  where datname = current_database()
) parts`;

export async function fingerprint(database: Queryable): Promise<string> {
  const { rows } = await database.query<{ fingerprint: string }>(schemaFingerprint);
  return rows[0]?.fingerprint ?? "";
}

export async function readMigratedState(database: Queryable): Promise<MigratedState> {
  const tables = (
    await database.query<{ name: string }>(
      "select format('%I', tablename) as name from pg_tables where schemaname = 'public' order by tablename",
    )
  ).rows.map((row) => row.name);
  const rows: MigratedState["rows"] = [];
  for (const table of tables) {
    const { rows: found } = await database.query<{ json: string | null }>(
      `select json_agg(t)::text as json from ${table} t`,
    );
    const json = found[0]?.json;
    if (json) rows.push({ table, json });
  }
  const { rows: sequences } = await database.query<{ name: string; used: boolean }>(
    "select format('%I.%I', schemaname, sequencename) as name, last_value is not null as used from pg_sequences",
  );
  // The migrations use no sequence today; one they did use would need its value kept, not a restart.
  if (sequences.some((sequence) => sequence.used)) {
    throw new Error("a migration used a sequence: the test databases cannot be put back to it");
  }
  return {
    fingerprint: await fingerprint(database),
    tables,
    rows,
    sequences: sequences.map((sequence) => sequence.name),
  };
}
