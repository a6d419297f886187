import { machineryOn } from "../bench-switches.ts";

/** What a notification on the cache channel says changed (migration 0310_cache_notifications). */
export type CacheChange = { kind: "all" } | NamedChange;
/** A change that names the sessions, people or OpenID Connect grants (0470_oidc_token_cache) it touched. */
export interface NamedChange {
  kind: "session" | "person" | "grant";
  ids: ReadonlySet<string>;
}

/** Reads a payload of the cache channel; anything it does not know drops everything. */
export function parseCacheChange(payload: string): CacheChange {
  const match = /^(session|person|grant):(.+)$/.exec(payload);
  const kind = match?.[1];
  if ((kind !== "session" && kind !== "person" && kind !== "grant") || !match?.[2]) return { kind: "all" };
  return { kind, ids: new Set(match[2].split(",")) };
}

interface Entry<V> {
  value: V;
  /** Epoch ms after which the entry is not used. */
  validUntil: number;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The named changes a cache remembers, so that a read in flight across them is kept when none touches it; a read
 * that began before the oldest remembered one is not kept.
 */
const recentChangesKept = 64;

/** The cache stops serving when it has heard nothing of its own on the channel for this long (feed.ts). */
export const deafAfterMs = 15_000;

export interface FeedCacheOptions<V> {
  /** Entries kept at most; 0 keeps none. */
  capacity: number;
  /** The tables a value is read from: this process writing one of them holds the cache back until heard. */
  readsTables: readonly string[];
  /** Whether a change that names sessions or people touches this value ("all" touches every value). */
  touchedBy(value: V, change: NamedChange): boolean;
  monotonicNow?: () => number;
}

/** What the change feed (feed.ts) drives in a cache, whatever it holds. */
export interface FollowsChanges {
  readonly awaitsMark: boolean;
  readonly isDeaf: boolean;
  reads(tables: Iterable<string>): boolean;
  changed(change: CacheChange): void;
  setListening(state: boolean): void;
  heard(): void;
  awaitMark(mark: number): void;
  markHeard(mark: number): void;
}

/**
 * Answers this instance read from PostgreSQL, kept so that asking again costs no round trip. PostgreSQL stays
 * the truth: an entry is kept only while the change channel is listened to, is dropped when a notification
 * touches it (or says everything changed), and lives at most until its `validUntil`. Entries are frozen:
 * requests share them.
 *
 * A read races a change: `mark()` before reading and `store(…, mark)` after it keep the answer only if no change
 * in between touched it (per entry: a notification naming one grant or person spoils no other read in flight). A
 * change this process commits to a table the cache reads is heard on the channel a moment later; until a marker sent after it comes back (`awaitMark`, `markHeard`), nothing is served, so a person who
 * signs out and asks again at once is never answered from memory. It also serves nothing once it has heard
 * nothing of its own (a heartbeat, a marker) for `deafAfterMs`: a listening connection can go deaf without an
 * error.
 */
export class FeedCache<V> implements FollowsChanges {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly capacity: number;
  private readonly readsTables: ReadonlySet<string>;
  private readonly touchedBy: (value: V, change: NamedChange) => boolean;
  private readonly monotonicNow: () => number;
  /** Counts every change heard or made; `mark()` is its value when a read begins. */
  private version = 0;
  /** The version of the last change that touched everything (all, the channel lost or found, a write held back). */
  private clearedAt = 0;
  /** The latest named changes, each with its version: a read in flight is kept unless one of them touches it. */
  private readonly recent: { version: number; touches: (key: string, value: V) => boolean }[] = [];
  private listening = false;
  private awaitedMark = 0;
  private heardMark = 0;
  private lastHeard = Number.NEGATIVE_INFINITY;

  constructor(options: FeedCacheOptions<V>) {
    this.capacity = options.capacity;
    this.readsTables = new Set(options.readsTables);
    this.touchedBy = options.touchedBy;
    this.monotonicNow = options.monotonicNow ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether changes are being heard: listening, and its own heartbeat came back lately (the metrics show it). */
  get isHearing(): boolean {
    return this.capacity > 0 && this.listening && this.monotonicNow() - this.lastHeard <= deafAfterMs;
  }

  /** Listening, yet nothing of its own heard for too long: the connection should be made anew. */
  get isDeaf(): boolean {
    return this.listening && !this.isHearing;
  }

  /** A marker of this process' change is sent and not yet heard back. */
  get awaitsMark(): boolean {
    return this.heardMark < this.awaitedMark;
  }

  private get serving(): boolean {
    return this.isHearing && !this.awaitsMark;
  }

  /** Whether a statement writing these tables changes what this cache holds. */
  reads(tables: Iterable<string>): boolean {
    for (const table of tables) if (this.readsTables.has(table)) return true;
    return false;
  }

  mark(): number {
    return this.version;
  }

  get(key: string, now: number): V | undefined {
    if (!this.serving || !machineryOn("listen-caches")) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.validUntil > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Whether a change since `mark` may have made this answer stale: it touched it, or what it was is forgotten. */
  private changedSince(mark: number, key: string, value: V): boolean {
    if (mark < this.clearedAt) return true;
    if (mark === this.version) return false;
    const oldest = this.recent[0];
    if (!oldest || oldest.version > mark + 1) return true;
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const change = this.recent[i];
      if (!change || change.version <= mark) break;
      if (change.touches(key, value)) return true;
    }
    return false;
  }

  store(key: string, value: V, validUntil: number, mark: number, now: number): void {
    if (!this.serving || !machineryOn("listen-caches") || validUntil <= now || this.changedSince(mark, key, value))
      return;
    this.entries.delete(key);
    this.entries.set(key, { value: deepFreeze(value), validUntil });
    // Oldest first: past entries at the front go, and the oldest while over capacity.
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.capacity && entry.validUntil > now) break;
      this.entries.delete(oldest);
    }
  }

