/// <reference path="./bankid-modules.d.ts" />
import type { Certificate, Priv } from "jkurwa";

// What BankID NBU demands of the organisation's encryption certificate
// (research/bankid-nbu.md §3.2): keyUsage keyAgreement only (encipherOnly and
// decipherOnly allowed), valid now, and a subjectKeyIdentifier, which banks
// name the recipient by. The configured key must be the certificate's.

export type OrganisationCertificateProblem =
  | "not_key_agreement"
  | "not_yet_valid"
  | "expired"
  | "no_subject_key_identifier"
  | "key_does_not_match";

/** keyUsage's first byte: digitalSignature 0x80 … keyAgreement 0x08, keyCertSign 0x04, cRLSign 0x02, encipherOnly 0x01. */
const keyAgreementBit = 0x08;
const forbiddenBits = 0x80 | 0x40 | 0x20 | 0x10 | 0x04 | 0x02;

function keyUsageByte(certificate: Certificate): number | undefined {
  const der = certificate.extension.keyUsage;
  // BIT STRING: 03, length, unused bits, then the bits.
  return der && der[0] === 0x03 && der.length >= 4 ? der[3] : undefined;
}

/** Whether the certificate's keyUsage allows key agreement (a bank's encryption certificate must). */
export function allowsKeyAgreement(certificate: Certificate): boolean {
  return ((keyUsageByte(certificate) ?? 0) & keyAgreementBit) !== 0;
}

export function checkOrganisationCertificate(
  certificate: Certificate,
  key: Priv,
  now: Date,
): OrganisationCertificateProblem[] {
  const problems: OrganisationCertificateProblem[] = [];
  const usage = keyUsageByte(certificate);
  if (usage === undefined || (usage & keyAgreementBit) === 0 || (usage & forbiddenBits) !== 0)
    problems.push("not_key_agreement");
  if (now.getTime() < certificate.valid.from) problems.push("not_yet_valid");
  if (now.getTime() >= certificate.valid.to) problems.push("expired");
  if (!certificate.extension.subjectKeyIdentifier) problems.push("no_subject_key_identifier");
  if (!certificate.pubkey_unpack().serialize().equals(key.pub().serialize())) problems.push("key_does_not_match");
  return problems;
}
