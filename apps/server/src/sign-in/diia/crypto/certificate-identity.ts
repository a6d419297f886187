/// <reference path="./dstu-modules.d.ts" />
import type { Certificate } from "jkurwa";
import type { DiiaSigner } from "./verifier.ts";

const taxIdPattern = /^\d{10}$/;
// Qualified certificates since 2020 also carry it in the subject serialNumber.
const subjectSerialPattern = /^TINUA-(\d{10})$/;

/** The RNOKPP: the DRFO code of SubjectDirectoryAttributes, else the subject serialNumber. */
export function readTaxId(certificate: Certificate): string | undefined {
  const drfo = certificate.extension.ipn?.DRFO?.trim();
  if (drfo && taxIdPattern.test(drfo)) return drfo;
  const serial = certificate.subject.serialNumber?.trim() ?? "";
  return subjectSerialPattern.exec(serial)?.[1];
}

export function readFullName(certificate: Certificate): string {
  const { commonName, surname, givenName } = certificate.subject;
  if (commonName?.trim()) return commonName.trim();
  return [surname, givenName].filter(Boolean).join(" ").trim();
}

export function readSigner(certificate: Certificate): DiiaSigner | undefined {
  const taxId = readTaxId(certificate);
  return taxId ? { taxId, fullName: readFullName(certificate) } : undefined;
}
