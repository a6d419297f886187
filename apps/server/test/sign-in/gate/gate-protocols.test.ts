import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccess } from "../../../src/model/access/applications.ts";
import { setCasService } from "../../../src/model/cas/services.ts";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { applyOidcSettings } from "../../../src/protocols/oidc/settings.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import type { GateDecisionKind } from "../../../src/sign-in/gate/gate.ts";
import { browse, formOf } from "../../protocols/saml/browse.ts";
import { type NodeSamlSp, nodeSamlSp } from "../../protocols/saml/node-saml-sp.ts";
import type { TestApp } from "../../support/app.ts";
import { addApplication, addPerson, manualClock, signIn } from "../../support/campus.ts";
import { casLogin, ticketIn } from "../../support/cas.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { TestBrowser } from "../../support/oidc.ts";
import { pkceChallenge } from "../../support/oidc-code-flow.ts";

const password = "a passphrase for the gate";
const redirectUris: [string] = ["https://rp.example.edu/oidc/callback"];

/** The applications the gate can stand in front of, each reachable by every protocol under test. */
const requirements = {
  open: {},
  testing: { lifecycle: "testing" },
  mfa: { require_mfa: true },
  community: { community: true },
  closed: {},
  // No access and a second factor required: refused at once on every protocol (OpenID Connect and SAML asked for the
  // step-up first before the gate).
  "closed-mfa": { require_mfa: true },
} as const;
type Requirement = keyof typeof requirements;

interface Protocol {
  /** What the protocol answers for one decision, read from its first answer to the browser. */
  answer(application: Requirement, cookie: string | undefined, fresh?: boolean): Promise<string>;
}

/**
 * Every protocol passes through the gate (issue 74): for each decision the gate can return, one request through the
 * protocol's own entry, and the protocol's answer for it. The decision table itself is gate-decide.test.ts.
 */
