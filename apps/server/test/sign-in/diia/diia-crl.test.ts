import jkurwa, { type Certificate } from "jkurwa";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createCertificateAuthority,
  createIntermediateCa,
  issueCrl,
  issuePersonCertificate,
  type Party,
  signRequestHash,
} from "../../../../../sandbox/src/diia/pki.ts";
import { verifyCrl } from "../../../src/sign-in/diia/crypto/crl.ts";
import { CrlStore } from "../../../src/sign-in/diia/crypto/crl-store.ts";
import { hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { JkurwaSignatureVerifier } from "../../../src/sign-in/diia/crypto/jkurwa-verifier.ts";
import { parseTrustAnchors } from "../../../src/sign-in/diia/crypto/trust-anchors.ts";
import { taras, testQualifiedCa } from "../../support/diia-pki.ts";

const hourMs = 3600 * 1000;

/** Log lines the store writes, so a test can see what an operator would read. */
function recordingLog() {
  const lines: string[] = [];
  const write = (object: object, message: string) => lines.push(`${message} ${JSON.stringify(object)}`);
  return { lines, log: { info: write, error: write } };
}

describe("Diia CA certificate revocation lists", () => {
  const now = Date.now();
  const times = { thisUpdate: now, nextUpdate: now + hourMs };
  let ca: Party;
  let anchor: Certificate;
  let revokedPerson: Party;
  let goodPerson: Party;
  let crl: Buffer;

  beforeAll(() => {
    ({ ca, anchor, revoked: revokedPerson, good: goodPerson } = testQualifiedCa());
    crl = issueCrl(ca, [revokedPerson.certificate], times);
  });

  it("parses the CA's CRL (DER and PEM), checks its signature and lists the revoked serial", () => {
    const verified = verifyCrl(crl, [anchor]);
    expect(verified.issuer).toBe(anchor);
    expect(verified.nextUpdate).toBe(Math.floor(times.nextUpdate / 1000) * 1000);
    expect([...verified.revokedSerials]).toEqual([revokedPerson.certificate.serial.toString(16)]);
    const pem = `-----BEGIN X509 CRL-----\n${crl.toString("base64")}\n-----END X509 CRL-----\n`;
    expect(verifyCrl(Buffer.from(pem), [anchor]).revokedSerials.size).toBe(1);
  });

  it("refuses a tampered CRL and a CRL no configured CA signed", () => {
    // Change the revoked serial (inside the signed part) so the list would name someone else.
    const serialHex = revokedPerson.certificate.serial.toString(16);
    const tampered = Buffer.from(
      crl.toString("hex").replace(
        serialHex,
        serialHex.replace(/.$/, (d) => (d === "0" ? "1" : "0")),
      ),
      "hex",
    );
    expect(tampered.equals(crl)).toBe(false);
    expect(() => verifyCrl(tampered, [anchor])).toThrow(/not signed by any configured Diia CA/);
    const stranger = createCertificateAuthority("Test qualified CA");
    expect(() => verifyCrl(issueCrl(stranger, [], times), [anchor])).toThrow(/not signed by any configured Diia CA/);
    expect(() => verifyCrl(Buffer.from("not a crl"), [anchor])).toThrow(/cannot be parsed/);
  });

  it("refuses a revoked signer, accepts another, and fails closed for a CA without a CRL", async () => {
    const store = new CrlStore({
      sources: ["ca.crl"],
      authorities: [anchor],
      graceSeconds: 3600,
      log: recordingLog().log,
      load: async () => crl,
    });
    await store.refresh(new Date(now));
    const verifier = new JkurwaSignatureVerifier([anchor], [], store);
    const requestId = "3c9f7e52-6a1d-4b8e-9f00-1a2b3c4d5e6f";
    const signed = (party: Party) => signRequestHash(party, hashRequestId(requestId));
    const at = new Date(now + 60_000);
    expect(verifier.verify({ signature: signed(revokedPerson), requestId, now: at })).toEqual({
      ok: false,
      reason: "certificate_revoked",
    });
    expect(verifier.verify({ signature: signed(goodPerson), requestId, now: at })).toMatchObject({ ok: true });
    // A signer under an intermediate CA that publishes no configured CRL cannot be checked: refused.
    const intermediate = createIntermediateCa(ca, "Test intermediate CA");
    const [intermediateCertificate] = parseTrustAnchors(intermediate.certificate.as_pem());
    const chained = new JkurwaSignatureVerifier(
      [anchor],
      intermediateCertificate ? [intermediateCertificate] : [],
      store,
    );
    expect(
      chained.verify({ signature: signed(issuePersonCertificate(intermediate, taras)), requestId, now: at }),
    ).toEqual({ ok: false, reason: "revocation_unknown" });
  });

  it("takes the signer's certificate the SignerInfo names, not the first one the CMS carries", () => {
    const requestId = "5d1e2f30-4a5b-4c6d-8e7f-901a2b3c4d5e";
    const message = new jkurwa.models.Message(signRequestHash(goodPerson, hashRequestId(requestId)));
    // The CA's certificate ahead of the signer's, as a CMS carrying its chain may order them.
    message.info.certificate?.unshift(ca.certificate.ob);
    expect(message.info.certificate?.length).toBe(2);
    const verifier = new JkurwaSignatureVerifier([anchor]);
    const at = new Date(now + 60_000);
    expect(verifier.verify({ signature: message.as_asn1(), requestId, now: at })).toMatchObject({
      ok: true,
      signer: { taxId: taras.taxId },
    });
    // Without the signer's certificate (and none configured), the refusal says so (issue 73).
    message.info.certificate?.splice(1, 1);
    expect(verifier.verify({ signature: message.as_asn1(), requestId, now: at })).toEqual({
      ok: false,
      reason: "signer_certificate_absent",
    });
  });

  it("keeps the last good CRL past nextUpdate only for the grace, then fails closed until a fresh one loads", async () => {
    let served: Buffer | undefined = crl;
    const { lines, log } = recordingLog();
    const store = new CrlStore({
      sources: ["https://ca.example.ua/CA.crl"],
      authorities: [anchor],
      graceSeconds: 3600,
      log,
      load: async () => {
        if (!served) throw new Error("connect ECONNREFUSED");
        return served;
      },
    });
    await store.refresh(new Date(now));
    const status = (at: number) => store.status(goodPerson.certificate, anchor, new Date(at));
    expect(status(now + 60_000)).toBe("good");
    // The CA's server goes down after nextUpdate: the last good CRL still counts within the grace.
    served = undefined;
    await store.refreshIfDue(new Date(now + hourMs + 60_000));
    expect(lines.at(-1)).toMatch(/Diia CRL unavailable: .*ECONNREFUSED.*last good one/);
    expect(status(now + hourMs + 60_000)).toBe("good");
    expect(status(now + 2 * hourMs + 1000)).toBe("unknown");
    // The CA is back: the next sign-in's refresh loads a fresh CRL and signers are checked again.
    const later = now + 2 * hourMs + 1000;
    served = issueCrl(ca, [revokedPerson.certificate], { thisUpdate: later, nextUpdate: later + hourMs });
    await store.refreshIfDue(new Date(later));
    expect(status(later + 1000)).toBe("good");
    expect(store.status(revokedPerson.certificate, anchor, new Date(later + 1000))).toBe("revoked");
  });

  it("refuses at load a tampered CRL with a log line naming the source, and keeps the last good one", async () => {
    let served = crl;
    const { lines, log } = recordingLog();
    const store = new CrlStore({
      sources: ["/etc/kpi-id/ca.crl"],
      authorities: [anchor],
      graceSeconds: 0,
      log,
      load: async () => served,
    });
    await store.refresh(new Date(now));
    served = Buffer.from(crl);
    served[served.length - 3] = (served[served.length - 3] ?? 0) ^ 0x01;
    await store.refresh(new Date(now + 120_000));
    expect(lines.at(-1)).toMatch(
      /Diia CRL refused: it is not signed by any configured Diia CA.*\/etc\/kpi-id\/ca\.crl/,
    );
    expect(store.status(revokedPerson.certificate, anchor, new Date(now + 120_000))).toBe("revoked");
  });
});
