import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { folderForThisFile, keyMaterial } from "../../support/key-material.ts";

export interface TestKeyPair {
  dir: string;
  keyFile: string;
  certFile: string;
  privateKeyPem: string;
  certificatePem: string;
  /** Base64 DER, as metadata carries it. */
  certificate: string;
}

/**
 * A throw-away RSA key and self-signed certificate made by Debian's openssl, in a folder of its own: made once per
 * worker for each name and rank in a file (support/key-material.ts), so each call in a file still gets its own key.
 * The folder goes when the test file ends.
 */
export function makeKeyPair(name: string): TestKeyPair {
  const dir = folderForThisFile(`kpi-id-${name}-`);
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  keyMaterial(`saml rsa:2048 /CN=${name} 30 days`, dir, (folder) =>
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-days", "30"].concat([
        "-keyout",
        join(folder, "key.pem"),
        "-out",
        join(folder, "cert.pem"),
      ]),
      { stdio: "ignore" },
    ),
  );
  const certificatePem = readFileSync(certFile, "utf8");
  return {
    dir,
    keyFile,
    certFile,
    privateKeyPem: readFileSync(keyFile, "utf8"),
    certificatePem,
    certificate: certificatePem.replace(/-----[A-Z ]+-----|\s/g, ""),
  };
}
