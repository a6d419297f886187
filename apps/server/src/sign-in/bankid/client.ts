import type { BankIdConfig } from "../../platform/config/index.ts";
import { AppError } from "../../platform/errors.ts";
import { failureForApiError } from "./api-errors.ts";

// BankID NBU's OAuth 2.0 endpoints (research/bankid-nbu.md §2): authorize in the browser, then the
// token (form-encoded, client id and secret) and the person's data (Bearer, JSON) server to server.

/** One call must not hold a person's request open for long; NBU relays the resource call to the bank. */
const REQUEST_TIMEOUT_MS = 10_000;

/** A bank of NBU's list (`GET {host}/api/banks`). */
export interface Bank {
  id: string;
  name: string;
  memberId: string;
  workable: boolean;
  /** Absolute (NBU gives it relative to its host). */
  logoUrl?: string;
  order: number;
}

/** What `/v1/bank/resource/client` answers once its checks pass. */
export interface ResourceAnswer {
  customerCrypto: string;
  memberId: string;
  /** The bank's encryption certificate (base64 DER): the originator's key under static key agreement. */
  cert?: string;
  sidBi?: string;
}

/** V1's declaration: only what matching needs (tax id, documents) and the name shown in the audit. */
const v1Declaration = {
  type: "physical",
  fields: ["firstName", "middleName", "lastName", "inn", "birthDay"],
  documents: [
    { type: "passport", fields: ["series", "number"] },
    // The ID card has a nine-digit number and no series.
    { type: "idpassport", fields: ["number"] },
    { type: "zpassport", fields: ["series", "number"] },
  ],
};

/** NBU's bank list and when it was read; `stale` when the node failed and the database's last copy answers. */
export interface BankList {
  banks: Bank[];
  fetchedAt: Date;
  stale: boolean;
}

/** Where the last good list is kept for every instance (model/bankid/bank-list.ts: the database). */
export interface BankListStore {
  save(list: { banks: Bank[]; fetchedAt: Date }): Promise<void>;
  load(): Promise<{ banks: Bank[]; fetchedAt: Date } | undefined>;
}

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

function bankFrom(raw: unknown, host: string): Bank | undefined {
  const bank = asRecord(raw);
  const id = text(bank?.id);
  const name = text(bank?.name);
  const memberId = text(bank?.memberId) ?? (typeof bank?.memberId === "number" ? String(bank.memberId) : undefined);
  if (!bank || !id || !name || !memberId) return undefined;
  const logo = text(bank.logoUrl);
  return {
    id,
    name,
    memberId,
    workable: bank.workable === true,
    logoUrl: logo ? new URL(logo, `${host}/`).href : undefined,
    order: typeof bank.order === "number" ? bank.order : Number.MAX_SAFE_INTEGER,
  };
}

export class BankIdClient {
  readonly #settings: BankIdConfig;
  readonly #clock: () => Date;
  readonly #store: BankListStore | undefined;
  #banks: { list: BankList; until: number } | undefined;

  constructor(settings: BankIdConfig, clock: () => Date, store?: BankListStore) {
    this.#settings = settings;
    this.#clock = clock;
    this.#store = store;
  }

  get version() {
    return this.#settings.version;
  }

  authorizeUrl(request: { state: string; redirectUri: string; bankId?: string }): URL {
    const { baseUrl, clientId, dataset, version, sendRedirectUri } = this.#settings;
    const url = new URL(`${baseUrl}/v1/bank/oauth2/authorize`);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", clientId);
    if (sendRedirectUri) url.searchParams.set("redirect_uri", request.redirectUri);
    url.searchParams.set("state", request.state);
    if (request.bankId) url.searchParams.set("bank_id", request.bankId);
    if (version === "v2" && dataset) url.searchParams.set("dataset", dataset);
    return url;
  }

