/** The relying party the OpenID Connect benchmarks play: one confidential client, PKCE with a fixed verifier. */
export const redirectUri = "https://rp.example.edu/callback";
export const verifier = "bench-code-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
// base64url(SHA-256(verifier))
export const challenge = "Pav_2bL23Q_zW68HAy3C3F5IYGguFkNZtqFj79uZWmU";

export interface Client {
  id: string;
  secret: string;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

/** POST /oidc/token with client_secret_basic; throws unless it answers 200. */
export async function tokenRequest(origin: string, client: Client, form: Record<string, string>): Promise<TokenSet> {
  const response = await fetch(`${origin}/oidc/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
    },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as TokenSet;
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status} ${JSON.stringify(body)}`);
  return body;
}
