import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import {
  askForDeepLink,
  callbackBody,
  encodeData,
  expectRefused,
  person,
  pollDiia,
  postCallback,
  postSignedCallback,
  startTestDiia,
} from "../../support/diia.ts";

const campusTaxId = "3012345670"; // the demo "student", whom the stand-in knows as person "student"

describe.each(aboveModelDatabases)("sign-in with Diia on %s", (kind) => {
  let diia: RunningDiiaStandIn;
  let test: TestApp;
  let now = new Date();
  const logLines: string[] = [];

  beforeAll(async () => {
    diia = await startTestDiia();
    test = await createTestApp(
      kind,
      { ...diia.env, LOG_LEVEL: "warn" },
      { protocols: [], clock: () => now, logStream: { write: (line) => logLines.push(line) } },
    );
    await insertUser(test.app.db, { username: "student", full_name: "Олена Коваленко", tax_id: campusTaxId });
    await insertUser(test.app.db, { username: "both", full_name: "Ірина Шевченко", tax_id: "2912345672" });
    await insertUser(test.app.db, { username: "employee", full_name: "Андрій Мельник", tax_id: "2712345673" });
  });

  afterAll(async () => {
    await test?.close();
    await diia?.close();
  });

  // The one browser these tests sign in with: it keeps the binding cookie app-link sets.
  let browserCookie = "";

  async function newRequest() {
    const link = await askForDeepLink(test.app, browserCookie);
    browserCookie = link.cookie;
    return link;
  }

  const check = (requestId: string) => pollDiia(test.app, requestId, browserCookie);

  async function auditReasons(): Promise<string[]> {
    const rows = await test.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("auth_method", "=", "DIIA")
      .orderBy("audit_events.id")
      .execute();
    return rows.map((row) => row.reason ?? "");
  }

  it("asks Diia for a deep link with the hashed request id and polls Processing", async () => {
    const link = await newRequest();
    expect(link.deepLink.startsWith(`${diia.url}/acquirers/offer-request/dynamic/`)).toBe(true);
    expect(new Date(link.createdAt).getTime()).toBe(now.getTime());
    const offered = [...diia.state.offerRequests.values()].at(-1);
    expect(offered?.requestId).toBe(hashRequestId(link.requestId));
    expect((await check(link.requestId)).json()).toEqual({ status: "Processing" });
  });

  it("signs a campus person in: Finished with a one-time grant that /api/auth/internal accepts", async () => {
    const link = await newRequest();
    const callback = await postSignedCallback(test.app, link.requestId, person(diia, "student"));
    expect(callback.statusCode).toBe(200);
    expect(callback.json()).toEqual({ success: true });

    const finished = (await check(link.requestId)).json() as { status: string; sessionId?: string };
    expect(finished.status).toBe("Finished");
    expect(finished.sessionId).toEqual(expect.any(String));
    // Handed out once: the next poll does not repeat it.
    expect((await check(link.requestId)).json()).toEqual({ status: "Finished" });

    const exchange = await postJson(test.app, "/api/auth/internal", { sessionId: finished.sessionId });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.headers["set-cookie"]).toBeDefined();
    const replayedGrant = await postJson(test.app, "/api/auth/internal", { sessionId: finished.sessionId });
    expect(replayedGrant.statusCode).toBe(401);
  });

  it("hands the grant to only one of several simultaneous polls", async () => {
    const link = await newRequest();
    expect((await postSignedCallback(test.app, link.requestId, person(diia, "both"))).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => check(link.requestId)));
    const grants = answers.map((answer) => answer.json().sessionId).filter(Boolean);
    expect(answers.every((answer) => answer.json().status === "Finished")).toBe(true);
    expect(grants).toHaveLength(1);
  });

  it("binds a request to the browser that asked: an HttpOnly SameSite=Strict cookie, one for all its requests", async () => {
    const first = await test.app.inject({ method: "GET", url: "/api/diia/app-link" });
    const cookie = first.cookies.find((each) => each.name === "kpi_id_diia");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    // The same browser asking again (a renewed QR code, another tab) keeps its binding.
    const again = await askForDeepLink(test.app, `kpi_id_diia=${cookie?.value}`);
    expect(again.cookie).toBe(`kpi_id_diia=${cookie?.value}`);
    expect((await pollDiia(test.app, first.json().requestId, again.cookie)).json()).toEqual({ status: "Processing" });
    expect((await pollDiia(test.app, again.requestId, again.cookie)).json()).toEqual({ status: "Processing" });
  });

  it("gives a leaked request id nothing: without the asking browser's cookie it is unknown, and the grant stays for the browser", async () => {
    const link = await newRequest();
    expect((await postSignedCallback(test.app, link.requestId, person(diia, "student"))).statusCode).toBe(200);
    const otherBrowser = (await askForDeepLink(test.app)).cookie;
    for (const cookie of ["", otherBrowser, "kpi_id_diia=forged-forged-forged-forged-forged-forged-forg"]) {
      const stolen = await pollDiia(test.app, link.requestId, cookie);
      expect(stolen.statusCode, cookie).toBe(404);
      expect(stolen.json()).toEqual(expect.objectContaining({ code: "diia.request_not_found" }));
      expect(stolen.body).not.toContain("sessionId");
    }
    const mine = (await check(link.requestId)).json();
    expect(mine).toEqual({ status: "Finished", sessionId: expect.any(String) });
  });

  it("refuses a delivery without X-Diia-Id-Action: auth (a document signing, or a post made up by hand)", async () => {
    const link = await newRequest();
    const hashed = hashRequestId(link.requestId);
    const { signRequestHash } = await import("../../../../../sandbox/src/diia/pki.ts");
    const body = callbackBody(encodeData(hashed, signRequestHash(person(diia, "student").party, hashed)));
    const withoutAction = await test.app.inject({
      method: "POST",
      url: "/api/diia/callback",
      payload: body,
      headers: {
        "content-type": "multipart/form-data; boundary=diia-boundary-7f3a",
        "x-document-request-trace-id": hashed,
      },
    });
    expectRefused(withoutAction);
    expect(await auditReasons()).toContain("diia.malformed");
    expect((await check(link.requestId)).json()).toEqual({ status: "Processing" });
  });

  it("signs in a person whose certificate an intermediate CA issued (DIIA_INTERMEDIATE_CAS leads to the anchor)", async () => {
    const link = await newRequest();
    const callback = await postSignedCallback(test.app, link.requestId, person(diia, "intermediate"));
    expect(callback.statusCode).toBe(200);
    expect((await check(link.requestId)).json()).toEqual({ status: "Finished", sessionId: expect.any(String) });
  });

  it.each(["shape-signer-not-first", "shape-signer-absent", "shape-cades-x-long"])(
    "signs in the stand-in's %s persona (each signature shape Diia may send)",
    async (persona) => {
      const link = await newRequest();
      const callback = await postSignedCallback(test.app, link.requestId, person(diia, persona));
      expect(callback.json()).toEqual({ success: true });
      expect((await check(link.requestId)).json()).toEqual({ status: "Finished", sessionId: expect.any(String) });
    },
  );

  it("accepts multipart/mixed and refuses a replayed delivery", async () => {
    const link = await newRequest();
    const signer = person(diia, "student");
    const first = await postSignedCallback(test.app, link.requestId, signer, { mediaType: "multipart/mixed" });
    expect(first.statusCode).toBe(200);
    const replay = await postSignedCallback(test.app, link.requestId, signer, { mediaType: "multipart/mixed" });
    expectRefused(replay);
    expect(await auditReasons()).toContain("diia.replay");
  });

  // The poll says why, in what the person can act on (issue 37): the screen keeps an alert with whom to ask.
  it.each([
    ["stranger", "diia.unknown_person", "unknown_person"],
    ["untrusted", "diia.untrusted_certificate", "certificate"],
    // The stand-in's CA lists this person's certificate on the CRL it serves (DIIA_CRLS).
    ["revoked", "diia.certificate_revoked", "certificate"],
    // Not on the CRL: only the CA's OCSP responder (DIIA_OCSP) says it is revoked; its certificate is in
    // DIIA_SIGNER_CERTIFICATES, so the product had the answer before this first callback.
    ["revoked-ocsp", "diia.certificate_revoked", "certificate"],
  ])("fails the request when %s signs", async (id, reason, failure) => {
    const link = await newRequest();
    const callback = await postSignedCallback(test.app, link.requestId, person(diia, id));
    expectRefused(callback);
    expect((await check(link.requestId)).json()).toEqual({ status: "Failed", failure });
    expect(await auditReasons()).toContain(reason);
    // Diia hears only `success: false`; the reason stays in our log.
    expect(callback.body).not.toContain(reason);
    const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; reason?: string });
    expect(logged).toContainEqual(expect.objectContaining({ msg: "Diia callback refused", reason }));
  });

  it("reports each DIIA_CRLS source's staleness on /metrics (0: the stand-in's CRLs loaded at start)", async () => {
    const text = (await test.app.inject({ url: "/metrics" })).body;
    expect(text).toContain(`kpi_id_diia_crl_stale{source="${test.config.diia?.crls[0]}"} 0`);
    // Every watched certificate has a current OCSP answer from the stand-in's responder.
    expect(text).toMatch(/^kpi_id_diia_ocsp_stale 0$/m);
  });

  it("fails the request on a signature over another request", async () => {
    const link = await newRequest();
    const other = await newRequest();
    const hashed = hashRequestId(link.requestId);
    const { signRequestHash } = await import("../../../../../sandbox/src/diia/pki.ts");
    const foreign = signRequestHash(person(diia, "student").party, hashRequestId(other.requestId));
    const response = await postCallback(test.app, callbackBody(encodeData(hashed, foreign)));
    expectRefused(response);
    expect((await check(link.requestId)).json()).toEqual({ status: "Failed" });
    expect((await check(other.requestId)).json()).toEqual({ status: "Processing" });
  });

  it("reports Expired after the deep link's life and refuses a late delivery", async () => {
    const link = await newRequest();
    const start = now;
    now = new Date(start.getTime() + (test.config.diia?.requestTtlSeconds ?? 180) * 1000 + 1000);
    try {
      expect((await check(link.requestId)).json()).toEqual({ status: "Expired" });
      const late = await postSignedCallback(test.app, link.requestId, person(diia, "student"));
      expectRefused(late);
      expect((await check(link.requestId)).json()).toEqual({ status: "Expired" });
      expect(await auditReasons()).toContain("diia.expired");
    } finally {
      now = start;
    }
  });

  it("refuses callbacks for unknown requests and malformed bodies without a 500", async () => {
    const unknown = await postSignedCallback(test.app, crypto.randomUUID(), person(diia, "student"));
    expectRefused(unknown);
    expect(await auditReasons()).toContain("diia.unknown_request");
    const link = await newRequest();
    const hashed = hashRequestId(link.requestId);
    const bodies: [string | Buffer, string][] = [
      ["not multipart at all", "multipart/form-data"],
      [callbackBody("%%%not-base64%%%"), "multipart/form-data"],
      [callbackBody(Buffer.from("{not json").toString("base64")), "multipart/form-data"],
      [
        callbackBody(Buffer.from(JSON.stringify({ requestId: 5, signature: [] })).toString("base64")),
        "multipart/mixed",
      ],
      [callbackBody(encodeData(hashed, Buffer.from("garbage"))).replace("encodeData", "other"), "multipart/form-data"],
    ];
    for (const [body, mediaType] of bodies) {
      const response = await postCallback(test.app, body, { "x-document-request-trace-id": hashed }, mediaType);
      expect(response.statusCode, String(body).slice(0, 40)).toBe(200);
      expect(response.json()).toEqual({ success: false });
    }
    const noBoundary = await test.app.inject({
      method: "POST",
      url: "/api/diia/callback",
      payload: "x",
      headers: { "content-type": "multipart/form-data" },
    });
    expectRefused(noBoundary);
    const mismatchedTrace = await postSignedCallback(test.app, link.requestId, person(diia, "student"), {
      headers: { "x-document-request-trace-id": hashRequestId("someone else") },
    });
    expectRefused(mismatchedTrace);
    const otherAction = await postSignedCallback(test.app, link.requestId, person(diia, "student"), {
      headers: { "x-diia-id-action": "hashedFilesSigning" },
    });
    expectRefused(otherAction);
    const huge = await postCallback(test.app, callbackBody("A".repeat(300 * 1024)));
    expect(huge.statusCode).toBe(413);
    // The request survived all of that and can still succeed.
    expect((await check(link.requestId)).json()).toEqual({ status: "Processing" });
  });

  it("answers 400 for a request id that is not one and 404 for an unknown one", async () => {
    expect((await check("not-a-uuid")).statusCode).toBe(400);
    expect((await test.app.inject({ method: "GET", url: "/api/diia/check-request" })).statusCode).toBe(400);
    const unknown = await check(crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("diia.request_not_found");
  });

  it("slows an address down that asks for too many deep links", async () => {
    await test.app.db
      .insertInto("throttle_counters")
      .values({ key: "diia-link:203.0.113.9", failures: 600, blocked_until: new Date(now.getTime() + 60_000) })
      .execute();
    const limited = await test.app.inject({ method: "GET", url: "/api/diia/app-link", remoteAddress: "203.0.113.9" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("request.rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    const other = await test.app.inject({ method: "GET", url: "/api/diia/app-link", remoteAddress: "203.0.113.10" });
    expect(other.statusCode).toBe(200);
  });

  it("keeps the tax id out of the audit trail", async () => {
    const rows = await test.app.db.selectFrom("audit_events").selectAll().orderBy("audit_events.id").execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(campusTaxId);
  });
});
