import type { Certificate } from "jkurwa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCertificateAuthority,
  createIntermediateCa,
  issueCrl,
  issuePersonCertificate,
  type Party,
  signRequestHash,
} from "../../../../../sandbox/src/diia/pki.ts";
import { AppError } from "../../../src/platform/errors.ts";
import { CrlStore } from "../../../src/sign-in/diia/crypto/crl-store.ts";
import { hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { JkurwaSignatureVerifier } from "../../../src/sign-in/diia/crypto/jkurwa-verifier.ts";
import { ThreadedSignatureVerifier } from "../../../src/sign-in/diia/crypto/threaded-verifier.ts";
import { parseTrustAnchors } from "../../../src/sign-in/diia/crypto/trust-anchors.ts";
import { olena, taras, testQualifiedCa } from "../../support/diia-pki.ts";

// The instance's Diia check (issue 80): the signature and its chain in a worker thread, the revocation on the
// event loop. It must decide every callback as the one-thread verifier does, and refuse past its line's bound.

const requestId = "7a4c2e10-9b3d-4f5e-8a6b-0c1d2e3f4a5b";
const signed = (party: Party, id = requestId) => signRequestHash(party, hashRequestId(id));

describe("Diia signature checks in a worker thread", () => {
  const now = new Date();
  let ca: Party;
  let anchor: Certificate;
  let intermediate: Party;
  let intermediateCertificate: Certificate;
  let revoked: Party;
  let good: Party;
  let store: CrlStore;
  let inline: JkurwaSignatureVerifier;
  let threaded: ThreadedSignatureVerifier;

  beforeAll(async () => {
    ({ ca, anchor, revoked, good } = testQualifiedCa());
    intermediate = createIntermediateCa(ca, "Test intermediate CA");
    [intermediateCertificate] = parseTrustAnchors(intermediate.certificate.as_pem()) as [Certificate];
    const times = { thisUpdate: now.getTime() - 60_000, nextUpdate: now.getTime() + 3600_000 };
    const crls = new Map([
      ["ca.crl", issueCrl(ca, [revoked.certificate], times)],
      ["intermediate.crl", issueCrl(intermediate, [], times)],
    ]);
    store = new CrlStore({
      sources: [...crls.keys()],
      authorities: [anchor, intermediateCertificate],
      graceSeconds: 3600,
      log: { info: () => {}, error: () => {} },
      load: async (source) => crls.get(source) ?? Buffer.alloc(0),
    });
    await store.refresh(now);
    const lists = { anchors: [anchor], intermediates: [intermediateCertificate], signers: [] };
    inline = new JkurwaSignatureVerifier(lists.anchors, lists.intermediates, store);
    threaded = new ThreadedSignatureVerifier(inline, lists);
  });

  afterAll(() => threaded.close());

  it("decides each signature as the verifier on the event loop does", async () => {
    const stranger = createCertificateAuthority("Test qualified CA");
    const cases = [
      { signature: signed(good), requestId },
      { signature: signed(issuePersonCertificate(intermediate, taras)), requestId },
      { signature: signed(revoked), requestId },
      { signature: signed(good, "another request"), requestId },
      { signature: signed(issuePersonCertificate(stranger, olena)), requestId },
      { signature: Buffer.from("not a signature"), requestId },
    ];
    const answers = await Promise.all(cases.map((input) => threaded.verify({ ...input, now })));
    expect(answers).toEqual(cases.map((input) => inline.verify({ ...input, now })));
    expect(answers.map((answer) => (answer.ok ? "ok" : answer.reason))).toEqual([
      "ok",
      "ok",
      "certificate_revoked",
      "digest_mismatch",
      "untrusted_certificate",
      "malformed",
    ]);
    expect(answers[1]).toMatchObject({ ok: true, signer: { taxId: taras.taxId } });
  });

  it("refuses a callback past the line's bound with 429 and Retry-After, and checks the one it holds", async () => {
    const lists = { anchors: [anchor], intermediates: [], signers: [] };
    const narrow = new ThreadedSignatureVerifier(new JkurwaSignatureVerifier([anchor], []), lists, {
      concurrency: 1,
      maxWaiting: 0,
      maxWaitMs: 10_000,
    });
    try {
      const first = narrow.verify({ signature: signed(good), requestId, now });
      const second = narrow.verify({ signature: signed(good), requestId, now }).catch((error: unknown) => error);
      expect(await first).toMatchObject({ ok: true });
      const refused = await second;
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: "request.rate_limited" });
      expect((refused as AppError).headers["retry-after"]).toBeDefined();
    } finally {
      await narrow.close();
    }
  });
});
