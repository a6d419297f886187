import { describe, expect, it } from "vitest";
import { deafAfterMs, parseCacheChange, SessionCache } from "../../../src/model/sessions/cache.ts";
import type { SessionWithApplications } from "../../../src/model/sessions/store.ts";
import { oidcPayloadsAnnouncedByWriter, tablesWritten } from "../../../src/platform/cache/feed.ts";
import type { User } from "../../../src/platform/db/schema.ts";
import { AccessTokenCache } from "../../../src/protocols/oidc/token-cache.ts";

const now = Date.parse("2026-03-01T09:00:00Z");

function person(id: string): User {
  return {
    id,
    username: id,
    password_hash: null,
    full_name: "Оксана Мельник",
    email: null,
    verified_email: null,
    first_signed_in_at: null,
    tax_id: null,
    student_id: null,
    employee_id: null,
    status: "active",
    created_at: new Date(now),
    updated_at: new Date(now),
    require_mfa: false,
    scim_external_id: null,
    scim_deleted_at: null,
    scim_attributes: null,
    language: null,
    anonymised_at: null,
    unit_ids: [],
  };
}

function session(id: string, userId = `person-${id}`): SessionWithApplications {
  return {
    id,
    userId,
    authMethod: "PASSWORD",
    createdAt: new Date(now),
    amr: ["pwd"],
    strongAt: null,
    user: person(userId),
    applications: [],
    consoleRole: false,
  };
}

function listeningCache(capacity = 10) {
  const cache = new SessionCache(capacity);
  cache.setListening(true);
  return cache;
}

describe("the session cache's entries", () => {
  it("keeps nothing read across a change that touches it: the read may predate it", () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.changed({ kind: "person", ids: new Set(["person-a"]) });
    cache.store("a", session("a"), now + 60_000, mark, now);
    cache.store("b", session("b"), now + 60_000, mark, now);
    cache.changed({ kind: "session", ids: new Set(["c"]) });
    cache.store("c", session("c"), now + 60_000, mark, now);
    expect(["a", "b", "c"].map((key) => cache.get(key, now)?.id)).toEqual([undefined, "b", undefined]);
  });

  it("keeps a read across changes to others, per entry, but none across 'all', the channel's loss or its own write", () => {
    const cache = listeningCache();
    const beforeAll = cache.mark();
    cache.changed(parseCacheChange("all"));
    cache.store("a", session("a"), now + 60_000, beforeAll, now);
    const beforeLoss = cache.mark();
    cache.setListening(false);
    cache.setListening(true);
    cache.store("b", session("b"), now + 60_000, beforeLoss, now);
    const beforeWrite = cache.mark();
    cache.awaitMark(1);
    cache.markHeard(1);
    cache.store("c", session("c"), now + 60_000, beforeWrite, now);
    const beforeOthers = cache.mark();
    cache.changed(parseCacheChange("person:someone-else"));
    cache.changed(parseCacheChange("session:another"));
    cache.store("d", session("d"), now + 60_000, beforeOthers, now);
    expect(["a", "b", "c", "d"].map((key) => cache.get(key, now)?.id)).toEqual([undefined, undefined, undefined, "d"]);
  });

  it("keeps no read that began before the oldest change it remembers", () => {
    const cache = listeningCache();
    const longAgo = cache.mark();
    for (let i = 0; i < 100; i++) cache.changed(parseCacheChange(`person:someone-${i}`));
    cache.store("a", session("a"), now + 60_000, longAgo, now);
    const lately = cache.mark();
    cache.changed(parseCacheChange("person:someone-else"));
    cache.store("b", session("b"), now + 60_000, lately, now);
    expect(["a", "b"].map((key) => cache.get(key, now)?.id)).toEqual([undefined, "b"]);
  });

  it("forgets the keys its own process changed, and keeps other reads in flight", () => {
    const cache = listeningCache();
    for (const id of ["a", "b"]) cache.store(id, session(id), now + 60_000, cache.mark(), now);
    const mark = cache.mark();
    cache.forget(["a", "c"]);
    cache.store("c", session("c"), now + 60_000, mark, now);
    cache.store("d", session("d"), now + 60_000, mark, now);
    expect(["a", "b", "c", "d"].map((key) => cache.get(key, now)?.id)).toEqual([undefined, "b", undefined, "d"]);
  });

  it("drops the entries a notification names, by session or by person, and all of them for 'all'", () => {
    const cache = listeningCache();
    for (const id of ["a", "b", "c"]) cache.store(id, session(id), now + 60_000, cache.mark(), now);
    cache.changed(parseCacheChange("session:a"));
    cache.changed(parseCacheChange("person:person-b,person-x"));
    // A grant's id is no session's or person's, even when it is spelled like one.
    cache.changed(parseCacheChange("grant:c,person-c"));
    expect(["a", "b", "c"].map((key) => cache.get(key, now)?.id)).toEqual([undefined, undefined, "c"]);
    cache.changed(parseCacheChange("all"));
    expect(cache.size).toBe(0);
  });

  it("serves nothing while not listening or while its own change is not yet heard back", () => {
    const cache = new SessionCache(10);
    cache.store("a", session("a"), now + 60_000, cache.mark(), now);
    expect(cache.size).toBe(0);
    cache.setListening(true);
    cache.store("a", session("a"), now + 60_000, cache.mark(), now);
    cache.awaitMark(1);
    expect(cache.get("a", now)).toBeUndefined();
    cache.markHeard(1);
    expect(cache.get("a", now)?.id).toBe("a");
    cache.setListening(false);
    expect(cache.get("a", now)).toBeUndefined();
  });

  it("stops serving when nothing of its own comes back on the channel, and serves again when it does", () => {
    let monotonic = 0;
    const cache = new SessionCache(10, () => monotonic);
    cache.setListening(true);
    cache.store("a", session("a"), now + 60_000, cache.mark(), now);
    monotonic += deafAfterMs + 1;
    expect([cache.get("a", now), cache.isHearing, cache.isDeaf]).toEqual([undefined, false, true]);
    cache.heard();
    expect([cache.get("a", now)?.id, cache.isHearing, cache.isDeaf]).toEqual(["a", true, false]);
  });

  it("holds at most its capacity, oldest out first, and nothing past its time", () => {
    const cache = listeningCache(2);
    for (const id of ["a", "b", "c"]) cache.store(id, session(id), now + 60_000, cache.mark(), now);
    expect(["a", "b", "c"].map((key) => cache.get(key, now)?.id)).toEqual([undefined, "b", "c"]);
    expect(cache.get("b", now + 60_000)).toBeUndefined();
  });

  it("hands out frozen answers, so no request can change another's", () => {
    const cache = listeningCache();
    cache.store("a", session("a"), now + 60_000, cache.mark(), now);
    const cached = cache.get("a", now);
    expect(Object.isFrozen(cached?.user)).toBe(true);
    expect(Object.isFrozen(cached?.applications)).toBe(true);
  });

  it("reads an unknown payload as 'everything changed'", () => {
    expect(parseCacheChange("person:")).toEqual({ kind: "all" });
    expect(parseCacheChange("grant:")).toEqual({ kind: "all" });
    expect(parseCacheChange("grant:g1,g2")).toEqual({ kind: "grant", ids: new Set(["g1", "g2"]) });
    expect(parseCacheChange("something new")).toEqual({ kind: "all" });
  });
});

