import { addOperator, addPerson } from "@kpi-id/server/testing";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { ModAuthCasPage } from "../pages/cas-clients-page.ts";
import { ModAuthOpenidcPage } from "../pages/mod-auth-openidc-page.ts";
import { NginxSitePage } from "../pages/nginx-site-page.ts";
import { MellonSpPage } from "../pages/saml-sp-page.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { type OwnKpiId, startOwnKpiId } from "../tools/own-kpi-id.ts";
import {
  type CounterpartSetup,
  type Counterparts,
  prepareCounterparts,
  registerCounterparts,
  startCounterparts,
  stopCounterparts,
} from "../tools/sign-out-counterparts.ts";

/**
 * Issue 74, "one sign-out for every protocol", against the real counterparts the suite already runs: one person in
 * one browser signed into Apache's mod_auth_openidc (OpenID Connect, back-channel logout), Apache's mod_auth_mellon
 * (SAML, Single Logout), Apache's mod_auth_cas (CAS single logout) and a site behind nginx auth_request
 * (forward-auth), all on a KPI ID of this file's own; then signed out by each way there is, one test a way. Every
 * application but the one the person signed out at is told exactly once (counted in its Apache access log; nginx
 * asks KPI ID at every request, so nothing is sent to it) and each one's protected page asks KPI ID again.
 * The counterparts start once for the file.
 */
const portBase = Number(process.env.E2E_PORT_BASE ?? 3300);
const language = "en" as const;
const person = {
  username: "everywhere",
  password: "a passphrase for every application",
  fullName: "Марія Ткаченко",
  email: "maria.tkachenko@kpi.ua",
  studentId: "KV-7401",
};

let kpiId: OwnKpiId;
let setup: CounterpartSetup;
let counterparts: Counterparts | undefined;
let personId = "";
let operatorCookie = "";

test.beforeAll(async () => {
  // KPI ID, three Apaches, nginx and PHP, on a shared machine.
  test.setTimeout(120_000);
  setup = prepareCounterparts(portBase);
  // +9, not +6: the first worker's base + 6 is 3306, MySQL's port, taken on machines that run MariaDB.
  kpiId = await startOwnKpiId(portBase + 9, { trustCertificate: setup.openidcSite.certFile });
  const registered = await registerCounterparts(kpiId, setup);
  personId = (await addPerson(kpiId.app, person, person.password)).id;
  for (const name of registered.applications)
    await kpiId.cli(["user", "grant", "--username", person.username, "--app", name]);
  operatorCookie = (await addOperator(kpiId.app, ["admin"])).cookie;
  counterparts = await startCounterparts(kpiId.origin, setup, registered);
});

test.afterAll(async () => {
  await stopCounterparts();
  await kpiId?.close();
});

type Application = "oidc" | "saml" | "cas" | "nginx";

/** Each application's protected page, how it shows the person, and how many logout notices it has had. */
function applications(page: Page) {
  const running = counterparts;
  if (!running) throw new Error("the counterparts did not start");
  const library = new ModAuthOpenidcPage(page, setup.openidcSite.origin);
  const mellon = new MellonSpPage(page, running.mellonUrl);
  const cas = new ModAuthCasPage(page, running.casUrl);
  const wiki = new NginxSitePage(page, running.wikiOrigin);
  return {
    oidc: {
      open: () => library.open(),
      signedIn: () => expect(library.claim("name")).toHaveText(person.fullName),
      notices: () => running.notices.oidc(),
    },
    saml: {
      open: () => mellon.openSecure(),
      signedIn: () => expect(mellon.nameId).toHaveText(/\S+/),
      notices: () => running.notices.saml(),
    },
    cas: {
      open: () => cas.open("secure").then(() => undefined),
      signedIn: () => expect(cas.user).toHaveText(person.username),
      notices: () => running.notices.cas(),
    },
    nginx: {
      open: () => wiki.open("/"),
      signedIn: async () => expect((await wiki.received()).headers["x-remote-user"]).toBe(person.username),
      // nginx asks KPI ID at every request: nothing is sent to it, its next request is refused.
      notices: () => undefined,
    },
  } satisfies Record<Application, { open(): Promise<void>; signedIn(): Promise<void>; notices(): number | undefined }>;
}

