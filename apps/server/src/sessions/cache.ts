import type { SessionWithApplications } from "./store.ts";

/** What a notification on the cache channel says changed (migration 0310_cache_notifications). */
export type CacheChange = { kind: "all" } | { kind: "session" | "person"; ids: ReadonlySet<string> };

/** Reads a payload of the cache channel; anything it does not know drops everything. */
export function parseCacheChange(payload: string): CacheChange {
  const match = /^(session|person):(.+)$/.exec(payload);
  if (!match?.[1] || !match[2]) return { kind: "all" };
  return { kind: match[1] === "session" ? "session" : "person", ids: new Set(match[2].split(",")) };
}

interface Entry {
  session: SessionWithApplications;
  /** Epoch ms after which the entry is not used: the session's expiry, or when its last use must be noted. */
  validUntil: number;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The cache stops serving when it has heard nothing of its own on the channel for this long (cache-feed.ts). */
export const deafAfterMs = 15_000;

/**
 * The sessions this instance answered GET /user and the page for, by token hash, so that asking again costs
 * no database round trip. PostgreSQL stays the truth: an entry is kept only while the change channel is
 * listened to, is dropped when a notification names its session or person (or says everything changed), and
 * lives at most until its session must be touched again. Entries are frozen: requests share them.
 *
 * A read races a change: `mark()` before reading and `store(…, mark)` after it keep the answer only if nothing
 * changed in between. A change this process commits is heard on the channel a moment later; until a marker
 * sent after it comes back (`awaitMark`, `markHeard`), nothing is served, so a person who signs out and asks
 * again at once is never answered from memory. It also serves nothing once it has heard nothing of its own
 * (a heartbeat, a marker) for `deafAfterMs`: a listening connection can go deaf without an error.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;
  private version = 0;
  private listening = false;
  private awaitedMark = 0;
  private heardMark = 0;
  private lastHeard = Number.NEGATIVE_INFINITY;
  private readonly monotonicNow: () => number;

  constructor(capacity: number, monotonicNow: () => number = () => performance.now()) {
    this.capacity = capacity;
    this.monotonicNow = monotonicNow;
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

  mark(): number {
    return this.version;
  }

  get(key: string, now: number): SessionWithApplications | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.validUntil > now) return entry.session;
    this.entries.delete(key);
    return undefined;
  }

  store(key: string, session: SessionWithApplications, validUntil: number, mark: number, now: number): void {
    if (!this.serving || mark !== this.version || validUntil <= now) return;
    this.entries.delete(key);
    this.entries.set(key, { session: deepFreeze(session), validUntil });
    // Oldest first: past entries at the front go, and the oldest while over capacity.
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.capacity && entry.validUntil > now) break;
      this.entries.delete(oldest);
    }
  }

  changed(change: CacheChange): void {
    this.version += 1;
    if (change.kind === "all") {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) {
      const id = change.kind === "session" ? entry.session.id : entry.session.userId;
      if (change.ids.has(id)) this.entries.delete(key);
    }
  }

  /** The channel is listened to, or was lost: either way what was learned before may be stale. */
  setListening(state: boolean): void {
    this.version += 1;
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
    this.version += 1;
    this.awaitedMark = Math.max(this.awaitedMark, mark);
  }

  markHeard(mark: number): void {
    this.heard();
    this.heardMark = Math.max(this.heardMark, mark);
  }
}
