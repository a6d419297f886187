// LDAP's registered clients (issue 77) through the real slapd with the shipped configuration: the console
// registers and removes them, counts their binds, and the application's integration health counts them too; an
// application password tied to one client; the KPI ID password where an operator allows it, and where never.
import { rmSync } from "node:fs";
import type { AdminLdapClients, CreatedLdapPassword, LdapPasswords, RegisteredLdapClient } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerLdapClient } from "../../../src/model/ldap/clients.ts";
import { requireSecondFactor } from "../../../src/model/users/method-lookups.ts";
import { grantRole } from "../../../src/model/users/operator-roles.ts";
import { postJson, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { kpiIdBesideSlapd } from "../../support/ldap-service.ts";
import { addAuthenticator } from "../../support/mfa.ts";
import { ldapTools, type TestSlapd } from "../../support/openldap.ts";

const base = "dc=kpi,dc=ua";
const kpiPassword = "a-lab-login-passphrase-2026";
const dnOf = (username: string) => `uid=${username},ou=people,${base}`;
let dir: string;
let slapd: TestSlapd;
let kpi: TestApp;
let operatorCookie: string;
let applicationId: string;
const whoami = (dn: string, password: string, startTls = true) => ldapTools(slapd).whoami(dn, password, startTls);

const asOperator = (url: string, body?: unknown) =>
  body === undefined
    ? kpi.app.inject({ method: "GET", url, headers: { cookie: operatorCookie } })
    : postJson(kpi.app, url, body, { headers: { cookie: operatorCookie } });

const consoleClients = async (): Promise<AdminLdapClients> => (await asOperator("/api/admin/ldap/clients")).json();

/** A person of the lab's application, without any role or second factor unless a test gives one. */
async function labStudent(username: string) {
  const person = await addPerson(kpi.app, { username, fullName: `Студент ${username}` }, kpiPassword);
  await grantAccess(kpi.app.db, person.id, applicationId);
  return person;
}

beforeAll(async () => {
  ({ dir, slapd, kpi } = await kpiIdBesideSlapd("kpi-id-ldap-clients-"));
  operatorCookie = (await addOperator(kpi.app, ["admin"])).cookie;
  applicationId = (await addApplication(kpi.app)).application.id;
  await kpi.app.ldap?.syncNow();
}, 60_000);

afterAll(async () => {
  await kpi?.close();
  await slapd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the console's LDAP clients", () => {
  it("registers a client whose service account then binds, lists it with its binds, and removes it", async () => {
    const registered = await asOperator("/api/admin/ldap/clients", {
      name: "library",
      title: "Бібліотека",
      applicationId: null,
      subtree: "people",
      attributes: ["uid", "mail"],
      addresses: [],
      kpiPasswordAllowed: false,
    });
    expect(registered.statusCode).toBe(200);
    const library: RegisteredLdapClient = registered.json();
    expect(library.bindDn).toBe(`cn=library,ou=clients,${base}`);
    await kpi.app.ldap?.syncNow();
    expect((await whoami(library.bindDn, library.secret)).code).toBe(0);
    expect((await whoami(library.bindDn, "not-its-secret")).code).toBe(49);
    // Every bind counts in the metrics, by result and reason.
    const metrics = await kpi.app.metrics.registry.metrics();
    expect(metrics).toMatch(/kpi_id_ldap_binds_total\{result="success",reason=""\} [1-9]/);
    expect(metrics).toMatch(/kpi_id_ldap_binds_total\{result="failure",reason="wrong_secret"\} [1-9]/);

    const listed = (await consoleClients()).clients.find((client) => client.name === "library");
    expect(listed).toMatchObject({
      title: "Бібліотека",
      application: null,
      subtree: "people",
      attributes: ["uid", "mail"],
      kpiPasswordAllowed: false,
      binds: { accepted: 1, refused: 1 },
      failures: [{ reason: "wrong_secret", address: "127.0.0.1" }],
    });
    expect(JSON.stringify(listed)).not.toContain(library.secret);

    const taken = await asOperator("/api/admin/ldap/clients", { ...registeredBody("library") });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("ldap.client_taken");

    const removed = await asOperator("/api/admin/ldap/clients/library/remove", {});
    expect(removed.json()).toEqual({ done: true });
    expect((await whoami(library.bindDn, library.secret)).code).toBe(49);
    expect((await consoleClients()).clients.map((client) => client.name)).not.toContain("library");
    const audit = await kpi.app.db
      .selectFrom("audit_events")
      .select(["event_type", "actor_id"])
      .where("event_type", "in", ["ldap_client_registered", "ldap_client_removed"])
      .orderBy("audit_events.id")
      .execute();
    expect(audit.map((row) => row.event_type).sort()).toEqual(["ldap_client_registered", "ldap_client_removed"]);
    expect(audit.every((row) => row.actor_id !== null)).toBe(true);
  });

  it("refuses an unknown application, an address that is not one, and the KPI ID password without addresses", async () => {
    for (const body of [
      { ...registeredBody("bad-app"), applicationId: "00000000-0000-4000-8000-000000000000" },
      { ...registeredBody("bad-address"), addresses: ["lab.kpi.ua"] },
      { ...registeredBody("no-addresses"), kpiPasswordAllowed: true },
    ]) {
      const refused = await asOperator("/api/admin/ldap/clients", body);
      expect(refused.statusCode, body.name).toBe(400);
      expect(refused.json().code).toBe("ldap.client_invalid");
    }
    expect((await consoleClients()).clients).toEqual([]);
  });
});

function registeredBody(name: string) {
  return {
    name,
    title: "Тест",
    applicationId: null,
    subtree: "people",
    attributes: ["uid"],
    addresses: [],
    kpiPasswordAllowed: false,
  };
}

describe("a lab's login machines allowed the KPI ID password", () => {
  beforeAll(async () => {
    // The lab's machines bind from 127.0.0.1 (the test's own ldapwhoami).
    await registerLdapClient(
      kpi.app.db,
      {
        name: "lab",
        title: "Лабораторні комп'ютери",
        applicationId,
        subtree: "people",
        attributes: ["uid", "uidNumber"],
        addresses: ["127.0.0.1"],
        kpiPasswordAllowed: true,
      },
      kpi.app.clock(),
    );
    await kpi.app.ldap?.syncNow();
  });

  it("binds a person without a role or second factor with their KPI ID password, over TLS only", async () => {
    await labStudent("ivan");
    await kpi.app.ldap?.syncNow();
    expect((await whoami(dnOf("ivan"), kpiPassword)).code).toBe(0);
    expect((await whoami(dnOf("ivan"), "not-ivans-password")).code).toBe(49);
    expect((await whoami(dnOf("ivan"), kpiPassword, false)).code).toBe(13);
  });

  it("never for a console operator, a person holding or required a second factor, or one without access", async () => {
    const operator = await labStudent("oksana");
    await grantRole(kpi.app.db, operator.id, "helpdesk");
    const holder = await labStudent("dmytro");
    await addAuthenticator(kpi.app, holder, kpi.app.clock());
    const required = await labStudent("iryna");
    await requireSecondFactor(kpi.app.db, required.id, true);
    await addPerson(kpi.app, { username: "outsider", fullName: "Сторонній" }, kpiPassword);
    await kpi.app.ldap?.syncNow();
    for (const username of ["oksana", "dmytro", "iryna", "outsider"]) {
      expect((await whoami(dnOf(username), kpiPassword)).code, username).toBe(49);
    }
    const reasons = await kpi.app.db
      .selectFrom("audit_events")
      .innerJoin("users", "users.id", "audit_events.user_id")
      .select(["users.username", "audit_events.reason"])
      .where("event_type", "=", "ldap_bind")
      .where("users.username", "in", ["oksana", "dmytro", "iryna", "outsider"])
      .orderBy("audit_events.id")
      .execute();
    expect(Object.fromEntries(reasons.map((row) => [row.username, row.reason]))).toEqual({
      oksana: "kpi_password_refused",
      dmytro: "kpi_password_refused",
      iryna: "kpi_password_refused",
      outsider: "no_access",
    });
  });

  it("counts the binds in the application's integration health, the refusal for lack of access as a failure", async () => {
    const failures = await kpi.app.db
      .selectFrom("integration_failures")
      .select(["protocol", "reason"])
      .where("application_id", "=", applicationId)
      .execute();
    expect(failures).toContainEqual({ protocol: "ldap", reason: "no_access" });
    const signIns = await kpi.app.db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("application_id", "=", applicationId)
      .where("event_type", "=", "ldap_bind")
      .where("result", "=", "success")
      .executeTakeFirstOrThrow();
    expect(Number(signIns.n)).toBeGreaterThan(0);
    const lab = (await consoleClients()).clients.find((client) => client.name === "lab");
    expect(lab?.binds.accepted).toBeGreaterThan(0);
    expect(lab?.failures.map((failure) => failure.reason)).toContain("kpi_password_refused");
  });
});

describe("an application password tied to one client", () => {
  it("is offered the person's clients, binds through its client alone, and refuses another's", async () => {
    await labStudent("sofia");
    const cookie = await signIn(kpi.app, "sofia", kpiPassword);
    const offered: LdapPasswords = (
      await kpi.app.inject({ method: "GET", url: "/api/account/ldap", headers: { cookie } })
    ).json();
    const lab = offered.clients.find((client) => client.title === "Лабораторні комп'ютери");
    expect(lab).toBeDefined();
    // A client tied to an application the person has no access to is neither offered nor accepted.
    const other = await addApplication(kpi.app);
    const elsewhere = await registerLdapClient(
      kpi.app.db,
      {
        name: "vpn",
        title: "VPN",
        applicationId: other.application.id,
        subtree: "people",
        attributes: ["uid"],
        addresses: ["10.9.9.9"],
      },
      kpi.app.clock(),
    );
    const refused = await postJson(
      kpi.app,
      "/api/account/ldap",
      { name: "VPN", clientId: elsewhere.client.id },
      { headers: { cookie } },
    );
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe("ldap.client_not_found");

    const tied: CreatedLdapPassword = (
      await postJson(kpi.app, "/api/account/ldap", { name: "Лабораторія", clientId: lab?.id }, { headers: { cookie } })
    ).json();
    await kpi.app.ldap?.syncNow();
    expect((await whoami(dnOf("sofia"), tied.password)).code).toBe(0);
    const listed: LdapPasswords = (
      await kpi.app.inject({ method: "GET", url: "/api/account/ldap", headers: { cookie } })
    ).json();
    expect(listed.passwords[0]).toMatchObject({ name: "Лабораторія", clientTitle: "Лабораторні комп'ютери" });

    // The lab's client no longer covers 127.0.0.1: a bind from there is through no client, and the tied password fails.
    await kpi.app.db
      .updateTable("ldap_clients")
      .set({ addresses: ["10.0.0.1"] })
      .where("name", "=", "lab")
      .execute();
    expect((await whoami(dnOf("sofia"), tied.password)).code).toBe(49);
  });
});
