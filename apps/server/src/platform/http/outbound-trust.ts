import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import tls from "node:tls";
import { ConfigError } from "../config/index.ts";

// TLS to outside hosts (NBU's BankID node, Diia, Google, CRL and OCSP servers) verifies their certificates
// against Node's bundled CAs. Some hosts' chains were at times missing from default trust stores (research/
// bankid-nbu.md §3.3: public clients turned verification off instead). TLS_EXTRA_CA_FILE adds the CAs of a PEM
// file to what every outbound connection trusts; there is deliberately no setting that turns verification off.

const pemBlock = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Adds the PEM file's CA certificates to those outbound TLS trusts; answers how many. Throws ConfigError. */
export function trustExtraCas(path: string | undefined): number {
  if (path === undefined) return 0;
  if (!existsSync(path)) throw new ConfigError("TLS_EXTRA_CA_FILE: is not a readable file");
  const blocks = readFileSync(path, "utf8").match(pemBlock) ?? [];
  if (blocks.length === 0) throw new ConfigError("TLS_EXTRA_CA_FILE: holds no PEM certificate");
  blocks.forEach((pem, index) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ConfigError(`TLS_EXTRA_CA_FILE: certificate ${index + 1} cannot be parsed`);
    }
  });
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), ...blocks]);
  return blocks.length;
}
