import jkurwa, { type Certificate } from "jkurwa";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { answerOcspRequest, type OcspAuthority } from "../../../../../sandbox/src/diia/ocsp-responder.ts";
import {
  createCertificateAuthority,
  der,
  issueCrl,
  issueOcspSigner,
  type Party,
  signRequestHash,
} from "../../../../../sandbox/src/diia/pki.ts";
import { CrlStore } from "../../../src/sign-in/diia/crypto/crl-store.ts";
import { hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { JkurwaSignatureVerifier } from "../../../src/sign-in/diia/crypto/jkurwa-verifier.ts";
import { ocspAddressesOf } from "../../../src/sign-in/diia/crypto/ocsp.ts";
import { OcspStore } from "../../../src/sign-in/diia/crypto/ocsp-store.ts";
import { revocationChecker } from "../../../src/sign-in/diia/crypto/revocation.ts";
import { testQualifiedCa } from "../../support/diia-pki.ts";

const hourMs = 3600 * 1000;
const responder = "http://ocsp.example.ua/services/ocsp/";

function recordingLog() {
  const lines: string[] = [];
  const write = (object: object, message: string) => lines.push(`${message} ${JSON.stringify(object)}`);
  return { lines, log: { info: write, error: write } };
}

describe("Diia OCSP answers beside the CRLs", () => {
  const start = Date.now();
  const requestId = "7b0c4d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";
  let ca: Party;
  let anchor: Certificate;
  let revoked: Party;
  let good: Party;
  let revokedSerials: Set<string>;
  let authority: OcspAuthority;

  beforeAll(() => {
    ({ ca, anchor, revoked, good } = testQualifiedCa());
    revokedSerials = new Set([revoked.certificate.serial.toString(16)]);
    authority = { ca, revoked: () => revokedSerials };
  });

  /** The CA's responder answering at `at`; `asked` counts the requests it got. */
  function responderAt(
    clock: () => number,
    answer = (request: Buffer) => answerOcspRequest(request, [authority], clock()),
  ) {
    const asked: string[] = [];
    const post = async (url: string, request: Buffer) => {
      asked.push(url);
      return answer(request);
    };
    return { asked, post };
  }

  const signed = (party: Party) => signRequestHash(party, hashRequestId(requestId));

  it("refuses a signer the OCSP answer says is revoked, though the current CRL does not list it", async () => {
    const clock = () => start;
    const crls = new CrlStore({
      sources: ["ca.crl"],
      authorities: [anchor],
      graceSeconds: 0,
      log: recordingLog().log,
      load: async () => issueCrl(ca, [], { thisUpdate: start, nextUpdate: start + hourMs }),
    });
    await crls.refresh(new Date(start));
    const { post } = responderAt(clock);
    const ocsp = new OcspStore({
      responders: [responder],
      authorities: [anchor],
      graceSeconds: 0,
      log: recordingLog().log,
      signers: [revoked.certificate, good.certificate],
      post,
    });
    await ocsp.refresh(new Date(start));
    const verifier = new JkurwaSignatureVerifier([anchor], [], revocationChecker(crls, ocsp));
    const at = new Date(start + 60_000);
    expect(verifier.verify({ signature: signed(revoked), requestId, now: at })).toEqual({
      ok: false,
      reason: "certificate_revoked",
    });
    expect(verifier.verify({ signature: signed(good), requestId, now: at })).toMatchObject({ ok: true });
  });

  it("counts a fresh OCSP good while the CRL is stale, and fails closed once neither is current", async () => {
    const crls = new CrlStore({
      sources: ["ca.crl"],
      authorities: [anchor],
      graceSeconds: 0,
      log: recordingLog().log,
      load: async () => issueCrl(ca, [], { thisUpdate: start - 3 * hourMs, nextUpdate: start - 2 * hourMs }),
    });
    await crls.refresh(new Date(start));
    expect(crls.status(good.certificate, anchor, new Date(start))).toBe("unknown");
    let now = start;
    let reachable = true;
    const { post } = responderAt(
      () => now,
      (request) => {
        if (!reachable) throw new Error("connect ECONNREFUSED");
        return answerOcspRequest(request, [authority], now);
      },
    );
    const { lines, log } = recordingLog();
    const ocsp = new OcspStore({ responders: [responder], authorities: [anchor], graceSeconds: 600, log, post });
    ocsp.watch(good.certificate, anchor, new Date(now));
    await ocsp.refresh(new Date(now));
    const verifier = new JkurwaSignatureVerifier([anchor], [], revocationChecker(crls, ocsp));
    expect(verifier.verify({ signature: signed(good), requestId, now: new Date(now) })).toMatchObject({ ok: true });
    // The responder goes away: the last good answer counts to nextUpdate plus the grace, then nothing is current.
    reachable = false;
    now = start + hourMs - 1000;
    await ocsp.refresh(new Date(now));
    expect(lines.at(-1)).toMatch(/Diia OCSP answer unavailable: .*ECONNREFUSED.*last good one/);
    expect(ocsp.status(good.certificate, new Date(start + hourMs + 500_000))).toBe("good");
    expect(ocsp.staleCertificates(new Date(start + hourMs + 1000))).toEqual([good.certificate.serial.toString(16)]);
    const late = new Date(start + hourMs + 601_000);
    expect(verifier.verify({ signature: signed(good), requestId, now: late })).toEqual({
      ok: false,
      reason: "revocation_unknown",
    });
  });

  it("refuses a tampered answer, one another CA signed and a delegated signer without id-kp-OCSPSigning, keeping the last good", async () => {
    let serve: (request: Buffer) => Buffer = (request) => answerOcspRequest(request, [authority], start);
    const { post } = responderAt(
      () => start,
      (request) => serve(request),
    );
    const { lines, log } = recordingLog();
    const ocsp = new OcspStore({ responders: [responder], authorities: [anchor], graceSeconds: 0, log, post });
    ocsp.watch(revoked.certificate, anchor, new Date(start));
    await ocsp.refresh(new Date(start));
    expect(ocsp.status(revoked.certificate, new Date(start))).toBe("revoked");
    const stranger = createCertificateAuthority("Test qualified CA");
    // Another CA's key, a delegated signer without the extended key usage (an ordinary person's certificate),
    // and a byte flipped inside the signed part (good becomes something else, or the signature breaks).
    const notDelegated = { ...good, certificate: good.certificate };
    const forgeries: ((request: Buffer) => Buffer)[] = [
      (request) =>
        answerOcspRequest(
          request,
          [{ ca: { ...stranger, certificate: ca.certificate }, revoked: () => new Set() }],
          start + 1000,
        ),
      (request) =>
        answerOcspRequest(request, [{ ca, delegated: notDelegated, revoked: () => new Set() }], start + 1000),
      (request) => {
        const answer = answerOcspRequest(request, [{ ca, revoked: () => new Set() }], start + 1000);
        // 100 bytes from the end: inside tbsResponseData (the signature and its algorithm take about 85).
        answer[answer.length - 100] = (answer[answer.length - 100] ?? 0) ^ 0x01;
        return answer;
      },
    ];
    for (const [index, forgery] of forgeries.entries()) {
      serve = forgery;
      // Past half the held answer's lifetime, when it is asked for again.
      await ocsp.refresh(new Date(start + 31 * 60_000 + index * 61_000));
      expect(lines.at(-1)).toMatch(/Diia OCSP answer refused: it /);
      expect(ocsp.status(revoked.certificate, new Date(start + 40 * 60_000))).toBe("revoked");
    }
  });

  it("accepts an answer the CA's delegated OCSP signer made", async () => {
    const delegated = issueOcspSigner(ca, { from: start - hourMs, to: start + 24 * hourMs });
    const { post } = responderAt(
      () => start,
      (request) => answerOcspRequest(request, [{ ...authority, delegated }], start),
    );
    const ocsp = new OcspStore({
      responders: [responder],
      authorities: [anchor],
      graceSeconds: 0,
      log: recordingLog().log,
      post,
    });
    ocsp.watch(revoked.certificate, anchor, new Date(start));
    await ocsp.refresh(new Date(start));
    expect(ocsp.status(revoked.certificate, new Date(start))).toBe("revoked");
  });

  it("never asks the responder inside a callback: the signer is refreshed in the background just after", async () => {
    const { asked, post } = responderAt(() => Date.now());
    const ocsp = new OcspStore({
      responders: [responder],
      authorities: [anchor],
      graceSeconds: 0,
      log: recordingLog().log,
      post,
    });
    const verifier = new JkurwaSignatureVerifier([anchor], [], revocationChecker(undefined, ocsp));
    const stop = ocsp.startBackgroundRefresh(() => new Date(), 60_000);
    try {
      // No answer held: the callback is decided by what is held (nothing: fail closed), and nothing was fetched.
      expect(verifier.verify({ signature: signed(revoked), requestId, now: new Date() })).toEqual({
        ok: false,
        reason: "revocation_unknown",
      });
      expect(asked).toEqual([]);
      await vi.waitFor(() => expect(ocsp.status(revoked.certificate, new Date())).toBe("revoked"));
      expect(asked).toEqual([responder]);
      expect(verifier.verify({ signature: signed(revoked), requestId, now: new Date() })).toEqual({
        ok: false,
        reason: "certificate_revoked",
      });
      expect(asked).toEqual([responder]);
    } finally {
      stop();
    }
  });

  it("asks the responder the certificate's Authority Information Access names when DIIA_OCSP says aia", async () => {
    // caIssuers first, as qualified certificates list it, then an ldap and an http OCSP address.
    const access = (method: string, uri: string) =>
      der(0x30, Buffer.concat([der(0x06, Buffer.from(method, "hex")), der(0x86, Buffer.from(uri, "latin1"))]));
    const caIssuers = "2b06010505073002";
    const ocspMethod = "2b06010505073001";
    const withAia = jkurwa.Certificate.from_asn1(good.certificate.as_asn1());
    withAia.ob.tbsCertificate.extensions.push({
      extnID: "authorityInfoAccess",
      extnValue: der(
        0x30,
        Buffer.concat([
          access(caIssuers, "http://czo.gov.ua/download/certificates/CA.cer"),
          access(ocspMethod, "ldap://czo.gov.ua/ocsp"),
          access(ocspMethod, "http://czo.gov.ua/services/ocsp/"),
        ]),
      ),
    });
    expect(ocspAddressesOf(withAia)).toEqual(["http://czo.gov.ua/services/ocsp/"]);
    expect(ocspAddressesOf(good.certificate)).toEqual([]);
    const { asked, post } = responderAt(() => start);
    const ocsp = new OcspStore({
      responders: ["aia"],
      authorities: [anchor],
      graceSeconds: 0,
      log: recordingLog().log,
      post,
    });
    ocsp.watch(withAia, anchor, new Date(start));
    await ocsp.refresh(new Date(start));
    expect(asked).toEqual(["http://czo.gov.ua/services/ocsp/"]);
    expect(ocsp.status(withAia, new Date(start))).toBe("good");
  });
});
