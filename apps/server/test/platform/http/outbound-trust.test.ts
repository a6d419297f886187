import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { join } from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustExtraCas } from "../../../src/platform/http/outbound-trust.ts";
import { makeKeyPair, type TestKeyPair } from "../../protocols/saml/keys.ts";

// A host whose certificate no bundled CA issued (as NBU's was for some clients): with TLS_EXTRA_CA_FILE naming
// its CA, outbound fetch trusts it; without, it is refused; and nothing ever turns verification off.
describe("TLS_EXTRA_CA_FILE", () => {
  const original = tls.getCACertificates("default");
  let host: TestKeyPair;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    host = makeKeyPair("localhost");
    server = createServer({ key: host.privateKeyPem, cert: host.certificatePem }, (_request, response) =>
      response.end("ok"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `https://localhost:${typeof address === "object" && address ? address.port : 0}/`;
  });
  afterAll(async () => {
    // The worker runs other files after this one (isolate: false): Node's own CAs again.
    tls.setDefaultCACertificates(original);
    await new Promise((resolve) => server.close(resolve));
  });

  const reach = () =>
    fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      async (response) => response.text(),
      (error: unknown) => `refused: ${(error as Error).cause instanceof Error ? "certificate" : String(error)}`,
    );

  it("refuses the host while its CA is unknown, reaches it once the file adds the CA", async () => {
    expect(await reach()).toBe("refused: certificate");
    expect(trustExtraCas(host.certFile)).toBe(1);
    expect(await reach()).toBe("ok");
    expect(trustExtraCas(undefined)).toBe(0);
  });

  it("stops start-up with a line naming the variable for a missing or unreadable file", () => {
    expect(() => trustExtraCas(join(host.dir, "missing.pem"))).toThrow("TLS_EXTRA_CA_FILE: is not a readable file");
    const empty = join(host.dir, "empty.pem");
    writeFileSync(empty, "no certificate here");
    expect(() => trustExtraCas(empty)).toThrow("TLS_EXTRA_CA_FILE: holds no PEM certificate");
    const broken = join(host.dir, "broken.pem");
    writeFileSync(broken, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    expect(() => trustExtraCas(broken)).toThrow("TLS_EXTRA_CA_FILE: certificate 1 cannot be parsed");
  });
});
