import type { DiiaBranchAddress, DiiaConfig } from "../../platform/config/index.ts";

/** Diia answered with something other than what the partner API promises. */
export class DiiaApiError extends Error {
  override name = "DiiaApiError";
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export interface DeepLinkRequest {
  offerId: string;
  /** base64 of GOST 34.311 of our own request id. */
  requestId: string;
  returnLink?: string;
}

/** What Diia's branch API asks for: Diia's SDK samples send the postal address field by field. */
export interface BranchInput extends DiiaBranchAddress {
  name: string;
  email: string;
  customFullName: string;
  customFullAddress: string;
}

type Fetch = typeof fetch;

// Diia's session token lives 2 hours; renew it well before, so no call carries a dying token.
const tokenLifetimeMs = 2 * 60 * 60 * 1000;
const refreshMarginMs = 10 * 60 * 1000;
const callTimeoutMs = 10_000;

export interface DiiaClientOptions {
  config: Pick<DiiaConfig, "baseUrl" | "acquirerToken" | "authAcquirerToken">;
  fetch?: Fetch;
  clock?: () => Date;
}

/** Diia's partner API (acquirer side): session token, branch, offer and deep-link calls. */
export class DiiaClient {
  readonly #config: DiiaClientOptions["config"];
  readonly #fetch: Fetch;
  readonly #clock: () => Date;
  #session: { token: string; renewAt: number } | undefined;
  #pendingToken: Promise<string> | undefined;

  constructor({ config, fetch: fetchImpl = fetch, clock = () => new Date() }: DiiaClientOptions) {
    this.#config = config;
    this.#fetch = fetchImpl;
    this.#clock = clock;
  }

  /** `GET /api/v1/auth/acquirer/{acquirerToken}` → `{token}`, cached until shortly before its 2 h end. */
  async sessionToken(): Promise<string> {
    const now = this.#clock().getTime();
    if (this.#session && now < this.#session.renewAt) return this.#session.token;
    // Concurrent callers share one token request.
    this.#pendingToken ??= this.#obtainToken().finally(() => {
      this.#pendingToken = undefined;
    });
    return this.#pendingToken;
  }

