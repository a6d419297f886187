import { sql } from "kysely";
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

/**
 * Many binds' uses in one statement: each password's last use, the uses themselves, and only each password's
 * latest uses kept. The CTEs see the tables as they were before the statement, so a password with k new uses
 * keeps `usesKeptPerPassword - k` of its older ones. A password revoked (or a client removed) since its bind is
 * skipped (or its client left out) rather than failing the batch.
 */
export async function recordPasswordUses(db: Db, uses: PasswordUse[]): Promise<void> {
  const batch = latestPerPassword(uses);
  if (batch.length === 0) return;
  const column = <T>(pick: (use: PasswordUse) => T) => batch.map(pick);
  await sql`with batch as (
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

export interface UseQueue {
  /** Notes one use; written with others within `flushAfterMs`. Never waits, never throws. */
  add(use: PasswordUse): void;
  /** Writes what is waiting now (and waits for a write already under way). */
  flush(): Promise<void>;
  /** Uses not written because the queue was full or their write failed (a failed write is also logged). */
  readonly lost: number;
}

export interface UseQueueOptions {
  /** How long a use may wait to be written: what a crash of KPI ID can lose (docs/ldap.md). */
  flushAfterMs?: number;
  /** At most this many wait; more are dropped (a database that cannot keep up must not grow the heap). */
  limit?: number;
  onError?: (error: unknown) => void;
}

/**
 * The uses of accepted binds, written after slapd has its answer, in batches (bench/ldap.bench.ts: a bind's own
 * statements bound the responder's rate). A use is informational (the account page) and makes the address a
 * known client of the person (throttle.ts): until its batch is written, or if KPI ID crashes first, the address
 * is counted as an unknown one, the stricter rule, never a looser one.
 */
export function createUseQueue(db: Db, options: UseQueueOptions = {}): UseQueue {
  const flushAfterMs = options.flushAfterMs ?? 200;
  const limit = options.limit ?? 10_000;
  let waiting: PasswordUse[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let lost = 0;

  const write = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    writing = writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await recordPasswordUses(db, batch);
      } catch (error) {
        lost += batch.length;
        options.onError?.(error);
      }
    });
    return writing;
  };

  return {
    add(use) {
      if (waiting.length >= limit) {
        lost += 1;
        return;
      }
      waiting.push(use);
      timer ??= setTimeout(() => void write(), flushAfterMs).unref();
    },
    flush: write,
    get lost() {
      return lost;
    },
  };
}