/** A sign-out, and the application it starts at (whose own end of it is its business), if any. */
interface Way {
  name: string;
  from?: Application;
  signOut(page: Page, browser: Browser): Promise<void>;
}

/** A console call as the operator (strong session) makes it. */
async function asOperator(path: string, body: unknown): Promise<void> {
  const answer = await fetch(`${kpiId.origin}${path}`, {
    method: "POST",
    headers: { cookie: operatorCookie, origin: kpiId.origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.status, `${path}: ${await answer.clone().text()}`).toBe(200);
}

const ways: Way[] = [
  {
    name: "KPI ID's own sign-out",
    async signOut(page) {
      await page.goto(`${kpiId.origin}/${language}/apps`);
      await new AppsPage(page, language).logout.click();
      await page.waitForURL(`${kpiId.origin}/${language}/`);
    },
  },
  {
    name: "CAS logout (/cas/logout)",
    from: "cas",
    async signOut(page) {
      await page.goto(`${kpiId.origin}/cas/logout`);
      await page.waitForURL(`${kpiId.origin}/${language}/`);
    },
  },
  {
    name: "a SAML LogoutRequest from the service provider",
    from: "saml",
    async signOut(page) {
      const mellon = new MellonSpPage(page, counterparts?.mellonUrl ?? "");
      await mellon.openSecure();
      await mellon.signOut.click();
      await expect(mellon.signedOut).toBeVisible();
    },
  },
  {
    name: "OpenID Connect end_session from the relying party",
    from: "oidc",
    async signOut(page) {
      const library = new ModAuthOpenidcPage(page, setup.openidcSite.origin);
      await library.signOut();
      await page.getByRole("button", { name: "Yes, sign me out" }).click();
      await page.waitForURL(`${setup.openidcSite.origin}/signed-out.html`);
    },
  },
  {
    name: "a password change in another browser",
    async signOut(_page, browser) {
      const phone = await browser.newContext({ locale: "en-GB" });
      try {
        const phonePage = await phone.newPage();
        await signInThroughApi(phonePage, language, person, kpiId.origin);
        const newPassword = `${person.password} changed`;
        const changed = await phonePage.request.post(`${kpiId.origin}/api/account/password`, {
          data: { currentPassword: person.password, newPassword },
          headers: { origin: kpiId.origin },
        });
        expect(changed.status(), await changed.text()).toBe(200);
        person.password = newPassword;
      } finally {
        await phone.close();
      }
    },
  },
  {
    name: "an operator ending the person's sessions",
    signOut: () => asOperator(`/api/admin/people/${personId}/sessions/end`, {}),
  },
  {
    name: "an operator disabling the person",
    async signOut() {
      await asOperator(`/api/admin/people/${personId}/status`, { status: "disabled" });
      await asOperator(`/api/admin/people/${personId}/status`, { status: "active" });
    },
  },
];

test.describe("one sign-out reaches every protocol's application", () => {
  test.use({ locale: "en-GB", ignoreHTTPSErrors: true });

  for (const way of ways) {
    test(`${way.name}: every other application is told once and asks KPI ID again`, async ({ page, browser }) => {
      const signedInto = applications(page);
      await signInThroughApi(page, language, person, kpiId.origin);
      for (const application of Object.values(signedInto)) {
        await application.open();
        await application.signedIn();
      }
      const before = Object.fromEntries(Object.entries(signedInto).map(([name, each]) => [name, each.notices()]));

      await way.signOut(page, browser);

      const others = (Object.keys(signedInto) as Application[]).filter((name) => name !== way.from);
      for (const name of others) {
        const counted = before[name];
        if (counted === undefined) continue;
        await expect.poll(() => signedInto[name].notices(), { message: `${name} told once` }).toBe(counted + 1);
      }
      // Signed out everywhere: each protected page, the one the sign-out started at too, sends to KPI ID's sign-in.
      for (const [name, application] of Object.entries(signedInto)) {
        await application.open();
        await expect(page, `${name} asks KPI ID`).toHaveURL(new RegExp(`^${kpiId.origin}/${language}/`));
      }
      // Nobody was told twice, late.
      for (const name of others) {
        const counted = before[name];
        if (counted !== undefined) expect(signedInto[name].notices(), `${name} told once`).toBe(counted + 1);
      }
    });
  }
});
