// The directory follows one person's change by updating only that person's entry and the groups they were or are
// in (protocols/ldap/person-sync.ts), counted in slapd's own log of operations; a full pass stays for drift and
// writes the access rules only when they differ; an erased person leaves, their POSIX number never given again.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listLdapClients } from "../../../src/model/ldap/clients.ts";
import { erasePersonOnRequest } from "../../../src/model/privacy/erase-request.ts";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { findUserById, updateUser } from "../../../src/model/users/queries.ts";
import { createUser, upsertUser } from "../../../src/model/users/service.ts";
import { directoryAccessRules } from "../../../src/protocols/ldap/acl.ts";
import { accessRulesOf } from "../../../src/protocols/ldap/rules.ts";
import type { TestApp } from "../../support/app.ts";
import { kpiIdBesideSlapd } from "../../support/ldap-service.ts";
import { eventually, ldapTools, personWithApplicationPassword, type TestSlapd } from "../../support/openldap.ts";

const base = "dc=kpi,dc=ua";
let dir: string;
let slapd: TestSlapd;
let kpi: TestApp;

beforeAll(async () => {
  ({ dir, slapd, kpi } = await kpiIdBesideSlapd("kpi-id-ldap-incremental-"));
  const db = kpi.app.db;
  // Others in the directory, whom a change to one person must not read or touch.
  for (let n = 0; n < 30; n++) {
    await createUser(
      db,
      kpi.app.passwordHasher,
      { username: `student${n}`, fullName: `Student ${n}`, studentId: `KV-${n}` },
      undefined,
      {
        studentUnit: n % 2 ? "FICT" : "FEL",
      },
    );
  }
  await kpi.app.ldap?.syncNow();
}, 120_000);

