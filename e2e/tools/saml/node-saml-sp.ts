import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type Profile, SAML } from "@node-saml/node-saml";
import type { SamlHarness } from "./federation.ts";
import { nodeSamlOptions } from "./federation.ts";

const refedsMfa = "https://refeds.org/profile/mfa";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function send(response: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
  response.end(`<!doctype html><html><head><title>node-saml SP</title></head><body>${html}</body></html>`);
}

async function formOf(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

/** What the assertion says of how the person signed in (AuthnContextClassRef). */
const authnContextOf = (profile: Profile) =>
  /<(?:\w+:)?AuthnContextClassRef>([^<]+)</.exec(profile.getAssertionXml?.() ?? "")?.[1] ?? "";

/** The IdP's signing certificate, read from its metadata as an SP owner configures it. */
async function idpCertificate(idpUrl: string): Promise<string> {
  const metadata = await (await fetch(`${idpUrl}/saml/metadata`)).text();
  const certificate = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)?.[1];
  if (!certificate) throw new Error("no certificate in the IdP's metadata");
  return certificate.replace(/\s/g, "");
}

/**
 * A service provider built with @node-saml/node-saml (the library under passport-saml), as
 * an SP owner runs it: /login (query force=1, passive=1, mfa=1) sends an AuthnRequest,
 * /acs shows what the assertion said, /logout starts SP-initiated logout, /slo takes the
 * IdP's LogoutRequest (front-channel) or LogoutResponse.
 */
export async function startNodeSamlSp(harness: SamlHarness, idpUrl: string): Promise<Server> {
  const { url } = harness.nodeSaml;
  const privateKeyPem = readFileSync(harness.nodeSaml.keyFile, "utf8");
  const options = nodeSamlOptions(url, idpUrl, privateKeyPem, await idpCertificate(idpUrl));
  const samlFor = (asked: URLSearchParams) =>
    new SAML({
      ...options,
      forceAuthn: asked.get("force") === "1",
      passive: asked.get("passive") === "1",
      authnContext: [refedsMfa],
      racComparison: "exact",
      disableRequestedAuthnContext: asked.get("mfa") !== "1",
    });
  const saml = samlFor(new URLSearchParams());
  const sessions = new Map<string, Profile>();
  const sessionOf = (request: IncomingMessage) => {
    const id = /(?:^|;\s*)node_saml_sp=([^;]+)/.exec(request.headers.cookie ?? "")?.[1];
    return id ? { id, profile: sessions.get(id) } : undefined;
  };

  const home = (response: ServerResponse, profile: Profile | undefined) => {
    if (!profile) return send(response, 200, '<p data-testid="sp-signed-out">Not signed in</p>');
    const released = (profile.attributes ?? {}) as Record<string, unknown>;
    const attributes = Object.entries(released)
      .map(([name, value]) => `<li data-attribute="${escapeHtml(name)}">${escapeHtml(String(value))}</li>`)
      .join("");
    return send(
      response,
      200,
      `<p data-testid="sp-name-id">${escapeHtml(profile.nameID)}</p>` +
        `<p data-testid="sp-authn-context">${escapeHtml(authnContextOf(profile))}</p>` +
        `<ul data-testid="sp-attributes">${attributes}</ul><a href="/logout">Sign out</a>`,
    );
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const address = new URL(request.url ?? "/", url);
    const session = sessionOf(request);
    if (address.pathname === "/") return home(response, session?.profile);
    if (address.pathname === "/login") {
      const to = await samlFor(address.searchParams).getAuthorizeUrlAsync("", undefined, {});
      response.writeHead(302, { location: to });
      return response.end();
    }
    if (address.pathname === "/acs" && request.method === "POST") {
      try {
        const { profile } = await saml.validatePostResponseAsync(await formOf(request));
        // node-saml's answer to status NoPassive: no error, and nobody signed in.
        if (!profile) return send(response, 200, '<p data-testid="sp-not-signed-in">Not signed in at the IdP</p>');
        const id = randomBytes(16).toString("hex");
        sessions.set(id, profile);
        response.writeHead(303, { location: "/", "set-cookie": `node_saml_sp=${id}; Path=/; HttpOnly; SameSite=Lax` });
        return response.end();
      } catch (error) {
        return send(response, 200, `<p data-testid="sp-error">${escapeHtml(String(error))}</p>`);
      }
    }
    if (address.pathname === "/logout" && session?.profile) {
      const to = await saml.getLogoutUrlAsync(session.profile, "", {});
      response.writeHead(302, { location: to });
      return response.end();
    }
    if (address.pathname === "/slo") {
      const fields =
        request.method === "POST" ? await formOf(request) : Object.fromEntries(address.searchParams.entries());
      const originalQuery = address.search.slice(1);
      const { profile, loggedOut } = fields.SAMLRequest
        ? request.method === "POST"
          ? await saml.validatePostRequestAsync(fields)
          : await saml.validateRedirectAsync(fields, originalQuery)
        : request.method === "POST"
          ? await saml.validatePostResponseAsync(fields)
          : await saml.validateRedirectAsync(fields, originalQuery);
      if (fields.SAMLRequest && profile) {
        // The IdP ends this SP's session for that person, then hears back.
        for (const [id, kept] of sessions) if (kept.nameID === profile.nameID) sessions.delete(id);
        const to = await saml.getLogoutResponseUrlAsync(profile, fields.RelayState ?? "", {}, true);
        response.writeHead(302, { location: to });
        return response.end();
      }
      if (loggedOut && session) sessions.delete(session.id);
      return send(response, 200, '<p data-testid="sp-logged-out">Signed out</p>');
    }
    return send(response, 404, "<p>Not found</p>");
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      send(response, 500, `<p data-testid="sp-error">${escapeHtml(String(error))}</p>`),
    );
  });
  await new Promise<void>((resolve) => server.listen(Number(new URL(url).port), "127.0.0.1", resolve));
  return server;
}
