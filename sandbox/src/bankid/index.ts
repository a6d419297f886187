import { randomBytes } from "node:crypto";
import { makeBankIdEnvelope } from "@kpi-id/server/bankid-envelope";
import Fastify, { type FastifyReply } from "fastify";
import jkurwa from "jkurwa";
import type { RunningStandIn, SandboxOptions } from "../stand-in.ts";
import {
  type BankIdPki,
  bankIdPki,
  logoSvg,
  type StandInBank,
  type StandInCurve,
  standInBanks,
  standInCurves,
} from "./banks.ts";
import { bankChooserPage, errorPage, personaPage } from "./pages.ts";
import { type BankIdPersona, personaById } from "./personas.ts";

export interface BankIdStandInOptions {
  /** The product's public URL: the only place the stand-in sends browsers back to. */
  productUrl: string;
  /** 0 picks a free port. */
  port: number;
  /** The curve of KPI ID's encryption key (and the banks'): SANDBOX_BANKID_CURVE, 257 bits by default. */
  curve?: StandInCurve;
  /** Where its keys and certificates are kept for the next start (kept-pki.ts); undefined: made afresh. */
  dataDir?: string;
}

/** The resource endpoint's answer: `{state, cert, customerCrypto, memberId, sidBi}`. */
export type ResourceAnswerBody = Record<string, unknown>;

export interface RunningBankIdStandIn extends RunningStandIn {
  pki: BankIdPki;
  clientId: string;
  clientSecret: string;
  /**
   * Tests make the node misbehave (a forged envelope, another bank's memberId) by rewriting its answer
   * here; nothing sets it in the sandbox.
   */
  misbehave: { resource?: (answer: ResourceAnswerBody) => ResourceAnswerBody; banksDown?: boolean };
}

interface Grant {
  persona: BankIdPersona;
  bank: StandInBank;
  redirectUri: string;
  expiresAt: number;
  used?: boolean;
}

function privateKeyPem(der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return ["-----BEGIN PRIVATE KEY-----", ...lines, "-----END PRIVATE KEY-----"].join("\n");
}

/** NBU's codes are short-lived and single-use; its access tokens last about three minutes. */
const codeLifetimeMs = 60_000;
const tokenLifetimeSeconds = 180;

const oauthError = (reply: FastifyReply, status: number, error: string) =>
  reply.code(status).send({ error, error_description: `sandbox: ${error}` });

/**
 * Starts the BankID NBU stand-in: the bank list, the authorize page (bank chooser and personas), the
 * token and resource endpoints, answering with a real envelope (encrypted to KPI ID's certificate,
 * signed by the bank under the stand-in's CA). The product needs only the environment this returns.
 */
