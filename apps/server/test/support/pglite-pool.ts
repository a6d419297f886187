// A test worker's migrated PGlite instances, lent to one test database at a time and put back to the migrated
// state between loans (issue 41). Starting an instance from the migrated files costs about 0.6 s of CPU (its
// files unpacked into memory, PostgreSQL's start-up, and the garbage they leave); putting one back costs a tenth
// of that. Vitest runs the server's files one after another in each worker sharing their modules
// (vitest.config.ts: isolate false), so the instances outlive a file.
//
// A loan sees what a new instance would: the same tables, functions and rows as the migrated files (checked by a
// fingerprint of the schema before the instance is reused; one a test changed is closed instead), empty tables,
// sequences from the start, no session settings, listeners or locks. A loan ends when its handle closes: the
// lent instance then refuses every call as a closed PGlite does, so a timer a finished test left behind fails
// there instead of writing into the next test's database.
import type { PGlite } from "@electric-sql/pglite";
import { createMemoryPglite } from "../../src/platform/db/index.ts";

/** The migrated state an instance is put back to, read from the first instance of the worker. */
interface MigratedState {
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
  union all select format('t:%s', pg_get_triggerdef(oid)) from pg_trigger where not tgisinternal
  union all select format('e:%s:%s:%s', evtname, evtevent, evtfoid::regproc) from pg_event_trigger
  union all select format('w:%s', pg_get_ruledef(oid)) from pg_rewrite
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
  union all select format('s:%s:%s:%s', setdatabase, setrole, setconfig) from pg_db_role_setting
  union all select format('o:%s', count(*)) from pg_largeobject_metadata
) parts`;

async function fingerprint(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ fingerprint: string }>(schemaFingerprint);
  return rows[0]?.fingerprint ?? "";
}

async function readMigratedState(pglite: PGlite): Promise<MigratedState> {
  const tables = (
    await pglite.query<{ name: string }>(
      "select format('%I', tablename) as name from pg_tables where schemaname = 'public' order by tablename",
    )
  ).rows.map((row) => row.name);
  const rows: MigratedState["rows"] = [];
  for (const table of tables) {
    const { rows: found } = await pglite.query<{ json: string | null }>(
      `select json_agg(t)::text as json from ${table} t`,
    );
    const json = found[0]?.json;
    if (json) rows.push({ table, json });
  }
  const { rows: sequences } = await pglite.query<{ name: string; used: boolean }>(
    "select format('%I.%I', schemaname, sequencename) as name, last_value is not null as used from pg_sequences",
  );
  // The migrations use no sequence today; one they did use would need its value kept, not a restart.
  if (sequences.some((sequence) => sequence.used)) {
    throw new Error("a migration used a sequence: the PGlite pool cannot put it back");
  }
  return {
    fingerprint: await fingerprint(pglite),
    tables,
    rows,
    sequences: sequences.map((sequence) => sequence.name),
  };
}

/** Puts a returned instance back to the migrated state; false when a test changed its schema. */
async function putBack(pglite: PGlite, state: MigratedState): Promise<boolean> {
  // A transaction a test left open, then what DISCARD ALL forgets: settings, prepared statements, LISTEN,
  // advisory locks, temporary tables.
  await pglite.exec("rollback").catch(() => {});
  await pglite.exec("discard all");
  if ((await fingerprint(pglite)) !== state.fingerprint) return false;
  await pglite.transaction(async (tx) => {
    if (state.tables.length > 0) await tx.exec(`truncate ${state.tables.join(", ")} restart identity cascade`);
    for (const sequence of state.sequences) await tx.exec(`alter sequence ${sequence} restart`);
    for (const { table, json } of state.rows) {
      await tx.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [json]);
    }
  });
  return true;
}

/** What a loan's holder may not do once its handle is closed: everything but asking whether it is closed. */
function lend(pglite: PGlite, onClose: (stopListening: (() => Promise<void>)[]) => Promise<void>): PGlite {
  let closed = false;
  const stopListening: (() => Promise<void>)[] = [];
  // A listen still under way when the loan ends is waited for, so its callback is stopped with the others.
  const listening: Promise<unknown>[] = [];
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled(listening);
    await onClose(stopListening);
  };
  const refuse = async () => {
    throw new Error("PGlite is closed");
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === "closed") return closed || target.closed;
      if (property === "close" || property === Symbol.asyncDispose) return close;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (closed) return refuse;
      if (property === "listen") {
        return (...args: Parameters<PGlite["listen"]>) => {
          const started = target.listen(...args).then((stop) => {
            stopListening.push(stop);
            return stop;
          });
          listening.push(started);
          return started;
        };
      }
      // PGlite's methods reach its private fields, which exist on the instance, not on this proxy.
      return value.bind(target);
    },
  });
}

interface Pool {
  idle: PGlite[];
  state?: Promise<MigratedState>;
  /** Counts for the pool's own test: an instance lent again is the point of the pool. */
  stats: PglitePoolStats;
}

export interface PglitePoolStats {
  /** Instances started from the migrated files. */
  started: number;
  /** Loans of an instance put back after an earlier loan. */
  lentAgain: number;
  /** Instances closed when returned: a changed schema, a full pool, or a reset that failed. */
  closedOnReturn: number;
}

// On globalThis: a module the worker evaluates again must still find the same instances.
const poolKey = Symbol.for("kpi-id.test.pglite-pool");
const globals = globalThis as { [poolKey]?: Pool };
globals[poolKey] ??= { idle: [], stats: { started: 0, lentAgain: 0, closedOnReturn: 0 } };
const pool: Pool = globals[poolKey];
/** More than the most databases one file holds at once; more would only hold memory. */
const maxIdle = 3;

/**
 * A migrated PGlite instance from the worker's pool, or a new one from the migrated files. Closing it (as the
 * database handle does) returns it to the pool, put back to the migrated state.
 */
export async function borrowMigratedPglite(migratedFiles: Blob): Promise<PGlite> {
  const idle = pool.idle.pop();
  if (idle) pool.stats.lentAgain++;
  else pool.stats.started++;
  const pglite = idle ?? (await createMemoryPglite(migratedFiles));
  pool.state ??= readMigratedState(pglite);
  const state = await pool.state;
  return lend(pglite, (stopListening) => giveBack(pglite, state, stopListening));
}

async function giveBack(pglite: PGlite, state: MigratedState, stopListening: (() => Promise<void>)[]): Promise<void> {
  try {
    for (const stop of stopListening) await stop();
    if (pool.idle.length < maxIdle && !pglite.closed && (await putBack(pglite, state))) {
      pool.idle.push(pglite);
      return;
    }
  } catch {
    // An instance that cannot be put back is not lent again.
  }
  pool.stats.closedOnReturn++;
  if (!pglite.closed) await pglite.close().catch(() => {});
}

/** The worker's counts so far. */
export function pglitePoolStats(): PglitePoolStats {
  return { ...pool.stats };
}
