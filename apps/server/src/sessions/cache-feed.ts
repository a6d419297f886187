import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "../db/index.ts";
import { parseCacheChange, type SessionCache } from "./cache.ts";

/** The channel migration 0310_cache_notifications announces changes on. */
export const cacheChannel = "kpi_id_cache";

// The tables a cached GET /user answer is read from (load.ts; person_affiliations is a view over the records).
const cachedTables = [
  "sessions",
  "users",
  "applications",
  "units",
  "access_rules",
  "user_applications",
  "access_exclusions",
  "student_records",
  "employee_positions",
];
const writesCachedTable = new RegExp(
  `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+(?:only\\s+)?"?(?:${cachedTables.join("|")})"?(?!\\w)`,
  "i",
);
// A session's use noted (load.ts): it changes no cached answer, and the trigger does not announce it either.
const notesSessionUse =
  /^update\s+"sessions"\s+set\s+"last_seen_at"\s*=\s*\$\d+,\s*"idle_expires_at"\s*=\s*\$\d+\s+where\b/i;

/** Whether a statement's text writes one of the tables a cached answer is read from. */
export function writesCachedData(text: string): boolean {
  return writesCachedTable.test(text) && !notesSessionUse.test(text);
}

const markRetryMs = 1_000;
// Well inside cache.ts's deafAfterMs, so one lost heartbeat does not stop the cache.
const heartbeatMs = 5_000;

export interface SessionCacheFeed {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps the cache true to the database. It hears every change on the channel (from any instance, the CLI or
 * psql). After each statement of this process that wrote a table the cache reads, it holds the cache back until
 * a marker sent after that commit is heard, so this process' own change has been heard first (one marker in
 * flight at a time: writes while it travels are covered by the next). A heartbeat of its own every few seconds
 * shows the channel still delivers; when it stops coming back the cache stops serving and the connection is
 * made anew.
 */
export function connectSessionCache(database: DatabaseHandle, cache: SessionCache): SessionCacheFeed {
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
        // The cache serves nothing meanwhile; the latest marker is sent again.
        sending = false;
        if (!closed) retry = setTimeout(sendMark, markRetryMs).unref();
      },
    );
  };

  const subscription = database.listen(cacheChannel, {
    message(payload) {
      if (payload === beat) cache.heard();
      else if (payload.startsWith(markPrefix)) cache.markHeard(Number(payload.slice(markPrefix.length)));
      else if (!payload.startsWith("mark:") && !payload.startsWith("beat:")) cache.changed(parseCacheChange(payload));
    },
    listening(state) {
      cache.setListening(state);
      // A marker sent while the connection was down was never heard: send the latest again.
      if (state && cache.awaitsMark) sendMark();
    },
  });

  const stopWatching = database.onCommitted((text) => {
    if (closed || !writesCachedData(text)) return;
    marks += 1;
    cache.awaitMark(marks);
    sendMark();
  });

  const heartbeat = setInterval(() => {
    if (cache.isDeaf) subscription.restart();
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
