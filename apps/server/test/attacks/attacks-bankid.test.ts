import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../sandbox/src/bankid/index.ts";
import { bankIdPersonas } from "../../../../sandbox/src/bankid/personas.ts";
import { createCertificateAuthority, issueCertificate, newKey, type Party } from "../../../../sandbox/src/diia/pki.ts";
import { encryptForBankId, makeBankIdEnvelope, signForBankId } from "../../src/sign-in/bankid/crypto/envelope-maker.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../support/app.ts";
import {
  answerAtBank,
  bankIdErrorOf,
  bankIdSettings,
  finishBankIdSignIn,
  insertDemoPeople,
  startBankIdSignIn,
} from "../support/bankid.ts";
import { aboveModelDatabases } from "../support/databases.ts";

const ordinary = bankIdPersonas.find((persona) => persona.id === "ordinary")?.data ?? {};
const hourMs = 3600_000;

function certificateFrom(ca: Party, commonName: string, keyAgreement: boolean): Party {
  const key = newKey();
  const name = { commonName, organizationName: commonName, countryName: "UA" };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial: Math.floor(Math.random() * 0x3fffff),
    valid: { from: Date.now() - hourMs, to: Date.now() + 24 * hourMs },
    ca: false,
    keyAgreement,
  });
  return { key, certificate, name };
}

