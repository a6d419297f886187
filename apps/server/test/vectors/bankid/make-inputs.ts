// Step 1 of regenerate.sh: the keys, certificates and the bank's SignedData (made with jkurwa, the library
// the server verifies signatures with) for every vector folder; Bouncy Castle then does everything the
// server's own code undoes (key agreement, KDF, key wrap, content cipher: BankIdEnvelope.java).
import "../../../src/sign-in/bankid/crypto/dstu-curves.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Priv } from "jkurwa";
import {
  createCertificateAuthority,
  issueCertificate,
  newKey,
  type Party,
} from "../../../../../sandbox/src/diia/pki.ts";
import { signForBankId } from "../../../src/sign-in/bankid/crypto/envelope-maker.ts";
import { type VectorShape, vectorShapes } from "./shapes.ts";

const here = import.meta.dirname;
// Valid from the vector's making to the end of 2049 (UTCTime reads later years as 19xx); the test opens it in 2030.
const from = Date.UTC(2026, 10, 25);
const to = Date.UTC(2049, 11, 31);
let serial = 1001;

function party(
  ca: Party,
  commonName: string,
  options: { key?: Priv; keyAgreement: boolean; organisationCode?: string },
): Party {
  const key = options.key ?? newKey();
  const name = { commonName, organizationName: commonName, countryName: "UA" };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial: serial++,
    valid: { from, to },
    ca: false,
    keyAgreement: options.keyAgreement,
    organisationCode: options.organisationCode,
  });
  return { key, certificate, name };
}

const ca = createCertificateAuthority("BankID vector CA", from);
const recipients = new Map(
  (["DSTU_PB_257", "DSTU_PB_307", "DSTU_PB_431"] as const).map((curve) => [
    curve,
    party(ca, `KPI ID vector recipient (${curve})`, { key: newKey(curve), keyAgreement: true }),
  ]),
);
const bank = party(ca, "Vector bank", { keyAgreement: false, organisationCode: "00032129" });
// The bank's encryption certificate for static agreement: the answer's `cert`.
const bankEncryption = party(ca, "Vector bank encryption", { keyAgreement: true, organisationCode: "00032129" });
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

const curveOids = {
  DSTU_PB_257: "1.2.804.2.1.1.1.1.3.1.1.2.6",
  DSTU_PB_307: "1.2.804.2.1.1.1.1.3.1.1.2.7",
  DSTU_PB_431: "1.2.804.2.1.1.1.1.3.1.1.2.9",
};

function writeInputs(folder: string, shape: VectorShape): void {
  const dir = join(here, folder);
  mkdirSync(dir, { recursive: true });
  const recipient = recipients.get(shape.curve);
  if (!recipient) throw new Error(`no recipient on ${shape.curve}`);
  writeFileSync(join(dir, "ca.pem"), `${ca.certificate.as_pem()}\n`);
  writeFileSync(join(dir, "recipient.pem"), `${recipient.certificate.as_pem()}\n`);
  writeFileSync(
    join(dir, "recipient-key.pem"),
    `-----BEGIN PRIVATE KEY-----\n${lines(recipient.key.as_asn1())}\n-----END PRIVATE KEY-----\n`,
  );
  writeFileSync(join(dir, ".work-signed.der"), signForBankId(person, bank));
  writeFileSync(
    join(dir, ".work-recipient-pub.hex"),
    recipient.certificate.pubkey_unpack().serialize().toString("hex"),
  );
  const ski = recipient.certificate.extension.subjectKeyIdentifier;
  if (!ski) throw new Error("no subjectKeyIdentifier");
  writeFileSync(join(dir, ".work-recipient-ski.hex"), Buffer.from(ski).toString("hex"));
  if (shape.carried) {
    // The answer's `cert` holds the bank's signing certificate; the envelope carries the encryption one.
    writeFileSync(join(dir, "answer-cert.pem"), `${bank.certificate.as_pem()}\n`);
    writeFileSync(join(dir, ".work-carried-ca.der"), ca.certificate.as_asn1());
  }
  if (shape.originator !== "key") {
    writeFileSync(join(dir, "originator.pem"), `${bankEncryption.certificate.as_pem()}\n`);
    writeFileSync(join(dir, ".work-originator.der"), bankEncryption.certificate.as_asn1());
    writeFileSync(join(dir, ".work-bank-d.hex"), Buffer.from(bankEncryption.key.d.buf8()).toString("hex"));
  }
  const args = [
    curveOids[shape.curve],
    shape.ukm ? "yes" : "no",
    shape.originator,
    shape.cipher,
    shape.zeros,
    shape.rule,
    shape.carried ? "carried" : "not-carried",
  ];
  writeFileSync(join(dir, ".work-shape.txt"), `${args.join(" ")}\n`);
}

writeFileSync(join(here, "person.json"), `${JSON.stringify(person, null, 2)}\n`);
// The folders named on the command line (regenerate.sh passes its own), or every one.
const wanted = process.argv.slice(2);
for (const [folder, shape] of Object.entries(vectorShapes))
  if (wanted.length === 0 || wanted.includes(folder)) writeInputs(folder, shape);
