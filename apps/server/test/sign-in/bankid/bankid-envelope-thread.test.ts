import { readFileSync } from "node:fs";
import type { Certificate } from "jkurwa";
import { afterAll, describe, expect, it } from "vitest";
import { bankIdPki, standInBanks } from "../../../../../sandbox/src/bankid/banks.ts";
import { AppError } from "../../../src/platform/errors.ts";
import type { BankTrust } from "../../../src/sign-in/bankid/crypto/bank-signature.ts";
import { makeBankIdEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-maker.ts";
import { ThreadedEnvelopeOpener } from "../../../src/sign-in/bankid/crypto/envelope-opener.ts";
import { type OurKeyAgreement, openBankIdEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-reader.ts";
import { readCertificate } from "../../../src/sign-in/bankid/runtime.ts";
import type { RevocationStatus } from "../../../src/sign-in/diia/crypto/crl-store.ts";
import { bankIdVectorFile, bankIdVectorKeys } from "../../support/bankid-vectors.ts";
import { vectorShapes } from "../../vectors/bankid/shapes.ts";

// The instance's BankID envelope (issue 80): key agreement, decryption and the bank's signature in a worker
// thread, revocation on the event loop. It must decide every answer as the reader on the event loop does, and
// refuse past its line's bound.

const pki = bankIdPki();
const [bankInfo] = standInBanks;
const bank = bankInfo ? pki.banks.get(bankInfo.id) : undefined;
const bankEncryption = bankInfo ? pki.bankEncryption.get(bankInfo.id) : undefined;
if (!bankInfo || !bank || !bankEncryption) throw new Error("no stand-in bank");
const person = { firstName: "Олена", middleName: "Петрівна", lastName: "КОВАЛЬ", inn: "3012345678" };
const now = new Date();
/** Inside the vectors' certificates' validity. */
const inside = new Date(Date.UTC(2030, 0, 1));
const answer = { certificate: bankEncryption.certificate.as_asn1().toString("base64"), memberId: bankInfo.memberId };
const envelope = (recipient = pki.organisation.certificate) =>
  makeBankIdEnvelope({ data: person, bank, recipient, bankEncryption, shape: { originator: "issuerAndSerialNumber" } });
const serialOf = (certificate: Certificate) => certificate.serial.toString(16);

/** CRLs as a table: the serials named are revoked, or their status unknown. */
function revocation(statuses: Record<string, RevocationStatus>): BankTrust["revocation"] {
  return { status: (certificate) => statuses[serialOf(certificate)] ?? "good" };
}

/** What the reader on the event loop says, without the signer (the thread keeps it). */
function inline(customerCrypto: string, trust: BankTrust, context = answer) {
  const opened = openBankIdEnvelope(customerCrypto, pki.organisation, trust, now, context);
  return opened.ok ? { ok: true, data: opened.data } : opened;
}

describe("BankID envelopes opened in a worker thread", () => {
  const openers: ThreadedEnvelopeOpener[] = [];
  const opener = (
    trust: BankTrust,
    line?: ConstructorParameters<typeof ThreadedEnvelopeOpener>[1],
    ours: OurKeyAgreement = pki.organisation,
  ) => {
    const made = new ThreadedEnvelopeOpener({ ours, trust }, line);
    openers.push(made);
    return made;
  };
  afterAll(() => Promise.all(openers.map((each) => each.close())));

  it("opens each envelope as the reader on the event loop does", async () => {
    const trust: BankTrust = { anchors: [pki.ca.certificate], intermediates: [] };
    const threaded = opener(trust);
    const good = envelope();
    const cut = Buffer.from(good, "base64").subarray(0, 400).toString("base64");
    const cases: [string, typeof answer][] = [
      [good, answer],
      [envelope(bankEncryption.certificate), answer],
      [cut, answer],
      [good, { ...answer, memberId: "00000001" }],
      ["bm90IGFuIGVudmVsb3Bl", answer],
    ];
    const answers = await Promise.all(cases.map(([each, context]) => threaded.open(each, now, context)));
    expect(answers).toEqual(cases.map(([each, context]) => inline(each, trust, context)));
    expect(answers.map((each) => (each.ok ? "ok" : each.reason))).toEqual([
      "ok",
      "wrong_recipient",
      "malformed",
      "originator_not_the_bank",
      "malformed",
    ]);
    expect(answers[0]).toEqual({ ok: true, data: person });
  });

  // The organisation's key reaches the thread as DER: every curve and shape of the independent vectors opens there.
  it("opens Bouncy Castle's envelopes (each curve, dynamic and static agreement) as on the event loop", async () => {
    const memberId = "00032129";
    const folders = Object.entries(vectorShapes)
      .filter(([, shape]) => !shape.carried)
      .map(([folder]) => folder);
    expect(new Set(folders.map((folder) => vectorShapes[folder]?.curve)).size).toBe(3);
    for (const folder of folders) {
      const keys = bankIdVectorKeys(folder);
      const static_ = vectorShapes[folder]?.originator !== "key";
      const certificate = static_
        ? readCertificate("BANKID_CERTIFICATE", bankIdVectorFile(folder, "originator.pem")).as_asn1().toString("base64")
        : undefined;
      const context = { memberId, ...(certificate ? { certificate } : {}) };
      const customerCrypto = readFileSync(bankIdVectorFile(folder, "envelope.b64"), "utf8").replace(/\s+/g, "");
      const threaded = opener(keys.trust, undefined, keys.ours);
      const opened = await threaded.open(customerCrypto, inside, context);
      await threaded.close();
      expect(opened, folder).toMatchObject({ ok: true, data: { inn: "3012345670" } });
    }
  });

  it("asks the event loop's revocation about the bank's two certificates, as the reader does", async () => {
    const signer = serialOf(bank.certificate);
    const encryption = serialOf(bankEncryption.certificate);
    const tables: Record<string, RevocationStatus>[] = [
      {},
      { [signer]: "revoked" },
      { [signer]: "unknown" },
      { [encryption]: "revoked" },
      { [encryption]: "unknown", [signer]: "revoked" },
    ];
    const good = envelope();
    const decided = [];
    for (const table of tables) {
      const trust: BankTrust = { anchors: [pki.ca.certificate], intermediates: [], revocation: revocation(table) };
      const opened = await opener(trust).open(good, now, answer);
      expect(opened).toEqual(inline(good, trust));
      decided.push(opened.ok ? "ok" : opened.reason);
    }
    expect(decided).toEqual([
      "ok",
      "certificate_revoked",
      "revocation_unknown",
      "originator_untrusted",
      "originator_untrusted",
    ]);
  });

  it("refuses an answer past the line's bound with 429 and Retry-After, and opens the one it holds", async () => {
    const narrow = opener(
      { anchors: [pki.ca.certificate], intermediates: [] },
      { concurrency: 1, maxWaiting: 0, maxWaitMs: 10_000 },
    );
    const first = narrow.open(envelope(), now, answer);
    const second = narrow.open(envelope(), now, answer).catch((error: unknown) => error);
    expect(await first).toEqual({ ok: true, data: person });
    const refused = await second;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "request.rate_limited" });
    expect((refused as AppError).headers["retry-after"]).toBe("10");
  });
});
