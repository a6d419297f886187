import { casPaths } from "@kpi-id/contracts";
import { DOMParser } from "@xmldom/xmldom";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { serviceTicket, studentWithService } from "../support/cas.ts";
import { sessionCookieOf } from "../support/console.ts";
import { aboveModelDatabases } from "../support/databases.ts";

const seed = Number(process.env.FUZZ_SEED ?? 20_261_127);
const registered = "https://cas.example.edu/app/";

/**
 * Whether a redirect stays under the registered prefix as the most liberal server reads it: every escape decoded
 * (twice), backslashes as slashes, ";" ending a segment, slashes merged, dot segments resolved.
 */
function underRegisteredAsServersReadIt(location: string): boolean {
  if (!location.startsWith("https://cas.example.edu/")) return false;
  let path = location.slice("https://cas.example.edu".length).split("?", 1)[0] ?? "";
  for (let round = 0; round < 2; round++)
    path = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const segments: string[] = [];
  for (const segment of path
    .replaceAll("\\", "/")
    .split("/")
    .map((part) => part.split(";")[0] ?? "")) {
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return `/${segments.join("/")}/`.startsWith("/app/") && !/[^\x21-\x7e]/.test(location);
}

/**
 * The CAS endpoints with what a CAS client, a thief or a hostile page may send: any service (registered, near it
 * or anything), any ticket (live, spent, made up), any callback, renew, gateway and format. None answers 5xx, every
 * validation is well-formed XML (or JSON) in the CAS namespace, and /login and /logout send the browser only to a
 * registered service or to KPI ID's own pages.
 */
describe.each(aboveModelDatabases)("fuzzing the CAS endpoints (%s)", (kind) => {
  let t: TestApp;
  let cookie: string;
  let live: () => Promise<string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const { student } = await studentWithService(t.app, registered, {
      match: "prefix",
      proxy: true,
      singleLogout: true,
    });
    cookie = student.cookie;
    // A fresh session each time: a generated /cas/logout may have ended the one the requests carry.
    live = async () =>
      serviceTicket(t.app, await sessionCookieOf(t.app, student.person.id, "PASSWORD"), `${registered}page`);
  });
  afterAll(() => t.close());

  const anyText = fc.string({ maxLength: 300 });
  // Pieces a web server may read as another path, or that no header may carry (issue 73).
  const hostilePiece = fc.constantFrom(
    "..",
    "%2f",
    "%2F",
    "%2e",
    "%5c",
    "\\",
    ";",
    "//",
    "/",
    "%25",
    "\n",
    "\r",
    "\u0000",
    "\t",
  );
  const hostilePath = fc.array(fc.oneof(hostilePiece, fc.constantFrom("a", "page", "admin")), { maxLength: 8 });
  const service = fc.oneof(
    anyText,
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    anyText.map((path) => `${registered}${path}`),
    hostilePath.map((pieces) => `${registered}${pieces.join("")}`),
    fc.constantFrom(
      registered,
      `${registered}page`,
      "https://cas.example.edu/app",
      "https://cas.example.edu.evil.example/app/",
      "https://cas.example.edu@evil.example/app/",
      "javascript:alert(1)",
      "//evil.example/",
    ),
  );
  const ticket = fc.oneof(anyText, fc.constantFrom("live", "ST-", "PT-", "PGT-", "ST-00", "PGTIOU-1"));
  const flag = fc.option(fc.constantFrom("true", "false", "1", "", "TRUE", "yes"), { nil: undefined });
  const request = fc.record({
    path: fc.constantFrom(
      ...Object.values(casPaths).filter((path) => path !== casPaths.continue && path !== casPaths.samlValidate),
    ),
    service: fc.option(service, { nil: undefined }),
    ticket: fc.option(ticket, { nil: undefined }),
    pgtUrl: fc.option(fc.oneof(service, fc.constantFrom("https://cas.example.edu/pgt", "http://cas.example.edu/pgt")), {
      nil: undefined,
    }),
    renew: flag,
    gateway: flag,
    format: fc.option(fc.constantFrom("JSON", "json", "XML", "x"), { nil: undefined }),
    method: fc.option(fc.constantFrom("POST", "GET", "post"), { nil: undefined }),
    signedIn: fc.boolean(),
  });

  const isWellFormedCas = (body: string) => {
    const errors: string[] = [];
    const document = new DOMParser({ onError: (level, message) => errors.push(`${level} ${message}`) }).parseFromString(
      body,
      "application/xml",
    );
    return errors.length === 0 && document.documentElement?.namespaceURI === "http://www.yale.edu/tp/cas";
  };

  it("answers every generated request without a 5xx, in CAS's own form, redirecting only where it may", async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ path, signedIn, ...fields }) => {
        const query: Record<string, string> = {};
        for (const [name, value] of Object.entries(fields)) if (value !== undefined) query[name] = value;
        if (query.ticket === "live") query.ticket = await live();
        if (path === casPaths.proxy) {
          if (query.ticket !== undefined) query.pgt = query.ticket;
          if (query.service !== undefined) query.targetService = query.service;
        }
        const response = await t.app.inject({
          url: `${path}?${new URLSearchParams(query)}`,
          headers: signedIn ? { cookie, accept: "text/html" } : { accept: "text/html" },
        });
        expect(response.statusCode).toBeLessThan(500);
        const type = String(response.headers["content-type"] ?? "");
        if (type.startsWith("application/xml")) expect(isWellFormedCas(response.body)).toBe(true);
        if (type.startsWith("application/json") && path !== casPaths.login && path !== casPaths.logout) {
          expect(Object.keys(response.json())).toEqual(["serviceResponse"]);
        }
        if (response.statusCode === 302 || response.statusCode === 303) {
          const location = String(response.headers.location);
          const ours = location.startsWith("/") && !location.startsWith("//");
          expect(ours || underRegisteredAsServersReadIt(location), location).toBe(true);
        }
      }),
      { numRuns: 500, seed },
    );
  }, 300_000);

  it("answers every generated SAML 1.1 validation with a SOAP envelope, never a 5xx", async () => {
    const artifact = fc.oneof(
      ticket,
      hostilePath.map((pieces) => pieces.join("")),
    );
    const body = fc.oneof(
      anyText,
      artifact.map(
        (value) =>
          `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol"><samlp:AssertionArtifact>${value}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.option(service, { nil: undefined }), body, flag, async (target, payload, renew) => {
        const query = new URLSearchParams();
        if (target !== undefined) query.set("TARGET", target);
        if (renew !== undefined) query.set("renew", renew);
        const sent = payload.includes(">live<") ? payload.replace(">live<", `>${await live()}<`) : payload;
        const response = await t.app.inject({
          method: "POST",
          url: `${casPaths.samlValidate}?${query}`,
          headers: { "content-type": "text/xml" },
          payload: sent,
        });
        expect(response.statusCode).toBe(200);
        expect(response.body).toMatch(/^<SOAP-ENV:Envelope /);
      }),
      { numRuns: 150, seed },
    );
  }, 120_000);
});
