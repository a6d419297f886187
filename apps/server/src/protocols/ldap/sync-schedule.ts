import { emptyReport, type SyncReport } from "./sync.ts";

/** Changes arriving together (an import, a rule touching many people) make one sync. */
const gatherMs = 100;
/** After a failed sync (slapd restarting, say) the next try: a full pass, whatever failed. */
const retryMs = 2_000;
/** More people than this changed at once: one full pass costs less than their searches. */
const peopleAtOnce = 50;

export interface SyncRuns {
  /** The whole directory made KPI ID's truth. */
  full(): Promise<SyncReport>;
  /** Only these people's entries and the groups they were or are in (person-sync.ts). */
  people(ids: string[]): Promise<SyncReport>;
}

export interface SyncHooks {
  onSynced?: (report: SyncReport, what: "full" | "people") => void;
  onError?: (error: unknown) => void;
}

export interface SyncScheduler {
  /** A full synchronisation now (after any one already running); what it changed. */
  syncNow(): Promise<SyncReport>;
  /** Something changed: these people, or anything else ("all"). Gathered for a moment, then synchronised. */
  changed(change: "all" | string[]): void;
  close(): Promise<void>;
}

/**
 * One sync at a time, in order: a full pass for anything but people, and for a failed sync's retry; only the
 * people named when that is all that changed. What arrives while one runs is gathered for the next.
 */
export function scheduleSyncs(runs: SyncRuns, hooks: SyncHooks): SyncScheduler {
  let closed = false;
  let running: Promise<unknown> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let fullWanted = false;
  const peopleWanted = new Set<string>();

  const runOnce = async (what: "full" | "pending"): Promise<SyncReport> => {
    const full = what === "full" || fullWanted || peopleWanted.size > peopleAtOnce;
    const ids = [...peopleWanted];
    // A full pass covers every change noted so far; a people pass the people taken here.
    if (full) fullWanted = false;
    peopleWanted.clear();
    if (!full && ids.length === 0) return emptyReport();
    try {
      const report = full ? await runs.full() : await runs.people(ids);
      hooks.onSynced?.(report, full ? "full" : "people");
      return report;
    } catch (error) {
      hooks.onError?.(error);
      fullWanted = true;
      if (!closed) schedule(retryMs);
      throw error;
    }
  };
  const enqueue = (what: "full" | "pending"): Promise<SyncReport> => {
    const previous = running ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => runOnce(what));
    // The caller gets the failure through `next`; the chain kept here only orders the syncs.
    running = next
      .catch(() => undefined)
      .finally(() => {
        if (running === tracked) running = undefined;
        if (again && !closed) {
          again = false;
          schedule(gatherMs);
        }
      });
    const tracked = running;
    return next;
  };
  function schedule(afterMs: number): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void enqueue("pending").catch(() => {}), afterMs);
  }

  return {
    syncNow: () => enqueue("full"),
    changed(change) {
      if (change === "all") fullWanted = true;
      else for (const id of change) peopleWanted.add(id);
      schedule(gatherMs);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

/** Parses a change channel's message: a person's change names them; markers, heartbeats and sessions are none. */
export function changeOf(payload: string): "all" | string[] | undefined {
  // The caches' own markers and heartbeats (platform/cache/feed.ts), and sessions, change nothing in the directory.
  if (payload.startsWith("mark:") || payload.startsWith("beat:") || payload.startsWith("session:")) return undefined;
  const people = /^person:([0-9a-f-]{36}(?:,[0-9a-f-]{36})*)$/.exec(payload);
  return people?.[1] ? people[1].split(",") : "all";
}