  async #obtainToken(): Promise<string> {
    const issuedAt = this.#clock().getTime();
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.#config.authAcquirerToken) headers.authorization = `Basic ${this.#config.authAcquirerToken}`;
    const path = `/api/v1/auth/acquirer/${encodeURIComponent(this.#config.acquirerToken)}`;
    const body = await this.#send("GET", path, headers);
    const token = readString(body, "token");
    this.#session = { token, renewAt: issuedAt + tokenLifetimeMs - refreshMarginMs };
    return token;
  }

  /** `POST /api/v2/acquirers/branch/{branchId}/offer-request/dynamic` → the deep link. */
  async createDeepLink(branchId: string, request: DeepLinkRequest): Promise<string> {
    const body = await this.#authorized(
      "POST",
      `/api/v2/acquirers/branch/${encodeURIComponent(branchId)}/offer-request/dynamic`,
      {
        ...request,
        signAlgo: "DSTU",
      },
    );
    return readString(body, "deeplink");
  }

  /** `POST /api/v2/acquirers/branch` with the Diia ID sign-in scope → the branch id. */
  async createBranch(branch: BranchInput): Promise<string> {
    const body = await this.#authorized("POST", "/api/v2/acquirers/branch", {
      ...branch,
      scopes: { diiaId: ["auth"] },
      offerRequestType: "dynamic",
      deliveryTypes: ["api"],
    });
    return readString(body, "_id");
  }

  /** `POST /api/v1/acquirers/branch/{branchId}/offer` → the offer id. */
  async createOffer(branchId: string, name: string): Promise<string> {
    const body = await this.#authorized("POST", `/api/v1/acquirers/branch/${encodeURIComponent(branchId)}/offer`, {
      name,
      scopes: { diiaId: ["auth"] },
    });
    return readString(body, "_id");
  }

  /** `GET /api/v2/acquirers/branch/{branchId}`: what Diia holds about a branch. */
  async getBranch(branchId: string): Promise<Record<string, unknown>> {
    const body = await this.#authorized("GET", `/api/v2/acquirers/branch/${encodeURIComponent(branchId)}`);
    return isRecord(body) ? body : {};
  }

  /** `GET /api/v1/acquirers/branch/{branchId}/offers`: the offers of a branch. */
  async listOffers(branchId: string): Promise<{ _id: string; name?: string }[]> {
    const body = await this.#authorized("GET", `/api/v1/acquirers/branch/${encodeURIComponent(branchId)}/offers`);
    const offers = isRecord(body) && Array.isArray(body.offers) ? body.offers : [];
    return offers.filter(
      (offer): offer is { _id: string; name?: string } => isRecord(offer) && typeof offer._id === "string",
    );
  }

  /** A Bearer call; on 401 the token is renewed and the call retried once. */
  async #authorized(method: string, path: string, payload?: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.sessionToken();
      try {
        return await this.#send(
          method,
          path,
          { authorization: `Bearer ${token}`, accept: "application/json" },
          payload,
        );
      } catch (error) {
        if (attempt > 0 || !(error instanceof DiiaApiError) || error.status !== 401) throw error;
        this.#session = undefined;
      }
    }
  }

  async #send(method: string, path: string, headers: Record<string, string>, payload?: unknown): Promise<unknown> {
    const init: RequestInit = { method, headers: { ...headers }, signal: AbortSignal.timeout(callTimeoutMs) };
    if (payload !== undefined) {
      init.body = JSON.stringify(payload);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    let response: Response;
    try {
      response = await this.#fetch(`${this.#config.baseUrl}${path}`, init);
    } catch (error) {
      throw new DiiaApiError(`Diia is unreachable (${method} ${pathWithoutSecrets(path)}): ${String(error)}`, 0);
    }
    const text = await response.text();
    if (!response.ok) {
      // Diia's body names what it refused (a missing field, a scope it has not granted); without it
      // the operator sees only a status. It is cut short and stripped of anything token-like.
      const said = this.#excerptWithoutSecrets(text);
      throw new DiiaApiError(
        `Diia answered ${response.status} to ${method} ${pathWithoutSecrets(path)}${said ? `: ${said}` : ""}`,
        response.status,
      );
    }
    try {
      return text === "" ? {} : JSON.parse(text);
    } catch {
      throw new DiiaApiError(
        `Diia answered ${method} ${pathWithoutSecrets(path)} with something that is not JSON`,
        response.status,
      );
    }
  }

  #excerptWithoutSecrets(text: string): string {
    const secrets = [this.#config.acquirerToken, this.#config.authAcquirerToken, this.#session?.token];
    let excerpt = text.replace(/\p{Cc}+/gu, " ").trim();
    for (const secret of secrets) if (secret) excerpt = excerpt.split(secret).join("…");
    excerpt = excerpt.replace(jwtLike, "…").replace(bearerLike, "$1 …");
    return excerpt.length > errorExcerptLength ? `${excerpt.slice(0, errorExcerptLength)}…` : excerpt;
  }
}

// How much of a refusal's body reaches the log and the operator's terminal.
const errorExcerptLength = 300;
// A session token is a JWT; Diia might echo one back in an error.
const jwtLike = /eyJ[\w-]*\.[\w-]+\.[\w-]*/g;
const bearerLike = /\b(Bearer|Basic)\s+\S+/gi;

// The acquirer token is a secret and sits in a URL path; never let it reach a message.
function pathWithoutSecrets(path: string): string {
  return path.startsWith("/api/v1/auth/acquirer/") ? "/api/v1/auth/acquirer/…" : path;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readString(body: unknown, field: string): string {
  const value = isRecord(body) ? body[field] : undefined;
  if (typeof value !== "string" || value === "") throw new DiiaApiError(`Diia's answer has no ${field}`, 502);
  return value;
}
