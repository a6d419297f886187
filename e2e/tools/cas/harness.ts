import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The two CAS clients of the end-to-end suite, their ports and the TLS certificate of the https callback, made
 * before the server starts (e2e/playwright.config.ts): the server trusts that certificate through
 * TLS_EXTRA_CA_FILE, as a campus deployment trusts its own CA, so a proxy-granting ticket can reach phpCAS.
 */
export interface CasHarness {
  dir: string;
  /**
   * phpCAS's site (index.php, backend.php) as the browser and KPI ID see it: Apache over https in front of PHP's
   * built-in server. phpCAS takes proxy-granting tickets only on an https site, at an https callback.
   */
  phpUrl: string;
  /** PHP's built-in server itself, on plain http (only Apache and the front page's call to its back end use it). */
  phpServerUrl: string;
  /** Apache with mod_auth_cas (/secure/, /students/, /staff/, /renew/, /gateway/). */
  apacheUrl: string;
  certFile: string;
  keyFile: string;
}

export function prepareCasHarness(dir: string, portBase: number): CasHarness {
  mkdirSync(dir, { recursive: true });
  const certFile = join(dir, "localhost.crt");
  const keyFile = join(dir, "localhost.key");
  if (!existsSync(certFile)) {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "30"].concat([
        "-addext",
        "subjectAltName=DNS:localhost",
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ]),
      { stdio: "ignore" },
    );
  }
  // A throw-away test key: Apache's worker (www-data when the harness runs as root) reads it.
  chmodSync(keyFile, 0o644);
  return {
    dir,
    phpUrl: `https://localhost:${portBase + 18}`,
    phpServerUrl: `http://127.0.0.1:${portBase + 16}`,
    apacheUrl: `http://localhost:${portBase + 17}`,
    certFile,
    keyFile,
  };
}
