import { AsyncLocalStorage } from "node:async_hooks";
import { payloadWithRelated } from "../../model/admission/with-access.ts";
import { type RelatedPayloadRow, type StoredPayloadRow, writeDeferred } from "../../model/oidc/request-statements.ts";
import { type AuditEvent, auditRow } from "../../platform/audit/record.ts";
import { machineryOn } from "../../platform/bench-switches.ts";
import type { Db, User } from "../../platform/db/schema.ts";

/** One oidc_payloads row as the adapter writes it (the payload as JSON text, the id as stored). */
export type OidcRow = StoredPayloadRow;

export type OidcLookup = "id" | "uid" | "user_code";

type Write =
  | { kind: "upsert"; row: OidcRow; issued: boolean }
  | { kind: "consume"; type: string; id: string; at: Date }
  | { kind: "destroy"; type: string; id: string };

const keyOf = (type: string, id: string) => `${type}\u0000${id}`;

/**
 * What one request to the provider (or one of our interaction routes) has read from and written to
 * oidc_payloads: the provider reads back what it has just written or read (the interaction twice in a
 * row, a grant it has just saved), and those reads are answered from here. Never shared between
 * requests: a code, a refresh token, a session or a grant may change on another instance at any
 * moment, so the next request reads the table again.
 *
 * With `deferWrites` (the provider's own requests) the writes are kept until the request's end and
 * sent as one statement before its answer leaves (`flush`, mount.ts): a code's use and a refresh
 * token's rotation are then committed, durably, before the client hears of them, as before. A write is
 * deferred only when this memory knows the row well enough to answer later reads of it.
 */
export class OidcRequestMemory {
  /** By type and stored id: the row, or null when it is known not to exist (never was, or destroyed). */
  private readonly rows = new Map<string, OidcRow | null>();
  private readonly writes = new Map<string, Write>();
  private readonly storedIds = new Map<string, string>();
  private audits: AuditEvent[] = [];
  /** Sent early (`startFlush`): the request's end awaits it before its answer leaves. */
  private sending: Promise<void> | undefined;
  /** Run once the writes deferred so far are sent, even when that failed (the adapter's word to token-cache.ts). */
  readonly afterFlush: (() => void)[] = [];

  readonly deferWrites: boolean;
  /** The instance's account cache's mark when the request began (claims.ts keeps what the request read). */
  readonly accountsMark: number | undefined;
  /** The person of the request's KPI ID session, once read (kpi-session.ts). */
  person: User | undefined;
  /** Whether a person may use an application, as this request found it (request-access.ts). */
  readonly access = new Map<string, Promise<boolean>>();

  constructor(deferWrites: boolean, accountsMark?: number) {
    this.deferWrites = deferWrites;
    this.accountsMark = accountsMark;
  }

  /** Each token is hashed once per request (find, consume and destroy all need its stored id). */
  storedId(model: string, id: string, compute: () => string): string {
    const key = keyOf(model, id);
    let stored = this.storedIds.get(key);
    if (stored === undefined) {
      stored = compute();
      this.storedIds.set(key, stored);
    }
    return stored;
  }

  /** The row if known (null: known absent), undefined when the table must be asked. */
  find(type: string, column: OidcLookup, value: string): OidcRow | null | undefined {
    if (column === "id") return this.rows.get(keyOf(type, value));
    for (const row of this.rows.values()) if (row && row.type === type && row[column] === value) return row;
    return undefined;
  }

  /** A row read from the table: remembered, unless this request has destroyed it meanwhile. */
  read(row: OidcRow): OidcRow | undefined {
    const key = keyOf(row.type, row.id);
    const known = this.rows.get(key);
    if (known === null) return undefined;
    if (known) return known;
    this.rows.set(key, row);
    return row;
  }

  absent(type: string, id: string): void {
    this.rows.set(keyOf(type, id), null);
  }

  /**
   * A row written. Its use, if any, is kept from what this request knew of it: the provider saves a
   * code or token once, when issued, or after reading it. True when the write may wait for `flush`.
   */
  upsert(row: OidcRow, issued: boolean): boolean {
    const key = keyOf(row.type, row.id);
    const kept = { ...row, consumed_at: this.rows.get(key)?.consumed_at ?? null };
    this.rows.set(key, kept);
    if (!this.deferWrites) return false;
    this.writes.set(key, { kind: "upsert", row: kept, issued });
    return true;
  }

  /** A use; deferred only when the row is known (a later read here must see it used). */
  consume(type: string, id: string, at: Date): boolean {
    const key = keyOf(type, id);
    const row = this.rows.get(key);
    if (row) this.rows.set(key, { ...row, consumed_at: row.consumed_at ?? at });
    if (!this.deferWrites || !row) return false;
    const pending = this.writes.get(key);
    if (pending?.kind === "upsert") pending.row.consumed_at ??= at;
    else this.writes.set(key, { kind: "consume", type, id, at });
    return true;
  }

  destroy(type: string, id: string): boolean {
    const key = keyOf(type, id);
    this.rows.set(key, null);
    if (!this.deferWrites) return false;
    this.writes.set(key, { kind: "destroy", type, id });
    return true;
  }

  /** An audit row written with the request's other writes (the authorization's oidc_sign_in row). */
  deferAudit(event: AuditEvent): boolean {
    if (!this.deferWrites) return false;
    this.audits.push(event);
    return true;
  }