describe("each protocol writes the gate's decision in its own terms", () => {
  let t: TestApp;
  let origin = "";
  const clock = manualClock(new Date());
  const ids = {} as Record<Requirement, string>;
  const sps = {} as Record<Requirement, NodeSamlSp>;
  /** The same applications' service providers that send ForceAuthn (a fresh sign-in). */
  const forcedSps = {} as Record<Requirement, NodeSamlSp>;
  const cookies = {} as Record<"member" | "guarded", string>;

  async function application(app: FastifyInstance, requirement: Requirement, members: string[]) {
    const { application } = await addApplication(app, `https://${requirement}.example.edu/kpi-id/callback`);
    // The university's own, but for the community application (no consent asked of them on any protocol).
    const set = { ...requirements[requirement], first_party: requirement !== "community" };
    await app.db.updateTable("applications").set(set).where("id", "=", application.id).execute();
    for (const member of requirement.startsWith("closed") ? [] : members)
      await grantAccess(app.db, member, application.id);
    const firstParty = requirement !== "community";
    await applyOidcSettings(
      app.db,
      { ...application, ...set },
      { enabled: true, redirectUris, scopes: ["openid"], firstParty },
    );
    await setCasService(app.db, {
      url: `https://${requirement}.example.edu/cas`,
      applicationId: application.id,
      match: "exact",
      attributes: [],
      renames: {},
      singleLogout: false,
      proxy: false,
    });
    const certificate = (await app.saml.currentKeys()).signing?.certificate ?? "";
    const policy = { releasedAttributes: [], firstParty: requirement !== "community", applicationId: application.id };
    for (const forceAuthn of [false, true]) {
      const baseUrl = `https://${requirement}${forceAuthn ? "-forced" : ""}.sp.edu`;
      const sp = nodeSamlSp({ idpUrl: origin, idpCertificate: certificate, baseUrl, forceAuthn });
      await upsertServiceProvider(app.db, await parseSpMetadata(sp.metadata), "manual", policy, new Date());
      (forceAuthn ? forcedSps : sps)[requirement] = sp;
    }
    ids[requirement] = application.id;
  }

  beforeAll(async () => {
    const listening = await createListeningTestApp(aboveModelDatabase, { clock: clock.now });
    t = listening.test;
    origin = listening.origin;
    // Each with a password session: one can step up (Diia, through the tax id), one has nothing to prove more with.
    const member = await addPerson(
      t.app,
      { username: "gate.member", fullName: "Член Брами", taxId: "3012345670" },
      password,
    );
    const guarded = await addPerson(t.app, { username: "gate.bare", fullName: "Без Фактора" }, password);
    for (const requirement of Object.keys(requirements) as Requirement[]) {
      await application(t.app, requirement, [member.id, guarded.id]);
    }
    cookies.member = await signIn(t.app, "gate.member", password, { origin });
    cookies.guarded = await signIn(t.app, "gate.bare", password, { origin });
    // The requests come a minute after the sign-ins: a request for a fresh sign-in is not met by them.
    clock.advance(60);
  });
  afterAll(() => t?.close());

  const ticketPath: Protocol = {
    answer: async (requirement, cookie) => {
      const response = await t.app.inject({
        url: `/api/app-redirect?appId=${ids[requirement]}`,
        headers: cookie ? { cookie } : {},
      });
      return String(response.headers.location);
    },
  };
  const cas: Protocol = {
    answer: async (requirement, cookie, fresh) => {
      const query = { service: `https://${requirement}.example.edu/cas`, ...(fresh && { renew: "true" }) };
      const { location } = await casLogin(t.app, cookie ?? "", query);
      return ticketIn(location) ? "ticket" : location.replace(/[?&]samlRequest=[^&]+|\/cas\/continue\/.*/, "");
    },
  };
  const saml: Protocol = {
    answer: async (requirement, cookie, fresh) => {
      const url = await (fresh ? forcedSps : sps)[requirement].saml.getAuthorizeUrlAsync("", undefined, {});
      const page = await browse(t.app, url.replace(origin, ""), cookie ?? "");
      if (page.statusCode !== 200) return String(page.headers.location).replace(/saml=[^&]+/, "saml=…");
      const xml = Buffer.from(formOf(page.body).SAMLResponse, "base64").toString("utf8");
      return /status:(\w+)"/.exec(xml.match(/StatusCode Value="[^"]+"/g)?.at(-1) ?? "")?.[1] ?? "assertion";
    },
  };

  /** OpenID Connect's authorization request, followed until it reaches a KPI ID page or leaves for the client. */
  const oidc: Protocol = {
    answer: async (requirement, cookie, fresh) => {
      const browser = new TestBrowser(origin);
      if (cookie) browser.setCookie(cookie);
      const query = new URLSearchParams({
        client_id: ids[requirement],
        redirect_uri: redirectUris[0],
        response_type: "code",
        scope: "openid",
        state: "gate-state",
        nonce: "gate-nonce",
        code_challenge: pkceChallenge,
        code_challenge_method: "S256",
        ...(fresh && { prompt: "login" }),
      });
      let next = new URL(`/oidc/auth?${query}`, origin);
      for (let hop = 0; hop < 10; hop += 1) {
        const location = (await browser.request(next.href)).headers.get("location") ?? "";
        next = new URL(location, next);
        if (next.origin !== origin)
          return next.searchParams.has("code") ? "code" : `error=${next.searchParams.get("error")}`;
        if (/^\/(uk|en)\//.test(next.pathname)) return `${next.pathname}${next.search}${next.hash}`;
      }
      return "too many redirects";
    },
  };

  /** The decision, the person and application that meet it, and what each protocol answers. */
  const cases: [GateDecisionKind, "member" | "guarded" | undefined, Requirement, boolean, Record<string, string>][] = [
    ["sign_in", undefined, "open", false, { ticketPath: "/uk/?appId=", cas: "/uk/", saml: "/uk/", oidc: "/uk/" }],
    ["sign_in_again", "member", "open", true, { cas: "/uk/?reauth=1", saml: "/uk/?reauth=1", oidc: "/uk/?reauth=1" }],
    [
      "no_access",
      "member",
      "closed",
      false,
      { ticketPath: "/uk/apps?appId=", cas: "/uk/apps?appId=", saml: "RequestDenied", oidc: "/uk/consent?uid=" },
    ],
    [
      "no_access",
      "member",
      "closed-mfa",
      false,
      { ticketPath: "/uk/apps?appId=", cas: "/uk/apps?appId=", saml: "RequestDenied", oidc: "/uk/consent?uid=" },
    ],
    [
      "testing_only",
      "member",
      "testing",
      false,
      { ticketPath: "&refused=testing", cas: "&refused=testing", saml: "RequestDenied", oidc: "/uk/consent?uid=" },
    ],
    [
      "step_up",
      "member",
      "mfa",
      false,
      {
        ticketPath: "&reauth=1&mfa=1",
        cas: "/uk/?reauth=1&mfa=1",
        saml: "/uk/?reauth=1&mfa=1",
        oidc: "/uk/?reauth=1&mfa=1",
      },
    ],
    [
      "set_up_second_factor",
      "guarded",
      "mfa",
      false,
      {
        ticketPath: "/uk/account#second-factor",
        cas: "/uk/account#second-factor",
        saml: "/uk/account#second-factor",
        oidc: "/uk/account#second-factor",
      },
    ],
    [
      "consent",
      "member",
      "community",
      false,
      {
        ticketPath: "/uk/consent?ticket=",
        cas: "/uk/consent?ticket=",
        saml: "/uk/consent?saml=…",
        oidc: "/uk/consent?uid=",
      },
    ],
    [
      "issue",
      "member",
      "open",
      false,
      {
        ticketPath: "https://open.example.edu/kpi-id/callback?ticketId=",
        cas: "ticket",
        saml: "Success",
        oidc: "code",
      },
    ],
  ];

  it.each(cases)("%s", async (_decision, who, requirement, fresh, expected) => {
    const protocols: Record<string, Protocol> = { ticketPath, cas, saml, oidc };
    for (const [name, answer] of Object.entries(expected)) {
      const cookie = who ? cookies[who] : undefined;
      const got = await protocols[name]?.answer(requirement, cookie, fresh);
      expect(got, name).toContain(answer);
    }
  });
});
