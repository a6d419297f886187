import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import helmet from "helmet";
import type { Config } from "../config/index.ts";
import { AppError } from "../errors.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Set false on server-to-server endpoints (ticket redemption, Diia callback) that browsers never call;
     * "browsers" where existing integrations also call from their servers: checked only when the request
     * shows it comes from a browser (browsers send Origin on every POST, and Sec-Fetch-Site).
     */
    csrf?: boolean | "browsers";
  }
}

const stateChangingMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function isJson(request: FastifyRequest): boolean {
  const type = request.headers["content-type"];
  return typeof type === "string" && /^application\/json\s*(;|$)/i.test(type);
}

/** A browser sends Origin on every POST and Sec-Fetch-Site on every request; a server-side client neither. */
export function fromBrowser(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined || request.headers["sec-fetch-site"] !== undefined;
}

/**
 * Cross-site requests cannot send JSON without a preflight, and browsers send
 * Origin on every POST; requiring both stops CSRF without tokens.
 */
export function csrfCheck(publicOrigin: string) {
  return async function rejectCrossSiteWrites(request: FastifyRequest): Promise<void> {
    if (!stateChangingMethods.has(request.method)) return;
    const csrf = request.routeOptions.config?.csrf;
    if (csrf === false) return;
    if (csrf === "browsers" && !fromBrowser(request)) return;
    if (request.headers.origin !== publicOrigin || !isJson(request)) throw new AppError("request.csrf_rejected");
  };
}

type HeaderMiddleware = ReturnType<typeof helmet>;

/**
 * The headers a helmet middleware sets, asked once: with no directive that is a function, helmet sets the same
 * headers on every response. It also removes X-Powered-By, which neither Node nor Fastify sets.
 */
export function headersOf(middleware: HeaderMiddleware): readonly (readonly [string, string])[] {
  const headers: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  let failure: unknown;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const secure = config.secureCookies;
  // helmet's headers, worked out once: @fastify/helmet made its middleware anew on every request (parsing the
  // policy each time), a tenth of a GET /user's time in a profile; its middleware still walked a dozen steps per
  // request for the same headers every time (none of ours depends on the request).
  const securityHeaders = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Radix and sonner position elements with inline style attributes.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          ...(secure ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      frameguard: { action: "deny" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
  );
  // One hook with a callback, not a promise: every request runs it (issue 63).
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    // Answers are personal; nothing may be kept by a shared cache. Static files override this.
    reply.header("cache-control", "no-store");
    done();
  });

  app.addHook("preHandler", csrfCheck(new URL(config.publicUrl).origin));
}
