import { ocspRequest, verifyOcspResponse } from "@kpi-id/server/diia-ocsp";
import { parseTrustAnchors } from "@kpi-id/server/testing";
import type { Certificate } from "jkurwa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDiiaStandIn, startDiiaStandIn } from "../src/diia/index.ts";

// The stand-in's OCSP responder (DIIA_OCSP) as the product asks it: over plain http, answers signed by the
// trusted CA itself, and for the intermediate CA's people by the OCSP signer that CA delegated.
describe("Diia stand-in OCSP responder", () => {
  let diia: RunningDiiaStandIn;
  let anchor: Certificate;
  let intermediate: Certificate;

  beforeAll(async () => {
    diia = await startDiiaStandIn({ productUrl: "http://127.0.0.1:1", port: 0 });
    [anchor] = parseTrustAnchors(diia.env.DIIA_TRUST_ANCHORS ?? "") as [Certificate];
    [intermediate] = parseTrustAnchors(diia.env.DIIA_INTERMEDIATE_CAS ?? "") as [Certificate];
  });
  afterAll(async () => diia?.close());

  async function ask(personaId: string, issuer: Certificate) {
    const persona = diia.people.find((person) => person.id === personaId);
    if (!persona) throw new Error(`no persona ${personaId}`);
    const signer = persona.party.certificate;
    const response = await fetch(diia.env.DIIA_OCSP ?? "", {
      method: "POST",
      headers: { "content-type": "application/ocsp-request" },
      body: new Uint8Array(ocspRequest(signer)),
    });
    expect(response.headers.get("content-type")).toBe("application/ocsp-response");
    return verifyOcspResponse(Buffer.from(await response.arrayBuffer()), signer, issuer, new Date());
  }

  it("is a plain http address", () => {
    expect(diia.env.DIIA_OCSP).toMatch(/^http:\/\/localhost:\d+\/pki\/ocsp$/);
  });

  it("answers good for a campus person, signed by the trusted CA", async () => {
    expect(await ask("student", anchor)).toMatchObject({ status: "good", signedBy: "issuer" });
  });

  it("answers revoked for the CRL's revoked person and for the one revoked since the last CRL", async () => {
    expect(await ask("revoked", anchor)).toMatchObject({ status: "revoked" });
    expect(await ask("revoked-ocsp", anchor)).toMatchObject({ status: "revoked" });
  });

  it("answers for the intermediate CA's person through its delegated OCSP signer", async () => {
    expect(await ask("intermediate", intermediate)).toMatchObject({ status: "good", signedBy: "delegated" });
  });
});