export async function startBankIdStandIn(options: BankIdStandInOptions): Promise<RunningBankIdStandIn> {
  const pki = bankIdPki(options.curve, options.dataDir);
  const clientId = "kpi-id-sandbox";
  const clientSecret = randomBytes(24).toString("base64url");
  const registeredCertificate = pki.organisation.certificate.as_asn1().toString("base64");
  const productOrigin = new URL(options.productUrl).origin;
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const misbehave: RunningBankIdStandIn["misbehave"] = {};
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  // NBU's token call and the page's form are form-encoded.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get("/api/banks", async (_request, reply) => {
    // An outage of the node's bank list (tests set it): sign-in must go on with the last good list.
    if (misbehave.banksDown) return reply.code(503).send({ error: "temporarily_unavailable" });
    return standInBanks.map(({ id, name, memberId, workable, order }) => ({
      id,
      name,
      memberId,
      workable,
      order,
      logoUrl: `/logos/${id}.svg`,
      loginUrl: `/v1/bank/oauth2/authorize?bank_id=${id}`,
    }));
  });
  app.get<{ Params: { id: string } }>("/logos/:id.svg", async (request, reply) => {
    const bank = standInBanks.find((each) => each.id === request.params.id);
    if (!bank) return reply.code(404).send();
    return reply.type("image/svg+xml").header("cache-control", "max-age=3600").send(logoSvg(bank));
  });

  /** A redirect_uri of the product's own /bankid-auth (or the older /{lang}/bankid-auth), as NBU checks it. */
  const allowedRedirect = (value: string | undefined) => {
    if (!value) return `${productOrigin}/bankid-auth`;
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return url?.origin === productOrigin && /^(\/uk|\/en)?\/bankid-auth$/.test(url.pathname) ? value : undefined;
  };

  app.get<{ Querystring: Record<string, string> }>("/v1/bank/oauth2/authorize", async (request, reply) => {
    const query = new URLSearchParams(request.query);
    reply.type("text/html; charset=utf-8");
    if (query.get("client_id") !== clientId || query.get("response_type") !== "code")
      return reply.code(400).send(errorPage("Unknown client_id or response_type"));
    if (!allowedRedirect(query.get("redirect_uri") ?? undefined))
      return reply.code(400).send(errorPage("redirect_uri is not the registered one"));
    const bank = standInBanks.find((each) => each.id === query.get("bank_id"));
    if (!bank) return bankChooserPage(standInBanks, query);
    return personaPage(bank, query);
  });

  app.post<{ Body: Record<string, string> }>("/v1/bank/oauth2/authorize", async (request, reply) => {
    const body = request.body ?? {};
    const redirectUri = allowedRedirect(body.redirect_uri);
    const bank = standInBanks.find((each) => each.id === body.bank_id && each.workable);
    const persona = personaById(body.persona ?? "");
    if (body.client_id !== clientId || !redirectUri || !bank || !persona)
      return reply.code(400).type("text/html; charset=utf-8").send(errorPage("Bad request"));
    const back = new URL(redirectUri);
    if (body.state) back.searchParams.set("state", body.state);
    if (persona.behaviour === "access_denied") {
      back.searchParams.set("error", "access_denied");
    } else {
      const code = randomBytes(24).toString("base64url");
      codes.set(code, { persona, bank, redirectUri, expiresAt: Date.now() + codeLifetimeMs });
      back.searchParams.set("code", code);
    }
    return reply.redirect(back.href, 302);
  });

  app.post<{ Body: Record<string, string> }>("/v1/bank/oauth2/token", async (request, reply) => {
    const body = request.body ?? {};
    if (body.grant_type !== "authorization_code") return oauthError(reply, 400, "invalid_request");
    if (body.client_id !== clientId || body.client_secret !== clientSecret)
      return oauthError(reply, 401, "unauthorized_client");
    const grant = codes.get(body.code ?? "");
    if (!grant || grant.used || grant.expiresAt < Date.now() || grant.persona.behaviour === "invalid_grant")
      return oauthError(reply, 400, "invalid_grant");
    if (body.redirect_uri !== undefined && body.redirect_uri !== grant.redirectUri)
      return oauthError(reply, 400, "invalid_grant");
    grant.used = true;
    const accessToken = randomBytes(24).toString("base64url");
    tokens.set(accessToken, { ...grant, expiresAt: Date.now() + tokenLifetimeSeconds * 1000 });
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: tokenLifetimeSeconds,
      refresh_token: randomBytes(24).toString("base64url"),
    };
  });

  app.post<{ Body: { cert?: unknown } }>("/v1/bank/resource/client", async (request, reply) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const grant = bearer ? tokens.get(bearer) : undefined;
    if (!bearer || !grant || grant.expiresAt < Date.now()) return oauthError(reply, 401, "invalid_token");
    tokens.delete(bearer);
    // As the real node does, the answer may be 200 with an error in the body.
    if (grant.persona.behaviour === "temporarily_unavailable") return { error: "temporarily_unavailable" };
    if (request.body?.cert !== registeredCertificate) return oauthError(reply, 400, "invalid_cert");
    const signer = pki.banks.get(grant.bank.id);
    const encryption = pki.bankEncryption.get(grant.bank.id);
    if (!signer || !encryption || !grant.persona.data) return oauthError(reply, 400, "invalid_data");
    const recipient = jkurwa.Certificate.from_asn1(Buffer.from(registeredCertificate, "base64"));
    const memberId =
      grant.persona.behaviour === "wrong_member"
        ? (standInBanks.find((bank) => bank.id !== grant.bank.id)?.memberId ?? "0")
        : grant.bank.memberId;
    const answer = {
      state: "ok",
      // The bank's encryption certificate: under static agreement the envelope's originator. When the
      // envelope carries that one itself, `cert` holds the bank's signing certificate (cryptonite's case).
      cert: (grant.persona.envelope?.carryCertificate ? signer : encryption).certificate.as_asn1().toString("base64"),
      customerCrypto: makeBankIdEnvelope({
        data: grant.persona.data,
        bank: signer,
        recipient,
        shape: grant.persona.envelope,
        bankEncryption: encryption,
      }),
      memberId,
      sidBi: randomBytes(8).toString("hex"),
    };
    return misbehave.resource ? misbehave.resource(answer) : answer;
  });

  await app.listen({ host: "127.0.0.1", port: options.port });
  const address = app.server.address();
  const url = `http://localhost:${typeof address === "object" && address ? address.port : options.port}`;
  const oneLine = (pem: string) => pem.replace(/\r?\n/g, "\\n");
  return {
    name: "BankID NBU",
    url,
    pki,
    clientId,
    clientSecret,
    misbehave,
    env: {
      BANKID_BASE_URL: url,
      BANKID_CLIENT_ID: clientId,
      BANKID_CLIENT_SECRET: clientSecret,
      BANKID_KEY: oneLine(privateKeyPem(pki.organisation.key.as_asn1())),
      BANKID_CERTIFICATE: oneLine(pki.organisation.certificate.as_pem()),
      BANKID_TRUST_ANCHORS: oneLine(pki.ca.certificate.as_pem()),
      BANKID_BANK_PICKER: "true",
    },
    close: () => app.close(),
  };
}

/** The sandbox starter: a real BankID configured in the environment wins, and then nothing starts. */
export async function startBankIdSandbox(options: SandboxOptions): Promise<RunningStandIn | undefined> {
  if (options.env.BANKID_BASE_URL) return undefined;
  const curve = standInCurves.find((each) => each === options.env.SANDBOX_BANKID_CURVE);
  return startBankIdStandIn({
    productUrl: options.productUrl,
    port: options.bankIdPort ?? 3004,
    curve,
    dataDir: options.dataDir,
  });
}
