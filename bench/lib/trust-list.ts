import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { issueCertificate, newKey } from "../../sandbox/src/diia/pki.ts";

// A trust list the size of the published `CACertificates.p7b` (771 certificates) from generated DSTU 4145 CA
// certificates, as OpenSSL writes a certificates-only PKCS#7. Made once and kept in .bench/ (not committed):
// twelve keys, each certifying ~64 CAs of its own name, so it takes seconds rather than a minute to make.

const keys = 12;
const yearMs = 365 * 24 * 3600 * 1000;
const cacheDir = fileURLToPath(new URL("../../.bench/", import.meta.url));

/** The path of a DER .p7b of `count` generated CA certificates plus the PEM `alsoTrusted` (the bench's own CA). */
export function generatedTrustList(count: number, alsoTrusted: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const generated = join(cacheDir, `trust-list-${count}.pem`);
  if (!existsSync(generated)) {
    const pool = Array.from({ length: keys }, () => newKey());
    const now = Date.now();
    const pems: string[] = [];
    for (let index = 0; index < count - 1; index++) {
      const key = pool[index % keys] ?? newKey();
      const name = { organizationName: "Bench qualified CA", commonName: `CA ${index}`, countryName: "UA" };
      const certificate = issueCertificate({
        issuer: { key, name },
        subjectKey: key,
        subjectName: name,
        serial: index + 1,
        valid: { from: now - yearMs, to: now + 10 * yearMs },
        ca: true,
      });
      pems.push(certificate.as_pem());
    }
    writeFileSync(`${generated}.part`, pems.join("\n"));
    renameSync(`${generated}.part`, generated);
  }
  const withOurs = join(cacheDir, `trust-list-${count}-with-ours.pem`);
  writeFileSync(withOurs, alsoTrusted);
  const p7b = join(cacheDir, `trust-list-${count}.p7b`);
  execFileSync("openssl", [
    "crl2pkcs7",
    "-nocrl",
    "-certfile",
    generated,
    "-certfile",
    withOurs,
    "-outform",
    "DER",
    "-out",
    p7b,
  ]);
  return p7b;
}
