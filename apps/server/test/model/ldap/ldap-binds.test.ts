import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BindFacts, decideBind } from "../../../src/model/ldap/binds.ts";
import { createApplicationPassword } from "../../../src/model/ldap/passwords.ts";
import { ldapThrottleKey } from "../../../src/model/ldap/throttle.ts";
import { type AcceptedBindQueue, createAcceptedBindQueue, usesKeptPerPassword } from "../../../src/model/ldap/uses.ts";
import { auditRow } from "../../../src/platform/audit/record.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

/**
 * A bind's reads and writes as statements (model/ldap/bind-lookup.ts, binds.ts): the responder's rate is bounded
 * by its round trips (bench/ldap.bench.ts), so an accepted bind with an application password is one read, its
 * audit row and use written after with others in one statement; every refusal is counted and recorded before its
 * answer, in the same statements whatever refused it.
 */
describe.each(databaseKinds)("an LDAP bind's statements (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let userId = "";
  let password = "";
  let uses: AcceptedBindQueue;
  const labMachine = "10.20.0.9";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
    uses = createAcceptedBindQueue(t.app.db, { flushAfterMs: 60_000 });
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
        recordAccepted: uses.add,
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
      .orderBy("audit_events.id")
      .execute();

  it("answers an accepted bind after one read, and an unknown name and a wrong password alike after three", async () => {
    const accepted = await statementsOf(() => bind({}));
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).not.toMatch(/insert|update|delete|throttle_take/i);
    for (const facts of [{ dn: "uid=nobody,ou=people,dc=kpi,dc=ua" }, { password: "not-the-password" }]) {
      expect(await statementsOf(() => bind(facts))).toHaveLength(3);
    }
    // The refusals are written before their answers, the accepted bind's row with the next batch.
    expect(await auditRows("unknown_person")).toHaveLength(1);
    expect(await auditRows("wrong_password")).toHaveLength(1);
    expect(await auditRows(null)).toHaveLength(0);
    expect(await statementsOf(() => uses.flush())).toHaveLength(1);
    expect(await auditRows(null)).toHaveLength(1);
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

  it("loses at most the records not yet written when KPI ID stops without flushing; a full queue waits, never drops", async () => {
    await bind({});
    await uses.flush();
    const written = (await usesOf()).length;
    const rows = (await auditRows(null)).length;
    const accepted = () => ({
      audit: auditRow({ type: "ldap_bind", result: "success", userId, occurredAt: clock.now(), ip: labMachine }),
    });
    // A crash: the queue's waiting records are gone with the process; those written stay.
    const crashed = createAcceptedBindQueue(t.app.db, { flushAfterMs: 60_000, limit: 2 });
    expect(crashed.add(accepted())).toBeUndefined();
    expect(crashed.add(accepted())).toBeUndefined();
    expect(await usesOf()).toHaveLength(written);
    expect(await auditRows(null)).toHaveLength(rows);
    // Full: the third waits for the first two to be written, and takes its place.
    await crashed.add(accepted());
    expect(await auditRows(null)).toHaveLength(rows + 2);
    await crashed.flush();
    expect(await auditRows(null)).toHaveLength(rows + 3);
    expect(crashed.lost).toBe(0);
  });

  it("clears the name's and a known client's failures when the person binds, as a sign-in clears its account's", async () => {
    // Earlier counts forgotten; the lab machine known from a written use.
    clock.advance(2 * 60 * 60);
    await bind({});
    await uses.flush();
    const elsewhere = "192.0.2.44";
    // The name's rule lets three wrong passwords through before it waits, a known client's five.
    for (const [peer, free] of [
      [elsewhere, 3],
      [labMachine, 5],
    ] as const) {
      for (let round = 0; round < 3; round++) {
        for (let n = 0; n < free; n++) {
          expect(await bind({ peer, password: `mistyped-${round}-${n}` })).toMatchObject({ refusal: "wrong_password" });
        }
        expect(await bind({ peer }), `${peer}, round ${round}`).toMatchObject({ accepted: true });
      }
    }
    // The failures are still counted: one more than the free ones and the name waits, even for the right password.
    for (let n = 0; n < 4; n++) await bind({ peer: elsewhere, password: `guess-${n}` });
    expect(await bind({ peer: elsewhere })).toMatchObject({ accepted: false, refusal: "throttled" });
    // The known client is counted by itself: it still binds.
    expect(await bind({ peer: labMachine })).toMatchObject({ accepted: true });
  });
});
