// Step 1 of regenerate.sh: the CA, the person's key and certificate and the CA's CRL (made with jkurwa, as the
// stand-in makes them) for every Diia vector folder; Bouncy Castle then makes the signature and the whole CMS
// (DiiaSignature.java): the part the server's reader undoes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCertificateAuthority, issueCrl, issuePersonCertificate } from "../../../../../sandbox/src/diia/pki.ts";
import { type DiiaVectorShape, diiaVectorShapes } from "./shapes.ts";

const here = import.meta.dirname;
// Valid from the vector's making to the end of 2049 (UTCTime reads later years as 19xx); the test opens it in 2030.
const from = Date.UTC(2026, 10, 25);
const to = Date.UTC(2049, 11, 31);

const person = { taxId: "3012345670", surname: "КОВАЛЕНКО", givenName: "ОЛЕНА", patronymic: "ІВАНІВНА" };
const ca = createCertificateAuthority("Diia vector CA", from);
const signer = issuePersonCertificate(ca, person, { from, to });
const crl = issueCrl(ca, [], { thisUpdate: from, nextUpdate: to });
// The request id KPI ID would have made; Diia signs GOST 34.311 of it (the messageDigest).
const requestId = "b1d2a6c0-5f7e-4c1a-9d3e-2a4b6c8d0e1f";

function writeInputs(folder: string, shape: DiiaVectorShape): void {
  const dir = join(here, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "ca.pem"), `${ca.certificate.as_pem()}\n`);
  if (shape.signer === "absent") writeFileSync(join(dir, "signer.pem"), `${signer.certificate.as_pem()}\n`);
  writeFileSync(join(dir, "request-id.txt"), `${requestId}\n`);
  writeFileSync(
    join(dir, "person.json"),
    `${JSON.stringify({ taxId: person.taxId, fullName: signer.name.commonName })}\n`,
  );
  writeFileSync(join(dir, ".work-ca.der"), ca.certificate.as_asn1());
  writeFileSync(join(dir, ".work-signer.der"), signer.certificate.as_asn1());
  writeFileSync(join(dir, ".work-signer-d.hex"), Buffer.from(signer.key.d.buf8()).toString("hex"));
  writeFileSync(join(dir, ".work-crl.der"), crl);
  writeFileSync(join(dir, ".work-shape.txt"), `${shape.signer} ${shape.xLong ? "x-long" : "plain"}\n`);
}

for (const [folder, shape] of Object.entries(diiaVectorShapes)) writeInputs(folder, shape);
