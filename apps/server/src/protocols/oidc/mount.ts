import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { interactionPath, oidcPrefix } from "./provider.ts";
import { OidcRequestMemory, withOidcMemory } from "./request-memory.ts";
import type { OidcRuntime } from "./runtime.ts";

// The provider renders a sign-out form, error pages and one script: the auto-submit of
// response_mode=form_post (and of sign-out without a provider session). An empty script-src
// allows no script; oidc-provider adds the hash of exactly that one when it renders it.
// No form-action: those forms post to the application's own addresses.
const providerCsp =
  "default-src 'none'; script-src; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/**
 * oidc-provider is a Koa app; it gets the raw Node request and response. The
 * routes live in their own encapsulated plugin with no body parsers, so the
 * provider reads the body itself, and they opt out of our JSON+Origin CSRF
 * rule: the provider's endpoints are called by applications' servers and by
 * form posts it protects itself (client authentication, xsrf token).
 */
const callbacks = new WeakMap<object, ReturnType<OidcRuntime["provider"]["callback"]>>();

/** Koa composes its middleware on every callback() call; do it once per provider. */
function callbackOf(runtime: Pick<OidcRuntime, "provider">) {
  let callback = callbacks.get(runtime.provider);
  if (!callback) {
    callback = runtime.provider.callback();
    callbacks.set(runtime.provider, callback);
  }
  return callback;
}

/**
 * The provider builds its endpoint URLs from the request's host and scheme; they must come
 * from PUBLIC_URL alone, never from a Host or X-Forwarded-* header a client chose. The
 * client's address is the one Fastify worked out under TRUST_PROXY.
 */
function pinOrigin(raw: IncomingMessage, publicUrl: URL, ip: string): void {
  raw.headers.host = publicUrl.host;
  raw.headers["x-forwarded-host"] = publicUrl.host;
  raw.headers["x-forwarded-proto"] = publicUrl.protocol.slice(0, -1);
  raw.headers["x-forwarded-for"] = ip;
}

/**
 * Browsers drop SameSite=None cookies that are not Secure, so over plain http (development
 * on localhost) the provider's cookies go out as Lax: there only a cross-site POST to the
 * authorization or end-session endpoint misses the provider session.
 */
function laxOverPlainHttp(response: ServerResponse): void {
  const setHeader = response.setHeader.bind(response);
  const lax = (cookie: string) => cookie.replace(/;\s*samesite=none/i, "; samesite=lax");
  response.setHeader = (name, value) => {
    if (name.toLowerCase() !== "set-cookie") return setHeader(name, value);
    return setHeader(name, Array.isArray(value) ? value.map(lax) : lax(String(value)));
  };
}

/** `runtime` is the service's OidcRuntime; the bench's floor mounts a bare provider the same way. */
export async function mountProvider(app: FastifyInstance, runtime: Pick<OidcRuntime, "provider">): Promise<void> {
  const publicUrl = new URL(app.config.publicUrl);
  // Our interaction routes read the interaction through the provider twice (its details, then its result):
  // the second read comes from the request's memory. A GET's writes (the grant, the interaction's result) go
  // as one statement before the answer; a POST's at once (its body is read outside the request's context).
  const memories = new WeakMap<FastifyRequest, OidcRequestMemory>();
  app.addHook("onRequest", (request, _reply, done) => {
    if (!request.url.startsWith(interactionPath)) return done();
    const memory = new OidcRequestMemory(request.method === "GET");
    memories.set(request, memory);
    withOidcMemory(memory, done);
  });
  // With a callback: every request passes here, and only the interaction routes' have something to write.
  app.addHook("onSend", (request, _reply, payload, done) => {
    const memory = memories.get(request);
    if (!memory) return done(null, payload);
    memory.flush(app.db).then(() => done(null, payload), done);
  });
  await app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        const raw = request.raw as typeof request.raw & { originalUrl?: string };
        raw.originalUrl = raw.url;
        raw.url = (raw.url ?? "/").slice(oidcPrefix.length) || "/";
        pinOrigin(raw, publicUrl, request.ip);
        if (!app.config.secureCookies) laxOverPlainHttp(reply.raw);
        reply.raw.removeHeader("content-security-policy");
        reply.raw.setHeader("content-security-policy", providerCsp);
        reply.hijack();
        callbackOf(runtime)(raw, reply.raw);
      };
      const options = { config: { csrf: false } };
      scope.all("/", options, handler);
      scope.all("/*", options, handler);
    },
    { prefix: oidcPrefix },
  );
}
