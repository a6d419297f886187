import type { Certificate } from "jkurwa";
import { createCertificateAuthority, issuePersonCertificate, type Party } from "../../../../sandbox/src/diia/pki.ts";
import { parseTrustAnchors } from "../../src/sign-in/diia/crypto/trust-anchors.ts";

/** The Diia revocation tests' two people: Olena's certificate is the one revoked, Taras's the one in good standing. */
export const olena = { taxId: "3034512345", surname: "Петренко", givenName: "Олена", patronymic: "Іванівна" };
export const taras = { taxId: "2812345670", surname: "Бондар", givenName: "Тарас", patronymic: "" };

export interface TestQualifiedCa {
  ca: Party;
  /** The CA's certificate as KPI ID reads a configured trust anchor. */
  anchor: Certificate;
  revoked: Party;
  good: Party;
}

/** A qualified CA of the test's own (DSTU 4145, the stand-in's code), with a certificate for each of the two people. */
export function testQualifiedCa(): TestQualifiedCa {
  const ca = createCertificateAuthority("Test qualified CA");
  const [anchor] = parseTrustAnchors(ca.certificate.as_pem()) as [Certificate];
  return { ca, anchor, revoked: issuePersonCertificate(ca, olena), good: issuePersonCertificate(ca, taras) };
}