afterAll(async () => {
  await kpi?.close();
  await slapd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The operations KPI ID's sync asked slapd for since `from` (its log offset): those of connections over ldapi
 * (`PATH=`), where only KPI ID and the operator are cn=kpi-id. The test reads the directory only afterwards.
 */
function syncOperations(from: number): string[] {
  const log = slapd.process.output().slice(from);
  const ldapi = new Set([...log.matchAll(/conn=(\d+) fd=\d+ ACCEPT from PATH=/g)].map((match) => match[1]));
  // slapd logs several lines for one operation (a SASL bind's steps, a search's attributes): one each.
  const operations = new Map<string, string>();
  for (const [, conn = "", op, kind, rest] of log.matchAll(
    /conn=(\d+) op=(\d+) (BIND|SRCH|ADD|MOD|DEL|MODRDN) ([^\n]*)/g,
  )) {
    if (ldapi.has(conn) && !operations.has(`${conn}/${op}`)) operations.set(`${conn}/${op}`, `${kind} ${rest}`);
  }
  return [...operations.values()];
}

/** Waits until the sync has been quiet for a moment after a change (bounded: within 5 s as docs/ldap.md says). */
async function operationsOf(change: () => Promise<unknown>): Promise<string[]> {
  const from = slapd.process.output().length;
  await change();
  let seen = -1;
  return eventually(async () => {
    const operations = syncOperations(from);
    const settled = operations.length > 0 && operations.length === seen;
    seen = operations.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    return settled ? operations : undefined;
  });
}

/** ldap-utils as cn=kpi-id, the directory's root, over ldapi (an operator on slapd's host). */
const asRoot = (command: "ldapsearch" | "ldapmodify", args: string[]) =>
  ldapTools(slapd).run(command, [
    ...(command === "ldapsearch" ? ["-LLL", "-o", "ldif-wrap=no"] : []),
    "-Q",
    "-Y",
    "EXTERNAL",
    "-H",
    `ldapi://${encodeURIComponent(slapd.ldapiPath)}`,
    ...args,
  ]);

const entries = async (searchBase: string, filter: string, attribute = "cn") =>
  (await asRoot("ldapsearch", ["-b", searchBase, filter, attribute])).out;

const wholeBranchRead = (operations: string[]) =>
  operations.some(
    (operation) => /^SRCH base="ou=(people|groups|clients),/i.test(operation) && /objectClass=\*/i.test(operation),
  );

describe("a change to one person", () => {
  it("is written alone: added, renamed, moved and disabled, each without reading the whole directory", async () => {
    const db = kpi.app.db;
    const hasher = kpi.app.passwordHasher;
    const full = await operationsOf(() => kpi.app.ldap?.syncNow() ?? Promise.resolve());
    expect(wholeBranchRead(full)).toBe(true);

    let id = "";
    const added = await operationsOf(async () => {
      id = (
        await createUser(db, hasher, { username: "nadia", fullName: "Nadia Lysenko", studentId: "KV-100" }, undefined, {
          studentUnit: "FICT",
        })
      ).id;
    });
    expect(await entries(`ou=people,${base}`, "(uid=nadia)")).toContain("cn: Nadia Lysenko");
    expect(await entries(`ou=groups,${base}`, `(member=uid=nadia,ou=people,${base})`)).toContain("cn: FICT");

    const renamed = await operationsOf(() => updateUser(db, id, { username: "nadia.l" }));
    expect(await entries(`ou=people,${base}`, "(uid=nadia.l)")).toContain("cn: Nadia Lysenko");
    expect(await entries(`ou=groups,${base}`, `(member=uid=nadia.l,ou=people,${base})`)).toContain("cn: FICT");

    const moved = await operationsOf(() =>
      upsertUser(db, hasher, { username: "nadia.l" }, undefined, { studentUnit: "FEL" }),
    );
    const groups = await entries(`ou=groups,${base}`, `(member=uid=nadia.l,ou=people,${base})`);
    expect(groups).toContain("cn: FEL");
    expect(groups).not.toContain("cn: FICT");

    const disabled = await operationsOf(() => disableUser({ db, now: kpi.app.clock() }, id));
    expect(await entries(`ou=people,${base}`, "(uid=nadia.l)")).not.toContain("nadia");
    expect(await entries(`ou=groups,${base}`, `(member=uid=nadia.l,ou=people,${base})`)).not.toContain("cn:");

    for (const operations of [added, renamed, moved, disabled]) {
      expect(wholeBranchRead(operations), operations.join("\n")).toBe(false);
      expect(operations.length).toBeLessThan(full.length);
    }
    // The others are untouched, and a full pass afterwards finds nothing to repair.
    expect(await kpi.app.ldap?.syncNow()).toEqual({ added: 0, changed: 0, renamed: 0, removed: 0 });
    console.info(
      `LDAP operations: full pass ${full.length}; person added ${added.length}, renamed ${renamed.length}, ` +
        `moved ${moved.length}, disabled ${disabled.length}`,
    );
  });
});

describe("the directory's access rules in cn=config", () => {
  const rulesWrites = (operations: string[]) =>
    operations.filter((operation) => /^MOD dn="olcDatabase=/i.test(operation));
  const directoryConfig = async () => {
    const { out } = await asRoot("ldapsearch", ["-b", "cn=config", `(olcSuffix=${base})`, "olcAccess"]);
    const rules = accessRulesOf([...out.matchAll(/^olcAccess: (.*)$/gm)].map((match) => match[1] ?? ""));
    return { dn: /^dn: (.*)$/m.exec(out)?.[1] ?? "", rules };
  };
  const rulesInConfig = async () => (await directoryConfig()).rules;

  it("are written only when they differ: left alone by a pass that finds them right, written back after a hand edit", async () => {
    const wanted = directoryAccessRules(await listLdapClients(kpi.app.db), base);
    await kpi.app.ldap?.syncNow();
    expect(await rulesInConfig()).toEqual(wanted);
    const quiet = await operationsOf(() => kpi.app.ldap?.syncNow() ?? Promise.resolve());
    // The pass read the rules (so it was seen whole in slapd's log) and wrote none.
    expect(
      quiet.some((operation) => /^SRCH base="cn=config"/i.test(operation)),
      quiet.join("\n"),
    ).toBe(true);
    expect(rulesWrites(quiet), quiet.join("\n")).toEqual([]);

    // Drift: someone on slapd's host replaced the rules by hand.
    const edit = join(dir, "hand-edit.ldif");
    writeFileSync(
      edit,
      `dn: ${(await directoryConfig()).dn}\nchangetype: modify\nreplace: olcAccess\nolcAccess: to * by * read\n`,
    );
    expect((await asRoot("ldapmodify", ["-f", edit])).code).toBe(0);
    expect(await rulesInConfig()).toEqual(["to * by * read"]);
    const repaired = await operationsOf(() => kpi.app.ldap?.syncNow() ?? Promise.resolve());
    expect(rulesWrites(repaired)).toHaveLength(1);
    expect(await rulesInConfig()).toEqual(wanted);
  });
});

describe("an erased person", () => {
  const uidNumberOf = async (username: string) =>
    /uidNumber: (\d+)/.exec(await entries(`ou=people,${base}`, `(uid=${username})`, "uidNumber"))?.[1];

  it("is refused at once, leaves the directory, and their uidNumber is never given to anyone again", async () => {
    const oksana = await personWithApplicationPassword(
      kpi.app,
      { username: "oksana", fullName: "Oksana Hnatiuk", studentId: "KV-200", unit: "FICT" },
      "oksana's campus passphrase 2026",
    );
    const number = await eventually(() => uidNumberOf("oksana"));
    const dn = `uid=oksana,ou=people,${base}`;
    expect((await ldapTools(slapd).whoami(dn, oksana.created.password)).code).toBe(0);

    const person = await findUserById(kpi.app.db, oksana.id);
    if (!person) throw new Error("oksana is not there");
    await erasePersonOnRequest(kpi.app.db, person, { via: "cli", now: kpi.app.clock() });
    expect((await ldapTools(slapd).whoami(dn, oksana.created.password)).code).toBe(49);
    await eventually(async () => ((await uidNumberOf("oksana")) === undefined ? true : undefined));

    await createUser(
      kpi.app.db,
      kpi.app.passwordHasher,
      { username: "oksana.n", fullName: "Oksana Nova", studentId: "KV-201" },
      undefined,
      {
        studentUnit: "FICT",
      },
    );
    const next = await eventually(() => uidNumberOf("oksana.n"));
    expect(Number(next)).toBeGreaterThan(Number(number));
  });
});