describe("which statements hold the cache back", () => {
  const writesCachedData = (text: string) => new SessionCache(1).reads(tablesWritten(text));

  it("names writes to the tables an answer is read from, and not a session's use noted", () => {
    expect(
      [
        'delete from "sessions" where "token_hash" = $1',
        'update "users" set "status" = $1 where "id" = $2',
        "insert into user_applications (user_id, application_id) values ($1, $2)",
        'with "x" as (delete from "access_exclusions" where "user_id" = $1) insert into "audit_events" values ($2)',
        "TRUNCATE TABLE units",
      ].map(writesCachedData),
    ).toEqual([true, true, true, true, true]);
    expect(
      [
        'update "sessions" set "last_seen_at" = $1, "idle_expires_at" = $2 where "id" = $3',
        'select * from "users" where "id" = $1',
        'insert into "audit_events" ("user_id") values ($1)',
        'update "users_archive" set "x" = 1',
      ].map(writesCachedData),
    ).toEqual([false, false, false, false]);
  });

  it("leaves out oidc_payloads from a statement whose writer announces its own changes, and only that table", () => {
    const tokens = new AccessTokenCache(1);
    const announced = `delete from "oidc_payloads" where "grant_id" = $1 ${oidcPayloadsAnnouncedByWriter}`;
    const withAudit = `with a as (insert into audit_events values ($1)) delete from oidc_payloads where id = $2 ${oidcPayloadsAnnouncedByWriter}`;
    expect([...tablesWritten(announced)]).toEqual([]);
    expect([...tablesWritten(withAudit)]).toEqual(["audit_events"]);
    expect(tokens.reads(tablesWritten(announced))).toBe(false);
    expect(tokens.reads(tablesWritten('delete from "oidc_payloads" where "grant_id" = $1'))).toBe(true);
    // Only at its end: the mark quoted inside a statement's text is no mark.
    expect(
      tokens.reads(tablesWritten(`delete from oidc_payloads where x = '${oidcPayloadsAnnouncedByWriter}' and y = 1`)),
    ).toBe(true);
  });
});
