import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * oidc-provider on its own: its built-in in-memory adapter, no database, one client and one account whose
 * claims are the service's own userinfo answer. Its userinfo endpoint is the floor for the service's: the
 * same library, the same Node, the same answer, with nothing of KPI ID around it.
 */
export async function startMemoryProvider(claims: Record<string, unknown>) {
  const issuer = "http://127.0.0.1";
  const clientId = "bench-client";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: "bench-secret", redirect_uris: ["https://rp.example.edu/cb"] }],
    claims: { openid: ["sub"], profile: Object.keys(claims).filter((claim) => claim !== "sub") },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...claims, sub }) }),
    features: { devInteractions: { enabled: false } },
  });
  const accountId = String(claims.sub ?? "bench");
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope("openid profile");
  const grantId = await grant.save();
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error("the bench client is missing");
  const accessToken = await new provider.AccessToken({
    accountId,
    client,
    grantId,
    gty: "authorization_code",
    scope: "openid profile",
  }).save();
  const server = provider.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    userinfoUrl: `http://127.0.0.1:${port}/me`,
    accessToken,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
