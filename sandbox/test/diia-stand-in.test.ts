import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyCrl } from "@kpi-id/server/diia-crl";
import {
  DiiaClient,
  hashRequestId,
  JkurwaSignatureVerifier,
  parseMultipart,
  parseTrustAnchors,
} from "@kpi-id/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDiiaStandIn, startDiiaStandIn } from "../src/diia/index.ts";

interface Received {
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** A stand-in for the product's callback endpoint that records what "Diia" delivers. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { "content-type": "application/json" }).end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe("Diia stand-in", () => {
  let diia: RunningDiiaStandIn;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: DiiaClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    diia = await startDiiaStandIn({ productUrl: receiver.url, port: 0 });
    client = new DiiaClient({
      config: { baseUrl: diia.env.DIIA_BASE_URL ?? "", acquirerToken: diia.env.DIIA_ACQUIRER_TOKEN ?? "" },
    });
  });

  afterAll(async () => {
    await diia?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  const deepLinkFor = (ourRequestId: string) =>
    client.createDeepLink(diia.env.DIIA_BRANCH_ID ?? "", {
      offerId: diia.env.DIIA_OFFER_ID ?? "",
      requestId: hashRequestId(ourRequestId),
    });

  it("hands the product an environment with a parseable trust anchor, intermediate CA and absent signer", () => {
    expect(Object.keys(diia.env).sort()).toEqual([
      "DIIA_ACQUIRER_TOKEN",
      "DIIA_BASE_URL",
      "DIIA_BRANCH_ID",
      "DIIA_CRLS",
      "DIIA_INTERMEDIATE_CAS",
      "DIIA_OCSP",
      "DIIA_OFFER_ID",
      "DIIA_SIGNER_CERTIFICATES",
      "DIIA_TRUST_ANCHORS",
    ]);
    expect(parseTrustAnchors(diia.env.DIIA_TRUST_ANCHORS ?? "")).toHaveLength(1);
    expect(parseTrustAnchors(diia.env.DIIA_INTERMEDIATE_CAS ?? "")).toHaveLength(1);
    // The signer-absent persona's certificate and the revoked-ocsp persona's (watched by OCSP from the start).
    expect(parseTrustAnchors(diia.env.DIIA_SIGNER_CERTIFICATES ?? "")).toHaveLength(2);
  });

  it("publishes each CA's signed CRL, the trusted CA's listing the revoked demo person", async () => {
    const authorities = [
      ...parseTrustAnchors(diia.env.DIIA_TRUST_ANCHORS ?? ""),
      ...parseTrustAnchors(diia.env.DIIA_INTERMEDIATE_CAS ?? ""),
    ];
    const sources = (diia.env.DIIA_CRLS ?? "").split(",");
    expect(sources).toHaveLength(2);
    const [caCrl, intermediateCrl] = await Promise.all(
      sources.map(async (source) => verifyCrl(Buffer.from(await (await fetch(source)).arrayBuffer()), authorities)),
    );
    const revoked = diia.people.find((person) => person.id === "revoked");
    expect(revoked?.note).toMatch(/revoked/);
    expect([...(caCrl?.revokedSerials ?? [])]).toEqual([revoked?.party.certificate.serial.toString(16)]);
    expect(caCrl?.issuer).toBe(authorities[0]);
    expect(intermediateCrl?.issuer).toBe(authorities[1]);
    expect(intermediateCrl?.revokedSerials.size).toBe(0);
  });

  it("refuses an unknown acquirer token and calls without a session token", async () => {
    const wrong = await fetch(`${diia.url}/api/v1/auth/acquirer/not-the-token`);
    expect(wrong.status).toBe(401);
    const anonymous = await fetch(`${diia.url}/api/v2/acquirers/branch/${diia.env.DIIA_BRANCH_ID}`);
    expect(anonymous.status).toBe(401);
  });

  it("creates a branch and an offer as `diia setup` does", async () => {
    const branchId = await client.createBranch({
      name: "Test",
      email: "id@kpi.ua",
      customFullName: "Test branch",
      customFullAddress: "Kyiv",
      region: "м. Київ",
      district: "Солом'янський р-н",
      location: "м. Київ",
      street: "просп. Берестейський",
      house: "37",
    });
    const offerId = await client.createOffer(branchId, "Sign in");
    expect(await client.getBranch(branchId)).toMatchObject({
      scopes: { diiaId: ["auth"] },
      street: "просп. Берестейський",
    });
    expect(await client.listOffers(branchId)).toEqual([expect.objectContaining({ _id: offerId, name: "Sign in" })]);
  });

  it("refuses a branch without its address fields, as Diia's SDK samples always send them", async () => {
    const token = await client.sessionToken();
    const refused = await fetch(`${diia.url}/api/v2/acquirers/branch`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Test", customFullName: "Test branch", region: "м. Київ", house: "37" }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("district");
  });

  it("refuses a deep-link request whose requestId is not a hash or whose algorithm is not DSTU", async () => {
    const token = await client.sessionToken();
    const post = (body: unknown) =>
      fetch(`${diia.url}/api/v2/acquirers/branch/${diia.env.DIIA_BRANCH_ID}/offer-request/dynamic`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const offerId = diia.env.DIIA_OFFER_ID;
    expect((await post({ offerId, requestId: "plain-id", signAlgo: "DSTU" })).status).toBe(400);
    expect((await post({ offerId, requestId: hashRequestId("x"), signAlgo: "ECDSA" })).status).toBe(400);
    expect((await post({ offerId: "nope", requestId: hashRequestId("x"), signAlgo: "DSTU" })).status).toBe(404);
  });

  it("shows the asking service and the demo people on the phone page", async () => {
    const page = await (await fetch(await deepLinkFor("page-check"))).text();
    expect(page).toContain("КПІ ім. Ігоря Сікорського — KPI ID");
    for (const person of diia.people) expect(page).toContain(`value="${person.id}"`);
  });

  it("signs the request id with the chosen person's key and posts the multipart callback", async () => {
    const ourRequestId = "2b0c6a4e-6a1f-4c1e-9b55-3f3b1f6c0d11";
    const link = await deepLinkFor(ourRequestId);
    const confirm = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "person=employee&action=confirm",
    });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('data-outcome="sent"');
    // The partner's share of the phone's wait, apart from the signing (the campus rush times KPI ID by it).
    expect(confirm.headers.get("server-timing")).toMatch(/^callback;dur=\d+(\.\d)?$/);

    const delivery = receiver.received.at(-1);
    expect(delivery?.headers["x-diia-id-action"]).toBe("auth");
    expect(delivery?.headers["x-document-request-trace-id"]).toBe(hashRequestId(ourRequestId));
    const [part] = parseMultipart(delivery?.body ?? Buffer.alloc(0), delivery?.headers["content-type"]);
    expect(part?.name).toBe("encodeData");
    const payload = JSON.parse(Buffer.from(part?.body.toString() ?? "", "base64").toString());
    expect(payload.requestId).toBe(hashRequestId(ourRequestId));
    const verifier = new JkurwaSignatureVerifier(parseTrustAnchors(diia.trustAnchorPem));
    const check = verifier.verify({
      signature: Buffer.from(payload.signature, "base64"),
      requestId: ourRequestId,
      now: new Date(),
    });
    expect(check).toEqual({ ok: true, signer: { taxId: "2712345673", fullName: "Мельник Андрій" } });

    // A deep link works once.
    expect((await fetch(link)).status).toBe(410);
  });

  it.each([
    ["shape-signer-not-first", "in the CMS, not first", "none"],
    ["shape-signer-absent", "configured (absent from the CMS)", "none"],
    ["shape-cades-x-long", "first in the CMS", "certificate-values, complete-certificate-references"],
  ])("signs for the %s persona in its shape, which the server's reader opens", async (persona, source, attributes) => {
    const ourRequestId = `2b0c6a4e-6a1f-4c1e-9b55-${persona.length.toString().padStart(12, "0")}`;
    const confirm = await fetch(await deepLinkFor(ourRequestId), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `person=${persona}&action=confirm`,
    });
    expect(await confirm.text()).toContain('data-outcome="sent"');
    const delivery = receiver.received.at(-1);
    const [part] = parseMultipart(delivery?.body ?? Buffer.alloc(0), delivery?.headers["content-type"]);
    const payload = JSON.parse(Buffer.from(part?.body.toString() ?? "", "base64").toString());
    const verifier = new JkurwaSignatureVerifier(
      parseTrustAnchors(diia.trustAnchorPem),
      [],
      undefined,
      parseTrustAnchors(diia.env.DIIA_SIGNER_CERTIFICATES ?? ""),
    );
    const { result, steps } = verifier.trace({
      signature: Buffer.from(payload.signature, "base64"),
      requestId: ourRequestId,
      now: new Date(),
    });
    expect(result.ok).toBe(true);
    expect(steps.find((step) => step.step === "signer's certificate")?.detail).toBe(source);
    expect(steps.find((step) => step.step === "parse")?.detail).toContain(attributes);
  });

  it("sends nothing when the person declines", async () => {
    const before = receiver.received.length;
    const link = await deepLinkFor("declined");
    const decline = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "person=student&action=decline",
    });
    expect(await decline.text()).toContain('data-outcome="declined"');
    expect(receiver.received.length).toBe(before);
  });
});
