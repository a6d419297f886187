import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createCertificateAuthority, issuePersonCertificate, type Party } from "../../../../../sandbox/src/diia/pki.ts";
import { issuerOf } from "../../../src/sign-in/bankid/crypto/bank-signature.ts";
import { readCaList } from "../../../src/sign-in/bankid/crypto/ca-list.ts";

// The trust list is read without unpacking each CA's public key (issue 80: the published list's 771 CAs took
// about 34 s at every start); a key is unpacked when a chain meets its CA. What a chain decides must not change:
// the right CA is found among many, a CA whose key bytes were altered trusts nothing, and the bytes read are kept.

const person = { taxId: "3012345670", surname: "Тест", givenName: "Олена", patronymic: "" };

/** The certificate with the last byte of its public key changed: same names and key id, another key. */
function withAlteredKey(ca: Party): Buffer {
  const der = Buffer.from(ca.certificate.as_asn1());
  // The compressed point as the certificate carries it: an OCTET STRING inside the key's BIT STRING.
  const key = Buffer.from(ca.key.pub().serialize());
  const at = der.indexOf(key) + key.length - 1;
  if (at < key.length) throw new Error("the key is not in the certificate's bytes");
  der[at] = (der[at] ?? 0) ^ 0x01;
  return der;
}

function p7bOf(dir: string, name: string, pems: string[]): string {
  const bundle = join(dir, `${name}.pem`);
  writeFileSync(bundle, pems.join("\n"));
  const out = join(dir, `${name}.p7b`);
  execFileSync("openssl", ["crl2pkcs7", "-nocrl", "-certfile", bundle, "-outform", "DER", "-out", out]);
  return out;
}

describe("BANKID_TRUST_ANCHORS read without unpacking every CA's key", () => {
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-ca-list-"));
  let issuing: Party;
  let others: Party[];
  let signer: Party;

  beforeAll(() => {
    issuing = createCertificateAuthority("Issuing qualified CA");
    others = Array.from({ length: 12 }, (_, index) => createCertificateAuthority(`Qualified CA ${index}`));
    signer = issuePersonCertificate(issuing, person);
  }, 120_000);

  it("finds the CA that issued a signer among many in a .p7b, and keeps the bytes it read", () => {
    const pems = [...others, issuing].map((ca) => ca.certificate.as_pem());
    const path = p7bOf(dir, "many", pems);
    const list = readCaList("BANKID_TRUST_ANCHORS", path);
    expect(list).toMatchObject({ format: "PKCS#7", skipped: 0 });
    expect(list.certificates).toHaveLength(13);
    const found = issuerOf(signer.certificate, { anchors: list.certificates, intermediates: [] }, new Date());
    expect(found?.subjectDN()).toBe(issuing.certificate.subjectDN());
    expect(list.certificates.map((ca) => ca.as_asn1().toString("base64"))).toEqual(
      [...others, issuing].map((ca) => ca.certificate.as_asn1().toString("base64")),
    );
  });

  it("trusts nothing through a CA whose key bytes were altered, though its names and key id are the issuer's", () => {
    const altered = withAlteredKey(issuing);
    const path = join(dir, "altered.der");
    writeFileSync(path, altered);
    const list = readCaList("BANKID_TRUST_ANCHORS", path);
    expect(list.certificates).toHaveLength(1);
    const trust = { anchors: list.certificates, intermediates: [] };
    expect(issuerOf(signer.certificate, trust, new Date())).toBeUndefined();
    // With the real CA beside it, the chain is found through the real one only.
    const both = readCaList("BANKID_TRUST_ANCHORS", p7bOf(dir, "both", [issuing.certificate.as_pem()]));
    const withReal = { anchors: [...list.certificates, ...both.certificates], intermediates: [] };
    expect(issuerOf(signer.certificate, withReal, new Date())).toBe(both.certificates[0]);
  });

  it("re-reads a changed file: a CA added to the list is trusted at the next read, one removed no longer", () => {
    const path = p7bOf(dir, "changing", [others[0]?.certificate.as_pem() ?? ""]);
    const before = readCaList("BANKID_TRUST_ANCHORS", path);
    expect(issuerOf(signer.certificate, { anchors: before.certificates, intermediates: [] }, new Date())).toBe(
      undefined,
    );
    p7bOf(dir, "changing", [others[0]?.certificate.as_pem() ?? "", issuing.certificate.as_pem()]);
    const after = readCaList("BANKID_TRUST_ANCHORS", path);
    expect(issuerOf(signer.certificate, { anchors: after.certificates, intermediates: [] }, new Date())).toBeDefined();
  });
});
