import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "../db/index.ts";
import { type FollowsChanges, parseCacheChange } from "./feed-cache.ts";

/** The channel migration 0310_cache_notifications announces changes on. */
export const cacheChannel = "kpi_id_cache";

// The table after each write in a statement's text (a CTE may write several). A word that is no table
// ("do update set", "for update skip") names nothing any cache reads.
const writtenTable = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?"?(\w+)"?/gi;
// A session's use noted (load.ts): it changes no cached answer, and the trigger does not announce it either.
const notesSessionUse =
  /^update\s+"sessions"\s+set\s+"last_seen_at"\s*=\s*\$\d+,\s*"idle_expires_at"\s*=\s*\$\d+\s+where\b/i;

/**
 * Ends a statement whose writes to oidc_payloads its writer tells this process' caches of itself, entry by entry
 * (the OpenID Connect adapter, oidc/token-cache.ts): that table's write then holds no cache back. Other
 * instances hear it on the channel, as any change.
 */
export const oidcPayloadsAnnouncedByWriter = "/* oidc_payloads: announced by its writer */";

/** The tables a statement's text writes, lower-cased; none for a session's use noted. */
export function tablesWritten(text: string): ReadonlySet<string> {
  if (notesSessionUse.test(text)) return new Set();
  const tables = new Set(Array.from(text.matchAll(writtenTable), (match) => (match[1] ?? "").toLowerCase()));
  if (text.endsWith(oidcPayloadsAnnouncedByWriter)) tables.delete("oidc_payloads");
  return tables;
}

const markRetryMs = 1_000;
// Well inside feed-cache.ts's deafAfterMs, so one lost heartbeat does not stop the caches.
const heartbeatMs = 5_000;

export interface CacheFeed {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps the caches true to the database. They hear every change on the channel (from any instance, the CLI or
 * psql). After each statement of this process that wrote a table a cache reads, that cache is held back until
 * a marker sent after the commit is heard, so this process' own change has been heard first (one marker in
 * flight at a time: writes while it travels are covered by the next). A heartbeat of its own every few seconds
 * shows the channel still delivers; when it stops coming back the caches stop serving and the connection is
 * made anew.
 */
export function connectCacheFeed(database: DatabaseHandle, caches: readonly FollowsChanges[]): CacheFeed {
  const id = randomUUID();
  const markPrefix = `mark:${id}:`;
  const beat = `beat:${id}`;
  let marks = 0;
  let closed = false;
  let sending = false;
  let sendAgain = false;
  let retry: NodeJS.Timeout | undefined;

  const sendMark = (): void => {
    if (closed) return;
    if (sending) {
      sendAgain = true;
      return;
    }
    sending = true;
    sendAgain = false;
    clearTimeout(retry);
    subscription.send(`${markPrefix}${marks}`).then(
      () => {
        sending = false;
        if (sendAgain) sendMark();
      },
      () => {
        // The caches held back serve nothing meanwhile; the latest marker is sent again.
        sending = false;
        if (!closed) retry = setTimeout(sendMark, markRetryMs).unref();
      },
    );
  };

  const subscription = database.listen(cacheChannel, {
    message(payload) {
      if (payload === beat) for (const cache of caches) cache.heard();
      else if (payload.startsWith(markPrefix)) {
        const mark = Number(payload.slice(markPrefix.length));
        for (const cache of caches) cache.markHeard(mark);
      } else if (!payload.startsWith("mark:") && !payload.startsWith("beat:")) {
        const change = parseCacheChange(payload);
        for (const cache of caches) cache.changed(change);
      }
    },
    listening(state) {
      for (const cache of caches) cache.setListening(state);
      // A marker sent while the connection was down was never heard: send the latest again.
      if (state && caches.some((cache) => cache.awaitsMark)) sendMark();
    },
  });

  const stopWatching = database.onCommitted((text) => {
    if (closed) return;
    const tables = tablesWritten(text);
    if (tables.size === 0) return;
    const heldBack = caches.filter((cache) => cache.reads(tables));
    if (heldBack.length === 0) return;
    marks += 1;
    for (const cache of heldBack) cache.awaitMark(marks);
    sendMark();
  });

  const heartbeat = setInterval(() => {
    if (caches.some((cache) => cache.isDeaf)) subscription.restart();
    subscription.send(beat).catch(() => {});
  }, heartbeatMs).unref();

  return {
    ready: subscription.ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      stopWatching();
      await subscription.close();
    },
  };
}
