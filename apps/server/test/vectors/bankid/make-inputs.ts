// Step 1 of regenerate.sh: the keys, certificates and the bank's SignedData (made with jkurwa, the library
// the server verifies signatures with); Bouncy Castle then does everything the server's own code undoes
// (key agreement, KDF, key wrap, counter mode: BankIdEnvelope.java).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createCertificateAuthority,
  issueCertificate,
  newKey,
  type Party,
} from "../../../../../sandbox/src/diia/pki.ts";
import { signForBankId } from "../../../src/sign-in/bankid/crypto/envelope-maker.ts";

const here = import.meta.dirname;
// Valid from the vector's making to the end of 2049 (UTCTime reads later years as 19xx); the test opens it in 2030.
const from = Date.UTC(2026, 10, 25);
const to = Date.UTC(2049, 11, 31);

function party(ca: Party, commonName: string, keyAgreement: boolean, serial: number): Party {
  const key = newKey();
  const name = { commonName, organizationName: commonName, countryName: "UA" };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial,
    valid: { from, to },
    ca: false,
    keyAgreement,
  });
  return { key, certificate, name };
}

const ca = createCertificateAuthority("BankID vector CA", from);
const recipient = party(ca, "KPI ID vector recipient", true, 1001);
const bank = party(ca, "Vector bank", false, 1002);
const person = {
  type: "physical",
  lastName: "КОВАЛЕНКО",
  firstName: "ОЛЕНА",
  middleName: "n/a",
  inn: "3012345670",
  documents: [{ type: "idpassport", series: "n/a", number: "001234567" }],
};
const lines = (der: Buffer) =>
  der
    .toString("base64")
    .match(/.{1,64}/g)
    ?.join("\n") ?? "";

writeFileSync(join(here, "person.json"), `${JSON.stringify(person, null, 2)}\n`);
writeFileSync(join(here, "ca.pem"), `${ca.certificate.as_pem()}\n`);
writeFileSync(join(here, "recipient.pem"), `${recipient.certificate.as_pem()}\n`);
writeFileSync(
  join(here, "recipient-key.pem"),
  `-----BEGIN PRIVATE KEY-----\n${lines(recipient.key.as_asn1())}\n-----END PRIVATE KEY-----\n`,
);
writeFileSync(join(here, ".work-signed.der"), signForBankId(person, bank));
writeFileSync(join(here, ".work-recipient-pub.hex"), recipient.certificate.pubkey_unpack().serialize().toString("hex"));
const ski = recipient.certificate.extension.subjectKeyIdentifier;
if (!ski) throw new Error("no subjectKeyIdentifier");
writeFileSync(join(here, ".work-recipient-ski.hex"), Buffer.from(ski).toString("hex"));
