import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BindFacts, decideBind, type LdapBindContext } from "../../src/model/ldap/binds.ts";
import { registerLdapClient } from "../../src/model/ldap/clients.ts";
import { createApplicationPassword } from "../../src/model/ldap/passwords.ts";
import { ldapThrottleKey } from "../../src/model/ldap/throttle.ts";
import { type AcceptedBindQueue, createAcceptedBindQueue } from "../../src/model/ldap/uses.ts";
import { grantRole, revokeRole } from "../../src/model/users/operator-roles.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { addPerson, manualClock, signIn } from "../support/campus.ts";
import { addOperator } from "../support/console.ts";
import { aboveModelDatabase } from "../support/databases.ts";

/**
 * Attacks on LDAP (issue 77): guessing application passwords from a stranger's address (the owner's known client
 * still binds), unknown names and disabled people answered like wrong passwords, binds without TLS, DNs that are
 * not ours, and the account page's limits. The decisions are the responder's (model/ldap/binds.ts); slapd's own
 * part is in test/protocols/ldap.
 */
describe("attacks on LDAP application passwords", () => {
  let t: TestApp;
  let dir: string;
  const clock = manualClock();
  const owner = { username: "owner", password: "owner's long passphrase" };
  let ownerId = "";
  let ownerPassword = "";
  let uses: AcceptedBindQueue;
  const labMachine = "10.20.0.5";
  const stranger = "203.0.113.66";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kpi-id-ldap-attacks-"));
    // LDAP on, with no slapd behind the socket: the account API is served, the sync only retries.
    t = await createTestApp(
      aboveModelDatabase,
      { LDAP_LDAPI_PATH: join(dir, "no-slapd"), LDAP_BIND_SOCKET: join(dir, "bind.sock") },
      { clock: clock.now },
    );
    uses = createAcceptedBindQueue(t.app.db, { flushAfterMs: 60_000 });
    ownerId = (await addPerson(t.app, { username: owner.username, fullName: "Owner" }, owner.password)).id;
    await addPerson(t.app, { username: "other", fullName: "Other" }, "other's long passphrase");
    ownerPassword = (
      await createApplicationPassword(t.app.db, t.config.sessionSecrets, ownerId, { name: "Lab" }, clock.now())
    ).password;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const context = (): LdapBindContext => ({
    db: t.app.db,
    ring: t.config.sessionSecrets,
    throttleSecret: ldapThrottleKey(t.config.saml.pairwiseSalt),
    baseDn: t.config.ldap.baseDn,
    now: clock.now(),
    recordAccepted: uses.add,
  });
  const bind = (facts: Partial<BindFacts>) =>
    decideBind(context(), { dn: "uid=owner,ou=people,dc=kpi,dc=ua", password: ownerPassword, ssf: 256, ...facts });

  it("the owner's lab machine, known from an earlier bind, still binds while a stranger's guesses hold the name", async () => {
    expect(await bind({ peer: labMachine })).toMatchObject({ accepted: true, as: "person", userId: ownerId });
    // The use that makes the lab machine known is written after the bind, with others (model/ldap/uses.ts).
    await uses.flush();
    for (let guess = 0; guess < 12; guess++) {
      expect(await bind({ peer: stranger, password: `guess-${guess}` })).toMatchObject({ accepted: false });
    }
    // The right password from the stranger's address (or any unknown one) now waits…
    expect(await bind({ peer: "198.51.100.7" })).toMatchObject({ accepted: false, refusal: "throttled" });
    // …but not from the machine the owner uses.
    expect(await bind({ peer: labMachine })).toMatchObject({ accepted: true });
    // Its own binds, written as uses, keep it known: still bound while the stranger goes on.
    for (let bound = 0; bound < 5; bound++) {
      expect(await bind({ peer: labMachine })).toMatchObject({ accepted: true });
      await uses.flush();
      expect(await bind({ peer: stranger, password: `more-${bound}` })).toMatchObject({ accepted: false });
    }
    expect(await bind({ peer: labMachine })).toMatchObject({ accepted: true });
    clock.advance(2 * 60 * 60);
  });

  it("answers an unknown name, a disabled person and a wrong password alike, and refuses the KPI ID password", async () => {
    for (const facts of [
      { dn: "uid=nobody,ou=people,dc=kpi,dc=ua" },
      { password: "wrong-password-entirely" },
      { password: owner.password },
    ]) {
      const decision = await bind({ peer: labMachine, ...facts });
      expect(decision.accepted).toBe(false);
    }
  });

  it("refuses binds without TLS and DNs that are not a person's or a client's", async () => {
    expect(await bind({ ssf: 0 })).toMatchObject({ accepted: false, refusal: "no_tls" });
    expect(await bind({ ssf: 56 })).toMatchObject({ accepted: false, refusal: "no_tls" });
    for (const dn of [
      "uid=owner,ou=people,dc=evil,dc=ua",
      "uid=owner\\2c,ou=people,dc=kpi,dc=ua",
      "cn=owner,ou=people,dc=kpi,dc=ua",
      "uid=owner,ou=clients,dc=kpi,dc=ua",
      "",
      "uid=owner,ou=people,dc=kpi,dc=ua,o=x",
    ]) {
      expect(await bind({ dn })).toMatchObject({ accepted: false, refusal: "not_ours" });
    }
  });

  it("the account page: a stale sign-in cannot create, another person's password cannot be revoked, ten at most", async () => {
    const cookie = await signIn(t.app, owner.username, owner.password);
    clock.advance(t.config.reauthMaxAgeSeconds + 1);
    const stale = await postJson(t.app, "/api/account/ldap", { name: "Late" }, { headers: { cookie } });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe("auth.reauth_required");

    const fresh = await signIn(t.app, owner.username, owner.password);
    const mine = (await t.app.inject({ method: "GET", url: "/api/account/ldap", headers: { cookie: fresh } })).json();
    const otherCookie = await signIn(t.app, "other", "other's long passphrase");
    const foreign = await postJson(t.app, `/api/account/ldap/${mine.passwords[0].id}/revoke`, undefined, {
      headers: { cookie: otherCookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe("ldap.password_not_found");

    // Without the service's own Origin the change is refused (CSRF), as every account change.
    const crossSite = await postJson(
      t.app,
      "/api/account/ldap",
      { name: "Evil" },
      {
        headers: { cookie: fresh, origin: "https://evil.example" },
      },
    );
    expect(crossSite.statusCode).toBe(403);

    for (let n = 2; n <= 10; n++) {
      const made = await postJson(t.app, "/api/account/ldap", { name: `App ${n}` }, { headers: { cookie: fresh } });
      expect(made.statusCode).toBe(200);
    }
    const eleventh = await postJson(t.app, "/api/account/ldap", { name: "One more" }, { headers: { cookie: fresh } });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().code).toBe("ldap.limit_reached");
    const list = await t.app.inject({ method: "GET", url: "/api/account/ldap", headers: { cookie: fresh } });
    expect(list.body).not.toContain(ownerPassword);
    expect(list.body).not.toMatch(/hash/i);
    expect(list.json().passwords[0].uses).toBeDefined();
  });

  it("the KPI ID password: only from an allowing client's addresses, only for a plain person, guesses throttled", async () => {
    const lab = "10.77.0.1";
    await registerLdapClient(
      t.app.db,
      {
        name: "lab-attacks",
        title: "Lab",
        applicationId: null,
        subtree: "people",
        attributes: ["uid"],
        addresses: [lab],
        kpiPasswordAllowed: true,
      },
      clock.now(),
    );
    const plain = { dn: "uid=plain,ou=people,dc=kpi,dc=ua", password: "plain person's passphrase" };
    await addPerson(t.app, { username: "plain", fullName: "Plain" }, plain.password);
    const withHasher = { ...context(), verifyAccountPassword: t.app.passwordHasher.verify };
    const attempt = (facts: Partial<BindFacts>) => decideBind(withHasher, { ...plain, ssf: 256, ...facts });
    // From an address the client does not name, the KPI ID password is just a wrong application password.
    expect(await attempt({ peer: stranger })).toMatchObject({ accepted: false, refusal: "wrong_password" });
    expect(await attempt({ peer: lab, ssf: 0 })).toMatchObject({ accepted: false, refusal: "no_tls" });
    expect(await attempt({ peer: lab })).toMatchObject({ accepted: true, with: "kpi_password" });
    // The owner of a console role is refused even with the right password; the responder's answer is the same 49.
    await grantRole(t.app.db, ownerId, "admin");
    const operator = { dn: "uid=owner,ou=people,dc=kpi,dc=ua", password: owner.password };
    expect(await attempt({ peer: lab, ...operator })).toMatchObject({ refusal: "kpi_password_refused" });
    await revokeRole(t.app.db, ownerId, "admin");
    // Guessing the KPI ID password through the lab is counted as any bind: the name is held after enough tries.
    for (let guess = 0; guess < 12; guess++) await attempt({ peer: lab, password: `guess-${guess}` });
    expect(await attempt({ peer: "198.51.100.9" })).toMatchObject({ accepted: false, refusal: "throttled" });
    clock.advance(2 * 60 * 60);
  });

  it("the console's LDAP clients: a name that is not a DN's plain word, and a cross-site registration, refused", async () => {
    const admin = await addOperator(t.app, ["admin"]);
    const body = {
      title: "X",
      applicationId: null,
      subtree: "people",
      attributes: ["uid"],
      addresses: [],
      kpiPasswordAllowed: false,
    };
    for (const name of ["x,ou=people", "*", "Upper", "a b", "", "x".repeat(64), "-lead"]) {
      const refused = await postJson(
        t.app,
        "/api/admin/ldap/clients",
        { ...body, name },
        { headers: { cookie: admin.cookie } },
      );
      expect(refused.statusCode, name).toBe(400);
    }
    const tooMuch = await postJson(
      t.app,
      "/api/admin/ldap/clients",
      { ...body, name: "tax", attributes: ["uid", "taxId"] },
      { headers: { cookie: admin.cookie } },
    );
    expect(tooMuch.statusCode).toBe(400);
    const crossSite = await postJson(
      t.app,
      "/api/admin/ldap/clients",
      { ...body, name: "evil" },
      { headers: { cookie: admin.cookie, origin: "https://evil.example" } },
    );
    expect(crossSite.statusCode).toBe(403);
    const removeCrossSite = await postJson(
      t.app,
      "/api/admin/ldap/clients/lab-attacks/remove",
      {},
      {
        headers: { cookie: admin.cookie, origin: "https://evil.example" },
      },
    );
    expect(removeCrossSite.statusCode).toBe(403);
    const listed = await t.app.inject({
      method: "GET",
      url: "/api/admin/ldap/clients",
      headers: { cookie: admin.cookie },
    });
    expect(listed.json().clients.map((client: { name: string }) => client.name)).toEqual(["lab-attacks"]);
    expect(listed.body).not.toMatch(/secret/i);
  });

  it("is not served where KPI ID runs no slapd", async () => {
    const off = await createTestApp(aboveModelDatabase);
    try {
      const response = await off.app.inject({ method: "GET", url: "/api/account/ldap" });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe("ldap.not_configured");
    } finally {
      await off.close();
    }
  });
});
