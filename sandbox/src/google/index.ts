import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { JWK } from "oidc-provider";
import type { RunningStandIn, SandboxOptions } from "../stand-in.ts";
import { sandboxHostedDomains } from "./accounts.ts";
import { handleInteraction } from "./interactions.ts";
import { signingKey as keptSigningKey } from "./keys.ts";
import { createGoogleProvider, type RegisteredClient } from "./provider.ts";

export interface GoogleStandInOptions {
  /** The product's public URL; its `/google-auth` is the registered redirect URI. */
  productUrl: string;
  /** 0 picks a free port. */
  port: number;
  /** Defaults to http://localhost:{port}; a test may put a proxy in front and name it here. */
  issuer?: string;
  /** Where its signing key is kept for the next start (kept-pki.ts); undefined: made afresh. */
  dataDir?: string;
}

export interface RunningGoogleStandIn extends RunningStandIn {
  issuer: string;
  /** The loopback port it listens on (the issuer may name a proxy in front of it). */
  port: number;
  client: RegisteredClient;
  /** The private signing key, for tests that play a misbehaving provider. */
  signingKey: JWK;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts the Google stand-in: an OpenID provider on loopback with one client, the product. */
export async function startGoogleStandIn(options: GoogleStandInOptions): Promise<RunningGoogleStandIn> {
  const server = createServer();
  const port = await listen(server, options.port);
  const issuer = options.issuer ?? `http://localhost:${port}`;
  const client: RegisteredClient = {
    clientId: `kpi-id-sandbox-${randomBytes(4).toString("hex")}.apps.localhost`,
    clientSecret: randomBytes(32).toString("base64url"),
    redirectUris: [`${options.productUrl.replace(/\/+$/, "")}/google-auth`],
  };
  const signingKey = keptSigningKey(options.dataDir);
  const provider = createGoogleProvider({ issuer, client, signingKey });
  const providerHandler = provider.callback();
  server.on("request", (request, response) => {
    handleInteraction(provider, request, response).then((handled) => {
      if (!handled) providerHandler(request, response);
    });
  });
  return {
    name: "Google",
    url: issuer,
    issuer,
    port,
    client,
    signingKey,
    env: {
      GOOGLE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: client.clientId,
      GOOGLE_CLIENT_SECRET: client.clientSecret,
      GOOGLE_HOSTED_DOMAINS: sandboxHostedDomains.join(","),
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The sandbox starter: a real Google configured in the environment wins, and then nothing starts. */
export async function startGoogleSandbox(options: SandboxOptions): Promise<RunningStandIn | undefined> {
  if (options.env.GOOGLE_CLIENT_ID && options.env.GOOGLE_CLIENT_SECRET) return undefined;
  return startGoogleStandIn({
    productUrl: options.productUrl,
    port: options.googlePort ?? 3001,
    dataDir: options.dataDir,
  });
}
