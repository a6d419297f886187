import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BindFacts, decideBind } from "../../../src/model/ldap/binds.ts";
import { createApplicationPassword } from "../../../src/model/ldap/passwords.ts";
import { ldapThrottleKey } from "../../../src/model/ldap/throttle.ts";
import { createUseQueue, type UseQueue, usesKeptPerPassword } from "../../../src/model/ldap/uses.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

/**
 * A bind's reads and writes as statements (model/ldap/bind-lookup.ts, binds.ts): the responder's rate is bounded
 * by its round trips (bench/ldap.bench.ts), so a person's bind is two statements whatever its outcome, and the
 * one that records it keeps the audit row and the throttle right; the password's uses follow in batches.
 */
describe.each(databaseKinds)("an LDAP bind's statements (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let userId = "";
  let password = "";
  let uses: UseQueue;
  const labMachine = "10.20.0.9";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
    uses = createUseQueue(t.app.db, { flushAfterMs: 60_000 });
    userId = (await addPerson(t.app, { username: "binder", fullName: "Binder" }, "binder's long passphrase")).id;
    password = (
      await createApplicationPassword(t.app.db, t.config.sessionSecrets, userId, { name: "Lab" }, clock.now())
    ).password;
  });
  afterAll(() => t.close());

  const bind = (facts: Partial<BindFacts>) =>
    decideBind(
      {
        db: t.app.db,
        ring: t.config.sessionSecrets,
        throttleSecret: ldapThrottleKey(t.config.saml.pairwiseSalt),
        baseDn: t.config.ldap.baseDn,
        now: clock.now(),
        noteUse: uses.add,
      },
      { dn: "uid=binder,ou=people,dc=kpi,dc=ua", password, ssf: 256, peer: labMachine, ...facts },
    );
  const statementsOf = async (run: () => Promise<unknown>) => {
    const texts: string[] = [];
    const stop = t.app.database.onStatement((text) => texts.push(text));
    await run();
    stop();
    return texts;
  };
  const auditRows = (reason: string | null) =>
    t.app.db
      .selectFrom("audit_events")
      .select("id")
      .where("event_type", "=", "ldap_bind")
      .where((eb) => (reason === null ? eb("reason", "is", null) : eb("reason", "=", reason)))
      .execute();

  it("takes two statements for an accepted bind, an unknown name and a wrong password alike", async () => {
    for (const facts of [{}, { dn: "uid=nobody,ou=people,dc=kpi,dc=ua" }, { password: "not-the-password" }]) {
      expect(await statementsOf(() => bind(facts))).toHaveLength(2);
    }
    expect(await auditRows(null)).toHaveLength(1);
    expect(await auditRows("unknown_person")).toHaveLength(1);
    expect(await auditRows("wrong_password")).toHaveLength(1);
  });

  const usesOf = () =>
    t.app.db
      .selectFrom("ldap_uses")
      .select("used_at")
      .where("user_id", "=", userId)
      .orderBy("used_at", "desc")
      .execute();

  it("writes the uses after the binds, many in one statement", async () => {
    await uses.flush();
    const before = (await usesOf()).length;
    for (let n = 0; n < 3; n++) await bind({});
    // Not yet written: the binds answered without them.
    expect(await usesOf()).toHaveLength(before);
    expect(await statementsOf(() => uses.flush())).toHaveLength(1);
    expect(await usesOf()).toHaveLength(before + 3);
  });

  it("keeps the latest uses of the password, and its last use, whether written one by one or in one batch", async () => {
    for (let n = 0; n < usesKeptPerPassword + 5; n++) {
      clock.advance(60);
      expect(await bind({})).toMatchObject({ accepted: true, userId });
      if (n % 2 === 0) await uses.flush();
    }
    await uses.flush();
    expect(await usesOf()).toHaveLength(usesKeptPerPassword);
    for (let n = 0; n < usesKeptPerPassword + 5; n++) {
      clock.advance(60);
      await bind({});
    }
    await uses.flush();
    const kept = await usesOf();
    expect(kept).toHaveLength(usesKeptPerPassword);
    expect(kept[0]?.used_at.getTime()).toBe(clock.now().getTime());
    const row = await t.app.db
      .selectFrom("ldap_passwords")
      .select("last_used_at")
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at?.getTime()).toBe(clock.now().getTime());
  });

  it("loses at most the uses not yet written when KPI ID stops without flushing, and never more than its limit waits", async () => {
    await bind({});
    await uses.flush();
    const written = (await usesOf()).length;
    // A crash: the queue's waiting uses are gone with the process; those written stay.
    const crashed = createUseQueue(t.app.db, { flushAfterMs: 60_000, limit: 2 });
    for (let n = 0; n < 3; n++)
      crashed.add({ passwordId: "x", userId, clientId: null, peer: labMachine, now: clock.now() });
    expect(crashed.lost).toBe(1);
    expect(await usesOf()).toHaveLength(written);
  });
});
