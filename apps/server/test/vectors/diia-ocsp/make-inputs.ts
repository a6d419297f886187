// Step 1 of regenerate.sh: the CA, a person's certificate and a delegated OCSP signer's certificate (made with
// jkurwa, as the stand-in makes them) for the OCSP vectors; Bouncy Castle then builds and signs each OCSP
// response (DiiaOcsp.java): the part the server's reader undoes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createCertificateAuthority,
  issueOcspSigner,
  issuePersonCertificate,
  type Party,
} from "../../../../../sandbox/src/diia/pki.ts";
import { diiaOcspVectors } from "./vectors.ts";

const here = import.meta.dirname;
// Valid from the vectors' making to the end of 2049 (UTCTime reads later years as 19xx); the tests open them
// on 2030-01-01, between each answer's thisUpdate and nextUpdate.
const valid = { from: Date.UTC(2026, 10, 25), to: Date.UTC(2049, 11, 31) };
const person = { taxId: "3012345670", surname: "КОВАЛЕНКО", givenName: "ОЛЕНА", patronymic: "ІВАНІВНА" };
const ca = createCertificateAuthority("Diia OCSP vector CA", valid.from);
const signer = issuePersonCertificate(ca, person, valid);
const responder = issueOcspSigner(ca, valid);

const keyHex = (party: Party) => Buffer.from(party.key.d.buf8()).toString("hex");

for (const [folder, vector] of Object.entries(diiaOcspVectors)) {
  const dir = join(here, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "ca.pem"), `${ca.certificate.as_pem()}\n`);
  writeFileSync(join(dir, "signer.pem"), `${signer.certificate.as_pem()}\n`);
  writeFileSync(join(dir, ".work-ca.der"), ca.certificate.as_asn1());
  writeFileSync(join(dir, ".work-signer.der"), signer.certificate.as_asn1());
  writeFileSync(join(dir, ".work-responder.der"), responder.certificate.as_asn1());
  const signingKey = vector.signedBy === "issuer" ? ca : responder;
  writeFileSync(join(dir, ".work-key-d.hex"), keyHex(signingKey));
  writeFileSync(join(dir, ".work-vector.txt"), `${vector.status} ${vector.signedBy} ${vector.certId}\n`);
}
