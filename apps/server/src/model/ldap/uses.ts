import { sql } from "kysely";
import { type AuditRow, auditRowsInsert } from "../../platform/audit/record.ts";
import type { Db } from "../../platform/db/schema.ts";

/** Uses kept per application password: the five the account page shows, and enough to know returning clients. */
export const usesKeptPerPassword = 20;

/** An accepted bind with an application password: the account page's "recent uses", the throttle's known clients. */
export interface PasswordUse {
  passwordId: string;
  userId: string;
  clientId: string | null;
  peer: string | null;
  now: Date;
}

/** The latest `usesKeptPerPassword` of each password's uses in `uses`: older ones would be trimmed at once. */
function latestPerPassword(uses: PasswordUse[]): PasswordUse[] {
  const counted = new Map<string, number>();
  const kept: PasswordUse[] = [];
  for (const use of [...uses].sort((a, b) => b.now.getTime() - a.now.getTime())) {
    const count = counted.get(use.passwordId) ?? 0;
    if (count >= usesKeptPerPassword) continue;
    counted.set(use.passwordId, count + 1);
    kept.push(use);
  }
  return kept;
}

/** An accepted bind as recorded after slapd has its answer: its audit row and, with an application password, its use. */
export interface AcceptedBind {
  audit: AuditRow;
  use?: PasswordUse;
}

/**
 * Many accepted binds in one statement, so one commit (one wait for the disk): their audit rows, each password's
 * last use, the uses themselves, and only each password's latest uses kept. The CTEs see the tables as they were
 * before the statement, so a password with k new uses keeps `usesKeptPerPassword - k` of its older ones. A use of
 * a password revoked (or through a client removed) since its bind is skipped (or its client left out) rather than
 * failing the batch; an audit row naming an application removed since fails it (the queue writes such a batch
 * again one bind at a time).
 */
export async function recordAcceptedBinds(db: Db, binds: AcceptedBind[]): Promise<void> {
  if (binds.length === 0) return;
  const audit = binds.map((bind) => bind.audit);
  const batch = latestPerPassword(binds.flatMap((bind) => (bind.use ? [bind.use] : [])));
  const column = <T>(pick: (use: PasswordUse) => T) => batch.map(pick);
  await sql`with audited as (${auditRowsInsert(audit)}),
    batch as (
      select b.password_id, b.user_id, (select c.id from ldap_clients c where c.id = b.client_id) as client_id,
        b.used_at, b.peer
      from unnest(${column((use) => use.passwordId)}::uuid[], ${column((use) => use.userId)}::uuid[],
        ${column((use) => use.clientId)}::uuid[], ${column((use) => use.now.toISOString())}::timestamptz[],
        ${column((use) => use.peer?.slice(0, 100) ?? null)}::text[]) as b(password_id, user_id, client_id, used_at, peer)
      where exists (select 1 from ldap_passwords p where p.id = b.password_id)
    ),
    fresh as (select password_id, max(used_at) as used_at, count(*) as k from batch group by password_id),
    last_used as (
      update ldap_passwords p set last_used_at = greatest(p.last_used_at, fresh.used_at)
      from fresh where p.id = fresh.password_id
    ),
    added as (
      insert into ldap_uses (password_id, user_id, client_id, used_at, peer)
      select password_id, user_id, client_id, used_at, peer from batch
    ),
    trimmed as (
      delete from ldap_uses where id in (
        select ranked.id from (
          select u.id, u.password_id,
            row_number() over (partition by u.password_id order by u.used_at desc, u.id desc) as n
          from ldap_uses u where u.password_id in (select password_id from fresh)
        ) ranked join fresh on fresh.password_id = ranked.password_id
        where ranked.n > ${usesKeptPerPassword} - fresh.k
      )
    )
    select count(*) as recorded from batch`.execute(db);
}

export interface AcceptedBindQueue {
  /**
   * Notes one accepted bind, written with others within `flushAfterMs`. Never throws; answers a promise only when
   * the queue is full, for the bind to wait on (the write under way, then its own place): a database that cannot
   * keep up slows the binds rather than growing the heap or dropping a record.
   */
  add(bind: AcceptedBind): Promise<void> | undefined;
  /** Writes what is waiting now (and waits for a write already under way). */
  flush(): Promise<void>;
  /** Records not written: their batch failed, then their own write (each failure is also passed to onError). */
  readonly lost: number;
}

export interface AcceptedBindQueueOptions {
  /** How long a record may wait to be written: what a crash can lose (docs/ldap.md, docs/performance.md). */
  flushAfterMs?: number;
  /** At most this many wait; a bind past them waits for a write. */
  limit?: number;
  onError?: (error: unknown) => void;
}

/**
 * The records of accepted binds, written after slapd has its answer, all those of `flushAfterMs` in one statement
 * and one commit: a group commit (bench/ldap.bench.ts: a commit that waits for the disk on each bind held KPI ID
 * to 0.04–0.14 of the stand-in's rate). What this costs is durability, bounded: a crash of KPI ID, or of
 * PostgreSQL before the batch's commit, forgets at most the last `flushAfterMs` of accepted binds' audit rows and
 * uses. Refused binds, and the throttle's counts of them, are still written before slapd hears the answer
 * (binds.ts), so no guess is ever forgotten; an accepted bind that is forgotten let in someone who held the
 * password (slapd's own log still has the bind), and an address whose use is not yet written is counted as an
 * unknown one, the stricter rule, never a looser one. A failed batch is tried again after `flushAfterMs`, one
 * bind at a time.
 */
export function createAcceptedBindQueue(db: Db, options: AcceptedBindQueueOptions = {}): AcceptedBindQueue {
  const flushAfterMs = options.flushAfterMs ?? 200;
  const limit = options.limit ?? 10_000;
  let waiting: AcceptedBind[] = [];
  const retried = new WeakSet<AcceptedBind>();
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let lost = 0;

  const schedule = () => {
    timer ??= setTimeout(() => void write(), flushAfterMs).unref();
  };
  const write = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    writing = writing.then(async () => {
      // Written once already and failed: one bind at a time now, so a row that cannot be written loses only itself.
      for (const bind of batch.filter((bind) => retried.has(bind))) {
        try {
          await recordAcceptedBinds(db, [bind]);
        } catch (error) {
          lost += 1;
          options.onError?.(error);
        }
      }
      const fresh = batch.filter((bind) => !retried.has(bind));
      if (fresh.length === 0) return;
      try {
        await recordAcceptedBinds(db, fresh);
      } catch (error) {
        options.onError?.(error);
        for (const bind of fresh) retried.add(bind);
        waiting = [...fresh, ...waiting];
        schedule();
      }
    });
    return writing;
  };

  return {
    add(bind) {
      if (waiting.length < limit) {
        waiting.push(bind);
        schedule();
        return undefined;
      }
      return write().then(() => {
        waiting.push(bind);
        schedule();
      });
    },
    flush: write,
    get lost() {
      return lost;
    },
  };
}