  async #call(path: string, init: RequestInit): Promise<Json> {
    let response: Response;
    try {
      response = await fetch(`${this.#settings.baseUrl}${path}`, {
        ...init,
        redirect: "error",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new AppError("bankid.unavailable", { reason: "bankid.unreachable", cause: error });
    }
    const body = asRecord(await response.json().catch(() => undefined));
    // An OAuth-style error can come with any status, 200 included (research §4).
    const error = text(body?.error);
    if (error) throw failureForApiError(error);
    if (response.status >= 500) throw new AppError("bankid.unavailable", { reason: `bankid.http_${response.status}` });
    if (!response.ok || !body) throw new AppError("bankid.failed", { reason: `bankid.http_${response.status}` });
    return body;
  }

  /** The authorization code for an access token (single use, about three minutes). */
  async accessToken(code: string, redirectUri: string): Promise<string> {
    const { clientId, clientSecret, sendRedirectUri } = this.#settings;
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      client_secret: clientSecret,
      code,
    });
    if (sendRedirectUri) form.set("redirect_uri", redirectUri);
    const body = await this.#call("/v1/bank/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
    });
    const token = text(body.access_token);
    if (!token) throw new AppError("bankid.failed", { reason: "bankid.no_access_token" });
    return token;
  }

  /** The person's data, encrypted to our certificate (base64 DER) and signed by their bank. */
  async personData(accessToken: string, certificateBase64: string): Promise<ResourceAnswer> {
    const declaration = this.#settings.version === "v2" ? {} : v1Declaration;
    const body = await this.#call("/v1/bank/resource/client", {
      method: "POST",
      headers: {
        authorization: `Bearer ${accessToken}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({ ...declaration, cert: certificateBase64 }),
    });
    const state = text(body.state);
    if (state !== undefined && state.toLowerCase() !== "ok")
      throw new AppError("bankid.failed", { reason: "bankid.state_not_ok" });
    const customerCrypto = text(body.customerCrypto);
    const memberId = text(body.memberId) ?? (typeof body.memberId === "number" ? String(body.memberId) : undefined);
    if (!customerCrypto || !memberId) throw new AppError("bankid.failed", { reason: "bankid.malformed_answer" });
    return { customerCrypto, memberId, cert: text(body.cert), sidBi: text(body.sidBi) };
  }

  /** Every bank NBU lists, in its order; kept for BANKID_BANKS_CACHE_SECONDS. */
  async banks(): Promise<Bank[]> {
    return (await this.bankList()).banks;
  }

  /**
   * NBU's bank list, kept in memory for BANKID_BANKS_CACHE_SECONDS and in the database for every instance.
   * When the node's list fails, the database's last good copy answers (stale), and is asked again after
   * the same time; with no copy the failure stands.
   */
  async bankList(): Promise<BankList> {
    const now = this.#clock();
    if (this.#banks && this.#banks.until > now.getTime()) return this.#banks.list;
    let list: BankList;
    try {
      list = { banks: await this.#fetchBanks(), fetchedAt: now, stale: false };
      await this.#store?.save(list).catch(() => undefined);
    } catch (error) {
      const kept = await this.#store?.load().catch(() => undefined);
      if (!kept) throw error;
      list = { ...kept, stale: true };
    }
    this.#banks = { list, until: now.getTime() + this.#settings.banksCacheSeconds * 1000 };
    return list;
  }

  async #fetchBanks(): Promise<Bank[]> {
    let raw: unknown;
    try {
      const response = await fetch(`${this.#settings.baseUrl}/api/banks`, {
        headers: { accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      raw = await response.json();
    } catch (error) {
      throw new AppError("bankid.unavailable", { reason: "bankid.banks_unreachable", cause: error });
    }
    // An answer that is not a list is a failure too (and must not replace the good copy).
    if (!Array.isArray(raw)) throw new AppError("bankid.unavailable", { reason: "bankid.banks_unreachable" });
    return raw
      .map((bank) => bankFrom(bank, this.#settings.baseUrl))
      .filter((bank): bank is Bank => bank !== undefined)
      .sort((a, b) => a.order - b.order);
  }
}