  /** Every row of a grant is gone (revokeByGrantId, after a flush). */
  revokeGrant(grantId: string): void {
    for (const [key, row] of this.rows) if (row?.grant_id === grantId) this.rows.set(key, null);
  }

  /**
   * Sends the writes deferred so far without waiting, so the token endpoint's work after them (the ID token's
   * signature) overlaps the commit; `flush` awaits it first: the answer still leaves only once it is committed.
   */
  startFlush(db: Db): void {
    if (this.sending || (this.writes.size === 0 && this.audits.length === 0)) return;
    this.sending = this.flush(db);
    // Its failure is the request's: `flush` at the request's end throws it.
    this.sending.catch(() => {});
  }

  /**
   * The deferred writes as one statement (data-modifying CTEs; one write per row, the last of the
   * request's; the audit rows): model/oidc's writeDeferred, which says when it waits for the disk.
   */
  async flush(db: Db): Promise<void> {
    const sending = this.sending;
    this.sending = undefined;
    if (sending) await sending;
    if (this.writes.size === 0 && this.audits.length === 0) return;
    const writes = [...this.writes.values()];
    this.writes.clear();
    const audits = this.audits;
    this.audits = [];
    const announcements = this.afterFlush.splice(0);
    try {
      await writeDeferred(db, {
        destroyed: writes.flatMap((write) => (write.kind === "destroy" ? [write] : [])),
        consumed: writes.flatMap((write) => (write.kind === "consume" ? [write] : [])),
        upserts: writes.flatMap((write) => (write.kind === "upsert" ? [write] : [])),
        audits: audits.map(auditRow),
      });
    } finally {
      for (const announce of announcements) announce();
    }
  }
}

const requestMemory = new AsyncLocalStorage<OidcRequestMemory>();

/** The memory of the request being served, if it runs inside `withOidcMemory`. */
export function currentOidcMemory(): OidcRequestMemory | undefined {
  return requestMemory.getStore();
}

export function withOidcMemory<T>(memory: OidcRequestMemory, run: () => T): T {
  return requestMemory.run(memory, run);
}

/**
 * The provider's first middleware (provider.ts): each provider request keeps what it reads and writes of the
 * provider's storage in its own memory, and sends its writes, with the audit rows its middleware wrote, as one
 * statement before the answer leaves (Koa answers once the whole chain has returned).
 */
export function rememberEachRequest(db: Db, accounts?: { mark(): number }) {
  return async (_ctx: unknown, next: () => Promise<unknown>) => {
    const memory = new OidcRequestMemory(machineryOn("deferred-writes"), accounts?.mark());
    try {
      await withOidcMemory(memory, next);
    } finally {
      await memory.flush(db);
    }
  };
}

const asRow = ({ found: _found, allowed: _allowed, ...row }: RelatedPayloadRow): OidcRow => ({
  ...row,
  payload: JSON.stringify(row.payload),
});

export const accessKey = (userId: string, clientId: string) => `${userId} ${clientId}`;

/**
 * A row by id, with the grant and the provider session it names, in one statement: the provider reads
 * those next in the same request (a code's or token's grant and session at the token and userinfo
 * endpoints, an interaction's grant and session when it resumes). They are remembered for this request
 * only, read in the same snapshot as the row that names them. An interaction read once the request's KPI ID
 * session is known (the provider resuming it) brings whether that person may use its application, which the
 * access prompt and the account lookup ask next (request-access.ts).
 */
export async function selectWithRelated(
  db: Db,
  memory: OidcRequestMemory,
  type: string,
  id: string,
): Promise<OidcRow | undefined> {
  const read = await selectRelated(db, memory, type, id);
  return read && rememberRelated(memory, read);
}

/** A row as `selectRelated` read it, with the grants and the session it names that the table holds. */
export interface RelatedRows {
  found: OidcRow;
  /** The grant its payload names (a token's), whether or not the table holds it. */
  grantId: string | undefined;
  related: OidcRow[];
}

/** The statement of `selectWithRelated`: what the table holds, nothing remembered yet but the interaction's access. */
export async function selectRelated(
  db: Db,
  memory: OidcRequestMemory,
  type: string,
  id: string,
): Promise<RelatedRows | undefined> {
  const person = type === "Interaction" ? memory.person?.id : undefined;
  const rows = await payloadWithRelated(db, type, id, person);
  const found = rows.find((row) => row.found);
  if (!found) return undefined;
  const clientId = (found.payload.params as { client_id?: unknown } | undefined)?.client_id;
  if (person && typeof clientId === "string" && found.allowed !== null)
    memory.access.set(accessKey(person, clientId), Promise.resolve(found.allowed === true));
  const grantId = typeof found.payload.grantId === "string" ? found.payload.grantId : undefined;
  return { found: asRow(found), grantId, related: rows.filter((row) => !row.found).map(asRow) };
}

/** The related rows remembered for the request (a grant the row names but the table lacks, as absent). */
export function rememberRelated(memory: OidcRequestMemory, { found, grantId, related }: RelatedRows): OidcRow {
  // Copies: what was read may also be kept in the instance's memory (token-cache.ts).
  for (const row of related) memory.read({ ...row });
  if (grantId && memory.find("Grant", "id", grantId) === undefined) memory.absent("Grant", grantId);
  return { ...found };
}
