import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openBankIdEnvelope } from "../src/sign-in/bankid/crypto/envelope-reader.ts";
import { readBankPerson } from "../src/sign-in/bankid/person-data.ts";
import { loadBankIdKeys, readCertificate } from "../src/sign-in/bankid/runtime.ts";

// An envelope Bouncy Castle made (test/vectors/bankid/BankIdEnvelope.java: its own DSTU 4145 key agreement,
// GOST 34.311 KDF, GOST 28147 key wrap and gamma mode), not KPI ID's envelope maker: the reader's own
// key agreement and counter mode are checked against an independent implementation. regenerate.sh remakes it.
const file = (name: string) => new URL(`./vectors/bankid/${name}`, import.meta.url).pathname;
const read = (name: string) => readFileSync(file(name), "utf8");
const inside = new Date(Date.UTC(2030, 0, 1));

describe("BankID envelope made by Bouncy Castle", () => {
  const keys = loadBankIdKeys(
    {
      baseUrl: "http://127.0.0.1:9",
      clientId: "vector",
      clientSecret: "vector",
      key: { pem: file("recipient-key.pem") },
      certificate: file("recipient.pem"),
      trustAnchors: file("ca.pem"),
      crls: [],
      crlGraceSeconds: 60,
      version: "v1",
      bankPicker: false,
      sendRedirectUri: true,
      banksCacheSeconds: 60,
    },
    { info: () => {}, error: () => {} },
  );
  const envelope = read("envelope.b64").replace(/\s+/g, "");

  it("opens: key agreement, KDF, unwrap, counter mode, then the bank's signature and the JSON", () => {
    const opened = openBankIdEnvelope(envelope, keys.ours, keys.trust, inside);
    expect(opened).toMatchObject({ ok: true, data: JSON.parse(read("person.json")) });
    if (opened.ok) expect(readBankPerson(opened.data)).toMatchObject({ taxId: "3012345670" });
  });

  it("refuses it for another recipient and after a flipped byte", () => {
    const other = readCertificate("BANKID_CERTIFICATE", file("ca.pem"));
    expect(openBankIdEnvelope(envelope, { ...keys.ours, certificate: other }, keys.trust, inside)).toMatchObject({
      ok: false,
      reason: "wrong_recipient",
    });
    const bytes = Buffer.from(envelope, "base64");
    bytes[bytes.length - 20] = (bytes[bytes.length - 20] ?? 0) ^ 0x01;
    expect(openBankIdEnvelope(bytes.toString("base64"), keys.ours, keys.trust, inside).ok).toBe(false);
  });
});