describe.each(aboveModelDatabases)("attacks on sign-in with BankID NBU (%s)", (kind) => {
  let standIn: RunningBankIdStandIn;
  let testApp: TestApp;

  beforeAll(async () => {
    standIn = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    testApp = await createTestApp(kind, bankIdSettings(standIn));
    await insertDemoPeople(testApp.app.db);
    // Keys are made in JavaScript and the database migrated: slow on a busy machine.
  }, 180_000);
  afterEach(() => {
    standIn.misbehave.resource = undefined;
  });
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
  });

  const ourCertificate = () => standIn.pki.organisation.certificate;
  const privatbank = () => {
    const bank = standIn.pki.banks.get("privatbank");
    if (!bank) throw new Error("no privatbank");
    return bank;
  };

  /** A sign-in as the ordinary person, with the node's answer rewritten; answers the reason and the audit reason. */
  async function attempt(rewrite?: (answer: Record<string, unknown>) => Record<string, unknown>, bank = "privatbank") {
    standIn.misbehave.resource = rewrite;
    const started = await startBankIdSignIn(testApp.app, bank ? { bank } : {});
    const { answer } = await answerAtBank(started.location, "ordinary");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    const session = response.cookies.some((c) => c.name.endsWith("kpi_id_session") && c.value !== "");
    const audit = await testApp.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("auth_method", "=", "BANK_ID")
      .where("result", "=", "failure")
      .orderBy("id", "desc")
      .executeTakeFirst();
    return { reason: bankIdErrorOf(response), session, audited: audit?.reason };
  }

  it("an unchanged answer signs in (the baseline the attacks change)", async () => {
    expect(await attempt()).toMatchObject({ reason: null, session: true });
  });

  it("refuses a forged envelope: the person's data changed after the bank signed it", async () => {
    const forged = await attempt((answer) => {
      const signed = signForBankId(ordinary, privatbank());
      const original = Buffer.from(JSON.stringify(ordinary), "utf8");
      const at = signed.indexOf(original);
      const changed = Buffer.from(signed);
      changed.write("3312345674", at + original.indexOf(Buffer.from("3012345670")), "utf8");
      return { ...answer, customerCrypto: encryptForBankId(changed, ourCertificate()).toString("base64") };
    });
    expect(forged).toEqual({ reason: "invalid_answer", session: false, audited: "bankid.envelope_digest_mismatch" });
  });

  it("refuses an envelope encrypted for another organisation", async () => {
    const other = certificateFrom(standIn.pki.ca, "Another university", true);
    const result = await attempt((answer) => ({
      ...answer,
      customerCrypto: makeBankIdEnvelope({ data: ordinary, bank: privatbank(), recipient: other.certificate }),
    }));
    expect(result).toEqual({ reason: "invalid_answer", session: false, audited: "bankid.envelope_wrong_recipient" });
  });

  it("refuses a bank certificate from a CA that is not configured", async () => {
    const rogueCa = createCertificateAuthority("Rogue CA");
    const rogueBank = certificateFrom(rogueCa, "ПриватБанк", false);
    const result = await attempt((answer) => ({
      ...answer,
      customerCrypto: makeBankIdEnvelope({ data: ordinary, bank: rogueBank, recipient: ourCertificate() }),
    }));
    expect(result).toEqual({
      reason: "invalid_answer",
      session: false,
      audited: "bankid.envelope_untrusted_certificate",
    });
  });

  it("static agreement: refuses another bank's encryption certificate, a rogue one, and none", async () => {
    const encryptionOf = (bank: string) => {
      const party = standIn.pki.bankEncryption.get(bank);
      if (!party) throw new Error(`no ${bank}`);
      return party;
    };
    const staticEnvelope = (encryption: Party) =>
      makeBankIdEnvelope({
        data: ordinary,
        bank: privatbank(),
        recipient: ourCertificate(),
        shape: { originator: "issuerAndSerialNumber", ukm: false },
        bankEncryption: encryption,
      });
    // monobank's genuine encryption certificate, in an answer from privatbank (memberId 14360570).
    const monobank = encryptionOf("monobank");
    expect(
      await attempt((answer) => ({
        ...answer,
        customerCrypto: staticEnvelope(monobank),
        cert: monobank.certificate.as_asn1().toString("base64"),
      })),
    ).toEqual({ reason: "invalid_answer", session: false, audited: "bankid.envelope_originator_not_the_bank" });
    const rogue = certificateFrom(createCertificateAuthority("Rogue CA"), "ПриватБанк", true);
    expect(
      await attempt((answer) => ({
        ...answer,
        customerCrypto: staticEnvelope(rogue),
        cert: rogue.certificate.as_asn1().toString("base64"),
      })),
    ).toEqual({ reason: "invalid_answer", session: false, audited: "bankid.envelope_originator_untrusted" });
    expect(
      await attempt(({ cert: _dropped, ...answer }) => ({
        ...answer,
        customerCrypto: staticEnvelope(encryptionOf("privatbank")),
      })),
    ).toEqual({ reason: "invalid_answer", session: false, audited: "bankid.envelope_originator_certificate_missing" });
  });

  it("refuses garbage in customerCrypto and a missing envelope, never with a 500", async () => {
    expect(await attempt((answer) => ({ ...answer, customerCrypto: "AAAA" }))).toMatchObject({
      reason: "invalid_answer",
      audited: "bankid.envelope_malformed",
    });
    expect(await attempt(({ customerCrypto: _dropped, ...answer }) => answer)).toMatchObject({
      reason: "invalid_answer",
      audited: "bankid.malformed_answer",
    });
  });

  it("refuses another bank's memberId, and with NBU's chooser a memberId NBU does not list", async () => {
    expect(await attempt((answer) => ({ ...answer, memberId: "22866" }))).toMatchObject({
      reason: "invalid_answer",
      audited: "bankid.wrong_member",
    });
    expect(await attempt((answer) => ({ ...answer, memberId: "00000000" }), "")).toMatchObject({
      reason: "invalid_answer",
      audited: "bankid.wrong_member",
    });
    expect(await attempt(undefined, "")).toMatchObject({ reason: null, session: true });
  });

  it("refuses an error in a 200 answer and a state other than ok", async () => {
    expect(await attempt(() => ({ error: "invalid_cert" }))).toMatchObject({
      reason: "invalid_answer",
      audited: "bankid.invalid_cert",
    });
    expect(await attempt((answer) => ({ ...answer, state: "err" }))).toMatchObject({
      reason: "invalid_answer",
      audited: "bankid.state_not_ok",
    });
  });

  it("refuses a replayed code, even with the pending sign-in's cookie kept", async () => {
    const started = await startBankIdSignIn(testApp.app);
    const { answer } = await answerAtBank(started.location, "ordinary");
    const first = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(first.headers.location).toBe("/uk/apps");
    const again = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(bankIdErrorOf(again)).toBe("expired");
    expect(again.cookies.some((c) => c.name.endsWith("kpi_id_session") && c.value !== "")).toBe(false);
  });

  it("refuses an answer whose state is not this browser's, or that comes with no pending sign-in", async () => {
    const victim = await startBankIdSignIn(testApp.app);
    const attacker = await startBankIdSignIn(testApp.app);
    // Login CSRF: the attacker's code and state planted in the victim's browser.
    const { answer } = await answerAtBank(attacker.location, "ordinary");
    expect(bankIdErrorOf(await finishBankIdSignIn(testApp.app, answer, victim.cookie))).toBe("expired");
    expect(bankIdErrorOf(await finishBankIdSignIn(testApp.app, answer, ""))).toBe("expired");
    const forgedCookie = victim.cookie.replace(/kpi_id_bankid=[^;]+/, "kpi_id_bankid=%7B%22state%22%3A%22x%22%7D");
    expect(bankIdErrorOf(await finishBankIdSignIn(testApp.app, answer, forgedCookie))).toBe("expired");
  });

  it("never redirects off the site: a foreign redirectUri stays a parameter of the apps page", async () => {
    const appId = "5b0c2f7e-3a51-4c1e-9d59-0b6f5f0f2a11";
    const started = await startBankIdSignIn(testApp.app, { appId, redirectUri: "https://evil.example/steal" });
    const { answer } = await answerAtBank(started.location, "ordinary");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(String(response.headers.location)).toMatch(/^\/uk\/apps\?appId=/);
    const notUuid = await testApp.app.inject({
      method: "GET",
      url: "/api/bankid/redirect?appId=https://evil.example",
      headers: { accept: "application/json" },
    });
    expect(notUuid.statusCode).toBe(400);
    // A bank id cannot smuggle parameters into NBU's URL.
    const smuggled = await testApp.app.inject({
      method: "GET",
      url: `/api/bankid/redirect?bank=${encodeURIComponent("privatbank&redirect_uri=https://evil.example")}`,
      headers: { accept: "text/html" },
    });
    expect(smuggled.headers.location).toBe("/uk/?bankid_auth_error=unavailable");
  });
});
