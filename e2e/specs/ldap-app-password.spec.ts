import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ldapTools, startTestSlapd, type TestSlapd } from "@kpi-id/server/testing";
import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { LdapPasswordsPage } from "../pages/ldap-passwords-page.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { type OwnKpiId, startOwnKpiId } from "../tools/own-kpi-id.ts";
import { photograph } from "../tools/photographs.ts";

/**
 * An application password for LDAP on the account page (issue 77), created, used and revoked: the bind goes through
 * a real slapd with the shipped configuration (deploy/openldap, as `npm run test:ldap` starts it), whose sock
 * overlay asks the responder of a KPI ID of the spec's own (LDAP is on only where LDAP_LDAPI_PATH is set).
 */
const port = Number(process.env.E2E_PORT_BASE ?? 3300) + 15;
const person = { username: "ldap-walker", fullName: "Тарас Каталогів", password: "a walker's long passphrase" };
const bindDn = `uid=${person.username},ou=people,dc=kpi,dc=ua`;
const names = { uk: "Комп'ютери лабораторії 301", en: "Lab 301 computers" } as const;
const invalidCredentials = 49;

let dir = "";
let slapd: TestSlapd | undefined;
let kpiId: OwnKpiId | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), "kpi-id-e2e-ldap-"));
  slapd = await startTestSlapd(dir);
  kpiId = await startOwnKpiId(port, {
    env: { LDAP_LDAPI_PATH: slapd.ldapiPath, LDAP_BIND_SOCKET: slapd.bindSocket },
    people: [person],
  });
  await kpiId.app.ldap?.syncNow();
});
test.afterAll(async () => {
  await kpiId?.close();
  await slapd?.stop();
  rmSync(dir, { recursive: true, force: true });
});
for (const language of ["uk", "en"] as const) {
  test(`an application password for LDAP (${language}): created and shown once, binds through slapd, revoked and refused`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const origin = kpiId?.origin ?? "";
    const tools = ldapTools(slapd as TestSlapd);
    const ldap = new LdapPasswordsPage(page, language);
    await signInThroughApi(page, language, person, origin);
    await ldap.open(origin, language);
    await expect(ldap.none).toContainText(person.username);

    await ldap.name.fill(names[language]);
    await ldap.create.click();
    await expect(ldap.created).toBeVisible();
    await expect(ldap.created).toContainText(bindDn);
    await expect(ldap.createdPassword).toHaveText(/\S{20,}/);
    await expect(ldap.rows).toHaveCount(1);
    await expectNoAxeViolations(page, `application passwords, one just made (${language})`);
    await photograph(page, testInfo, `ldap-created-${language}`, { part: ldap.section });

    // Shown once: after "done" (or a reload) only its name stays.
    const password = (await ldap.createdPassword.textContent()) ?? "";
    await ldap.done.click();
    await expect(ldap.created).toHaveCount(0);

    // The person's system binds with it: ldapwhoami over StartTLS, through slapd's sock overlay to KPI ID.
    const bound = await tools.whoami(bindDn, password);
    expect(bound.code, bound.out).toBe(0);
    expect(bound.out).toContain(`dn:${bindDn}`);
    // An accepted bind's use is written with the others of its 0.2 s (model/ldap/uses.ts), so a reload right after
    // the bind can come before it: reload until the row shows where it was used, as a person refreshing would.
    await expect(async () => {
      await page.reload();
      await expect(ldap.rows.first()).toContainText("127.0.0.1", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(ldap.rows).toHaveCount(1);
    await expect(ldap.createdPassword).toHaveCount(0);
    await expect(ldap.rows.first()).toContainText(names[language]);
    await expectNoAxeViolations(page, `application passwords, one used (${language})`);
    await photograph(page, testInfo, `ldap-used-${language}`, { part: ldap.section });

    // Revoked on the page: the same bind is refused at once (invalid credentials).
    await ldap.revokeButton(ldap.rows.first()).click();
    await ldap.confirmRevoke().click();
    await expect(ldap.rows).toHaveCount(0);
    await expect(ldap.none).toBeVisible();
    const refused = await tools.whoami(bindDn, password);
    expect(refused.code, refused.out).toBe(invalidCredentials);
  });
}
