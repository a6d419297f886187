// LDAP through OpenLDAP slapd (issue 77): the shipped deploy/openldap run by the real slapd against a KPI ID,
// asked by ldap-utils (ldapwhoami, ldapsearch) and python3-ldap3 over StartTLS. One slapd for the whole file.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { CreatedLdapPassword } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerLdapClient } from "../../../src/model/ldap/clients.ts";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { updateUser } from "../../../src/model/users/queries.ts";
import { createUser, upsertUser } from "../../../src/model/users/service.ts";
import { postJson, type TestApp } from "../../support/app.ts";
import { addApplication, grantAccess, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { kpiIdBesideSlapd } from "../../support/ldap-service.ts";
import { eventually, ldapTools, personWithApplicationPassword, type TestSlapd } from "../../support/openldap.ts";

const base = "dc=kpi,dc=ua";
const accountPassword = "campus-password-of-olena-2026";
const taxId = "3012345678";
let dir: string;
let slapd: TestSlapd;
let kpi: TestApp;
let olenaPassword: CreatedLdapPassword;
let nextcloudSecret: string;
const people = `ou=people,${base}`;
const dnOf = (username: string) => `uid=${username},${people}`;

const tools = () => ldapTools(slapd);
const run = (command: string, args: string[]) => tools().run(command, args);
const whoami = (dn: string, password: string, startTls = true) => tools().whoami(dn, password, startTls);
const search = (dn: string, password: string, searchBase: string, filter: string, attributes: string[] = []) =>
  tools().search(dn, password, searchBase, filter, attributes);

/** Entries an administrator (cn=kpi-id over ldapi) sees: the directory's truth, with no access rule in the way. */
const asKpiId = (searchBase: string, filter: string, attributes: string[] = []) =>
  run("ldapsearch", [
    "-LLL",
    "-Q",
    "-Y",
    "EXTERNAL",
    "-H",
    `ldapi://${encodeURIComponent(slapd.ldapiPath)}`,
    "-b",
    searchBase,
    filter,
    ...attributes,
  ]);

beforeAll(async () => {
  ({ dir, slapd, kpi } = await kpiIdBesideSlapd("kpi-id-ldap-"));
  const db = kpi.app.db;
  const hasher = kpi.app.passwordHasher;
  const olena = await personWithApplicationPassword(
    kpi.app,
    { username: "olena", fullName: "Olena Shevchenko", email: "olena@kpi.ua", studentId: "KV-1", taxId, unit: "FICT" },
    accountPassword,
  );
  olenaPassword = olena.created;
  await createUser(db, hasher, { username: "taras", fullName: "Taras Bondar", studentId: "KV-2" }, accountPassword, {
    studentUnit: "FICT",
  });
  // Nextcloud: sees the people its application lets in, their uid, cn and mail, and the groups.
  const { application } = await addApplication(kpi.app);
  await grantAccess(db, olena.id, application.id);
  const registered = await registerLdapClient(
    db,
    {
      name: "nextcloud",
      title: "Nextcloud",
      applicationId: application.id,
      subtree: "directory",
      attributes: ["uid", "cn", "mail", "memberOf"],
      addresses: [],
    },
    kpi.app.clock(),
  );
  nextcloudSecret = registered.secret;
  await kpi.app.ldap?.syncNow();
}, 60_000);

afterAll(async () => {
  await kpi?.close();
  await slapd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("binds through slapd's sock overlay", () => {
  it("binds a person with an application password over StartTLS (ldapwhoami)", async () => {
    const answer = await whoami(dnOf("olena"), olenaPassword.password);
    expect(answer).toMatchObject({ code: 0 });
    expect(answer.out.trim()).toBe(`dn:${dnOf("olena")}`);
  });

  it("refuses the KPI ID password, a wrong password and an unknown person alike (49)", async () => {
    for (const [dn, password] of [
      [dnOf("olena"), accountPassword],
      [dnOf("olena"), "wrong-wrong-wrong-wrong"],
      [dnOf("nobody"), olenaPassword.password],
    ] as const) {
      const answer = await whoami(dn, password);
      expect(answer.code).toBe(49);
      expect(answer.out).toContain("Invalid credentials (49)");
    }
  });

  it("refuses a bind without TLS before anything is checked (13)", async () => {
    const answer = await whoami(dnOf("olena"), olenaPassword.password, false);
    expect(answer.code).toBe(13);
    expect(answer.out).toContain("Confidentiality required");
  });

  it("binds and searches with python3-ldap3 as a second client", async () => {
    const script = `
import ldap3, ssl, sys
tls = ldap3.Tls(ca_certs_file=sys.argv[2], validate=ssl.CERT_REQUIRED)
server = ldap3.Server(sys.argv[1], tls=tls)
conn = ldap3.Connection(server, user=sys.argv[3], password=sys.argv[4])
# StartTLS first, as clients do: slapd refuses it (operationsError, "operations are outstanding") while an earlier
# operation is still in its books, and the root DSE search open() sends by default can still be there under load.
conn.open(read_server_info=False); conn.start_tls()
print("bound" if conn.bind() else "refused", conn.result["result"])
conn.search(sys.argv[3], "(objectClass=*)", search_scope=ldap3.BASE, attributes=["uid", "mail"])
for entry in conn.entries: print(entry.entry_dn, entry.uid, entry.mail)
`;
    const answer = await run("/usr/bin/python3", [
      "-c",
      script,
      slapd.url,
      slapd.caFile,
      dnOf("olena"),
      olenaPassword.password,
    ]);
    expect(answer.out).toContain("bound 0");
    expect(answer.out).toContain(`${dnOf("olena")} olena olena@kpi.ua`);
    const wrong = await run("/usr/bin/python3", [
      "-c",
      script,
      slapd.url,
      slapd.caFile,
      dnOf("olena"),
      accountPassword,
    ]);
    expect(wrong.out).toContain("refused 49");
  });
});

describe("a registered client reads what it may", () => {
  const nextcloud = `cn=nextcloud,ou=clients,${base}`;

  it("sees the people its application lets in, with their groups, and no one else", async () => {
    const answer = await search(nextcloud, nextcloudSecret, people, "(objectClass=inetOrgPerson)", [
      "uid",
      "mail",
      "memberOf",
    ]);
    expect(answer.code).toBe(0);
    expect(answer.out).toContain(`dn: ${dnOf("olena")}`);
    expect(answer.out).toContain("mail: olena@kpi.ua");
    // dynlist gives the group's DN as slapd normalised it.
    expect(answer.out.toLowerCase()).toContain(`memberof: cn=fict,ou=groups,${base}`);
    expect(answer.out).not.toContain("taras");
  });

  it("reads no attribute it was not allowed, and nothing outside its subtree", async () => {
    const attributes = await search(nextcloud, nextcloudSecret, dnOf("olena"), "(objectClass=*)", [
      "uidNumber",
      "homeDirectory",
      "eduPersonUniqueId",
    ]);
    expect(attributes.out.trim()).toBe(`dn: ${dnOf("olena")}`);
    const clients = await search(nextcloud, nextcloudSecret, `ou=clients,${base}`, "(objectClass=*)");
    expect(clients.out).not.toContain("cn=nextcloud");
    expect(clients.code).toBe(32);
  });

  it("finds no tax id, student id or password in the directory, even as its root", async () => {
    const everything = await asKpiId(people, "(uid=olena)", ["*", "+"]);
    expect(everything.out).toContain(`dn: ${dnOf("olena")}`);
    for (const kept of [taxId, "KV-1", olenaPassword.password, accountPassword]) {
      expect(everything.out).not.toContain(kept);
    }
    expect(everything.out).not.toMatch(/userPassword/i);
  });

  it("refuses the client's service account with a wrong secret", async () => {
    expect((await whoami(nextcloud, "not-the-secret")).code).toBe(49);
  });
});

describe("the directory follows KPI ID", () => {
  const entryOf = async (username: string, attributes: string[] = []) => {
    const answer = await asKpiId(people, `(uid=${username})`, attributes);
    return answer.out.includes(`dn: ${dnOf(username)}`) ? answer.out : undefined;
  };

  it("shows a person added, renamed and moved to another unit within 5 s", async () => {
    const db = kpi.app.db;
    const hasher = kpi.app.passwordHasher;
    await createUser(
      db,
      hasher,
      { username: "mykola", fullName: "Mykola Kovalenko", studentId: "KV-3" },
      accountPassword,
      { studentUnit: "FICT" },
    );
    const added = await eventually(() => entryOf("mykola", ["uidNumber", "cn"]));
    const uidNumber = /uidNumber: (\d+)/.exec(added)?.[1];
    expect(uidNumber).toMatch(/^\d+$/);

    const mykola = await db.selectFrom("users").select("id").where("username", "=", "mykola").executeTakeFirstOrThrow();
    await updateUser(db, mykola.id, { username: "mykola.k" });
    const renamed = await eventually(() => entryOf("mykola.k", ["uidNumber"]));
    // The number stays with the person through a rename: files on lab machines keep their owner.
    expect(renamed).toContain(`uidNumber: ${uidNumber}`);
    expect(await entryOf("mykola")).toBeUndefined();

    await upsertUser(db, hasher, { username: "mykola.k" }, undefined, { studentUnit: "FEL" });
    await eventually(async () => {
      const groups = await asKpiId(`ou=groups,${base}`, `(member=${dnOf("mykola.k")})`, ["cn"]);
      return groups.out.includes("cn: FEL") && !groups.out.includes("cn: FICT") ? groups : undefined;
    });
  });

  it("refuses a disabled person at once and removes them within 5 s", async () => {
    const db = kpi.app.db;
    const hasher = kpi.app.passwordHasher;
    const petro = await createUser(db, hasher, { username: "petro", fullName: "Petro Melnyk" }, accountPassword);
    const cookie = await signIn(kpi.app, "petro", accountPassword);
    const created: CreatedLdapPassword = (
      await postJson(kpi.app, "/api/account/ldap", { name: "VPN" }, { headers: { cookie } })
    ).json();
    await eventually(() => entryOf("petro"));
    expect((await whoami(dnOf("petro"), created.password)).code).toBe(0);
    await disableUser({ db, now: kpi.app.clock() }, petro.id);
    expect((await whoami(dnOf("petro"), created.password)).code).toBe(49);
    await eventually(async () => ((await entryOf("petro")) === undefined ? true : undefined));
  });

  it("refuses a revoked application password", async () => {
    const cookie = await signIn(kpi.app, "olena", accountPassword);
    const created: CreatedLdapPassword = (
      await postJson(kpi.app, "/api/account/ldap", { name: "Old laptop" }, { headers: { cookie } })
    ).json();
    expect((await whoami(dnOf("olena"), created.password)).code).toBe(0);
    const revoked = await postJson(kpi.app, `/api/account/ldap/${created.id}/revoke`, {}, { headers: { cookie } });
    expect(revoked.statusCode).toBe(200);
    expect((await whoami(dnOf("olena"), created.password)).code).toBe(49);
    expect((await whoami(dnOf("olena"), olenaPassword.password)).code).toBe(0);
  });

  it("rebuilds a wiped directory, and a second full sync changes nothing", async () => {
    await slapd.stop();
    for (const file of readdirSync(slapd.dataDir)) rmSync(join(slapd.dataDir, file));
    await slapd.start();
    expect((await asKpiId(people, "(uid=olena)")).out).not.toContain(dnOf("olena"));
    // The operator's full resynchronisation, `kpi-id ldap sync`.
    const env = { LDAP_LDAPI_PATH: slapd.ldapiPath };
    const rebuilt = await runCliOn(kpi.database.handle, ["ldap", "sync"], { env });
    expect(rebuilt.code).toBe(0);
    expect(Number(/added (\d+)/.exec(rebuilt.stdout)?.[1])).toBeGreaterThan(4);
    expect((await asKpiId(people, "(uid=olena)")).out).toContain(dnOf("olena"));
    expect((await whoami(dnOf("olena"), olenaPassword.password)).code).toBe(0);
    const again = await runCliOn(kpi.database.handle, ["ldap", "sync"], { env });
    expect(again.stdout).toBe("added 0, changed 0, renamed 0, removed 0");
    expect(await kpi.app.ldap?.syncNow()).toEqual({ added: 0, changed: 0, renamed: 0, removed: 0 });
  });
});

describe("a client tied to an application", () => {
  it("refuses a person without access to its application, binding through it", async () => {
    const db = kpi.app.db;
    const { application } = await addApplication(kpi.app);
    const taras = await db.selectFrom("users").select("id").where("username", "=", "taras").executeTakeFirstOrThrow();
    const cookie = await signIn(kpi.app, "taras", accountPassword);
    const created: CreatedLdapPassword = (
      await postJson(kpi.app, "/api/account/ldap", { name: "Lab" }, { headers: { cookie } })
    ).json();
    expect((await whoami(dnOf("taras"), created.password)).code).toBe(0);
    // The lab machines: their binds come from 127.0.0.1, and only people the lab's application lets in may log in.
    await registerLdapClient(
      db,
      {
        name: "lab",
        title: "Lab machines",
        applicationId: application.id,
        subtree: "people",
        attributes: ["uid"],
        addresses: ["127.0.0.1"],
      },
      kpi.app.clock(),
    );
    expect((await whoami(dnOf("taras"), created.password)).code).toBe(49);
    await grantAccess(db, taras.id, application.id);
    expect((await whoami(dnOf("taras"), created.password)).code).toBe(0);
  });
});
