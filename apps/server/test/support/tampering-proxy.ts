import { createPrivateKey, type JsonWebKey, type KeyObject, sign } from "node:crypto";
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type IdTokenTamper = (token: { header: Record<string, unknown>; payload: Record<string, unknown> }) => {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  key?: KeyObject;
};

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"));

/** Re-signs an ID token after the tamper function changed it, with the provider's own key unless told otherwise. */
function resign(idToken: string, tamper: IdTokenTamper, providerKey: KeyObject): string {
  const [header = "", payload = ""] = idToken.split(".");
  const changed = tamper({ header: decode(header), payload: decode(payload) });
  const input = `${encode(changed.header)}.${encode(changed.payload)}`;
  return `${input}.${sign("sha256", Buffer.from(input), changed.key ?? providerKey).toString("base64url")}`;
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A misbehaving OpenID provider for tests: a proxy in front of the real
 * stand-in that passes everything through but rewrites the ID token the
 * token endpoint returns (re-signed with the provider's real key), as a
 * compromised or buggy provider would.
 */
export async function startTamperingProxy() {
  let targetPort = 0;
  let providerKey: KeyObject | undefined;
  let tamper: IdTokenTamper | undefined;

  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const upstream = forward(
      { host: "127.0.0.1", port: targetPort, method: request.method, path: request.url, headers: request.headers },
      async (answer) => {
        const payload = await readBody(answer);
        const headers = { ...answer.headers };
        let out = payload;
        if (request.url?.startsWith("/token") && answer.statusCode === 200 && tamper && providerKey) {
          const json = JSON.parse(payload.toString("utf8"));
          json.id_token = resign(json.id_token, tamper, providerKey);
          out = Buffer.from(JSON.stringify(json));
          headers["content-length"] = String(out.length);
        }
        response.writeHead(answer.statusCode ?? 502, headers);
        response.end(out);
      },
    );
    upstream.on("error", () => response.writeHead(502).end());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://localhost:${port}`,
    target(port: number, signingJwk: JsonWebKey) {
      targetPort = port;
      providerKey = createPrivateKey({ key: signingJwk, format: "jwk" });
    },
    tamperWith(next: IdTokenTamper | undefined) {
      tamper = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