  /** A change that touches every answer: entries go, and no read in flight is kept. */
  private clearAll(): void {
    this.version += 1;
    this.clearedAt = this.version;
    this.recent.length = 0;
  }

  /** A change that touches some answers: a read in flight is kept only if untouched (the caller drops entries). */
  private remember(touches: (key: string, value: V) => boolean): void {
    this.version += 1;
    this.recent.push({ version: this.version, touches });
    if (this.recent.length > recentChangesKept) this.recent.shift();
  }

  private changedSome(touches: (key: string, value: V) => boolean): void {
    this.remember(touches);
    for (const [key, entry] of this.entries) if (touches(key, entry.value)) this.entries.delete(key);
  }

  changed(change: CacheChange): void {
    if (change.kind === "all") {
      this.clearAll();
      this.entries.clear();
      return;
    }
    this.changedSome((_key, value) => this.touchedBy(value, change));
  }

  /**
   * This process changed the answers kept under these keys, and says so itself (its statement holds nothing back,
   * feed.ts): they go now, and a read of one in flight is not kept. Other instances hear the change on the channel.
   */
  forget(keys: Iterable<string>): void {
    const forgotten = new Set(keys);
    if (forgotten.size === 0) return;
    // By key: a token's every write (each refresh's, each login's) costs no walk over the whole cache.
    this.remember((key) => forgotten.has(key));
    for (const key of forgotten) this.entries.delete(key);
  }

  /** The same for what a change names (a grant this process revoked): as the channel will say, said at once. */
  forgetNamed(change: NamedChange): void {
    this.changedSome((_key, value) => this.touchedBy(value, change));
  }

  /** The channel is listened to, or was lost: either way what was learned before may be stale. */
  setListening(state: boolean): void {
    this.clearAll();
    this.entries.clear();
    this.listening = state;
    if (state) this.heard();
  }

  /** Something this process sent on the channel came back: the channel works. */
  heard(): void {
    this.lastHeard = this.monotonicNow();
  }

  /** This process committed a change: serve nothing until marker `mark` is heard back. */
  awaitMark(mark: number): void {
    this.clearAll();
    this.awaitedMark = Math.max(this.awaitedMark, mark);
  }

  markHeard(mark: number): void {
    this.heard();
    this.heardMark = Math.max(this.heardMark, mark);
  }
}

// For the caches whose every change is announced: an entry's lifetime is only a safety net.
const readThroughTtlMs = 60_000;

/**
 * The answer for `key` from `cache`, or read by `read` and kept for a minute at most when nothing changed
 * meanwhile. Nothing is kept for an undefined answer (no such row: the next ask reads again).
 */
export async function readThrough<V>(
  cache: FeedCache<V>,
  key: string,
  read: () => Promise<V | undefined>,
  now = Date.now(),
): Promise<V | undefined> {
  const cached = cache.get(key, now);
  if (cached !== undefined) return cached;
  const mark = cache.mark();
  const value = await read();
  if (value !== undefined) storeRead(cache, key, value, mark, now);
  return value;
}

/**
 * The same read, always from PostgreSQL (a gate that must see the table now), its answer kept in `cache` for
 * the reads through it that follow (the token endpoint after an authorization) when nothing changed meanwhile.
 */
export async function readFresh<V>(
  cache: FeedCache<V>,
  key: string,
  read: () => Promise<V | undefined>,
  now = Date.now(),
): Promise<V | undefined> {
  const mark = cache.mark();
  const value = await read();
  if (value !== undefined) storeRead(cache, key, value, mark, now);
  return value;
}

/** Keeps an answer read after `mark` was taken (as readThrough would), unless something changed since. */
export function storeRead<V>(cache: FeedCache<V>, key: string, value: V, mark: number, now = Date.now()): void {
  cache.store(key, value, now + readThroughTtlMs, mark, now);
}
