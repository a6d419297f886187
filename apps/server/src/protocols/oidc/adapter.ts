import { isStorableText } from "@kpi-id/contracts";
import { type Adapter, type AdapterPayload, errors } from "oidc-provider";
import { findApplicationById } from "../../model/apps/queries.ts";
import {
  consumeOidcPayload,
  deleteOidcPayload,
  deleteOidcPayloadsOfGrant,
  findOidcPayloadRow,
  upsertOidcPayload,
} from "../../model/oidc/payloads.ts";
import { newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import { seal, unseal } from "../../platform/crypto/seal.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { type FindApplication, findOidcClient } from "./clients.ts";
import {
  currentOidcMemory,
  type OidcLookup,
  type OidcRequestMemory,
  type OidcRow,
  selectWithRelated,
} from "./request-memory.ts";
import {
  type AccessTokenCache,
  changesCachedRows,
  forgetGrant,
  forgetWritten,
  readAccessToken,
} from "./token-cache.ts";

const secondsToDate = (seconds: number) => new Date(Date.now() + seconds * 1000);

/**
 * What PostgreSQL cannot store: U+0000 in text and jsonb (contracts' isStorableText), and in
 * jsonb also a lone surrogate (JSON.stringify writes it as an escape jsonb refuses).
 */
function storable(value: unknown): boolean {
  if (typeof value === "string") return isStorableText(value) && value.isWellFormed();
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === "object") return Object.entries(value).every(([k, v]) => storable(k) && storable(v));
  return true;
}

/**
 * Every code, token, uid, grant id and parameter the provider looks up or keeps passes
 * here, so one check covers every endpoint: a value PostgreSQL could never store (nor
 * have stored) is the client's mistake, 400 invalid_request, not a server error.
 */
function refuseUnstorable(value: unknown): void {
  if (!storable(value))
    throw new errors.InvalidRequest(
      "a parameter contains a character that cannot be stored (U+0000 or a lone surrogate)",
    );
}

/**
 * A rotated-away refresh token presented again within this many seconds of its first use is
 * taken as the same token sent concurrently (two tabs, a retried request) and refreshed once
 * more; later, its reuse is a replay and revokes the whole grant (as the library does).
 */
export const refreshTokenReuseGraceSeconds = 5;

type Payload = AdapterPayload & { consumed?: number };

/**
 * Tokens and codes are written once, when issued, and commit without waiting for the disk (db/commit.ts): a crash
 * that forgets one leaves the client holding a token or code that works nowhere (it asks again, or the person
 * signs in again). Their use (`consume`), their removal (`destroy`, `revokeByGrantId`) and every other model (the
 * provider's sessions, grants, interactions, replay detection) stay durable: losing those could let something
 * work again. A token a crash forgot was issued for a code or refresh token whose use was already on disk, so
 * nothing can be used twice.
 */
const issuedTokenModels: ReadonlySet<string> = new Set(["AccessToken", "RefreshToken", "AuthorizationCode"]);

/**
 * The models whose id is a bearer secret: whoever holds the value is the client (a token, a code). The table keeps
 * only the SHA-256 of the id, and the payload without its copy (`jti`), so a database copy, a backup or the WAL
 * hands out no working token (design.md §7, as sessions, grants, tickets, reset and SCIM tokens). They are found
 * by id only (not by uid or user code), so the id given to `find` restores `jti`.
 */
const hashedIdModels: ReadonlySet<string> = new Set([
  "AccessToken",
  "RefreshToken",
  "AuthorizationCode",
  "DeviceCode",
  "ClientCredentials",
  "InitialAccessToken",
  "RegistrationAccessToken",
  "BackchannelAuthenticationRequest",
]);

/** The id as the table keeps it: SHA-256, base64url, for the bearer models; as given for the others. */
export function storedOidcId(model: string, id: string): string {
  return hashedIdModels.has(model) ? hashToken(id).toString("base64url") : id;
}

/** The same, hashed once per request (request-memory.ts). */
function requestStoredId(model: string, id: string): string {
  if (!hashedIdModels.has(model)) return id;
  return currentOidcMemory()?.storedId(model, id, () => storedOidcId(model, id)) ?? storedOidcId(model, id);
}

const deviceCodeSealPurpose = "oidc device code";

/**
 * The payload as kept: a bearer model's own id (`jti`) left out, since it is the secret itself. A device
 * code is also found by its user code, when the person types it, and the library then saves the code
 * again (the person's answer) under its id: so its id is kept sealed (AES-GCM under SESSION_SECRET's
 * newest key), which a copy of the database alone does not open.
 */
function keptPayload(model: string, id: string, payload: AdapterPayload, secrets?: SecretRing): AdapterPayload {
  if (!hashedIdModels.has(model) || payload.jti !== id) return payload;
  const { jti: _secret, ...kept } = payload;
  if (model !== "DeviceCode" || !secrets) return kept;
  return { ...kept, sealedJti: seal(newestKey(secrets), deviceCodeSealPurpose, id) };
}

/** A kept payload as the library reads it: a device code found by its user code gets its id back. */
function readPayload(payload: AdapterPayload, secrets?: SecretRing): AdapterPayload {
  // Every other payload as it is: no copy on userinfo's and the token endpoint's every read.
  if (!Object.hasOwn(payload, "sealedJti")) return payload;
  const { sealedJti, ...rest } = payload as AdapterPayload & { sealedJti?: unknown };
  if (typeof sealedJti !== "string") return payload;
  const jti = secrets ? unseal(secrets, deviceCodeSealPurpose, sealedJti) : undefined;
  return jti ? { ...rest, jti } : rest;
}

/**
 * A device code's row outlives its lifetime by an hour: the library checks the code's own expiry, so a
 * person who types an expired code is told it expired (RFC 8628 expired_token, the page's message) rather
 * than that there is no such code. Every other row goes when it expires.
 */
function rowLifetimeSeconds(model: string, expiresIn: number): number {
  return model === "DeviceCode" ? expiresIn + 3600 : expiresIn;
}

/** Inside the grace period a used refresh token reads as unused (see above). */
function withinReuseGrace(model: string, payload: Payload, now: Date): Payload {
  const { consumed, ...unused } = payload;
  if (model !== "RefreshToken" || typeof consumed !== "number") return payload;
  return now.getTime() / 1000 - consumed <= refreshTokenReuseGraceSeconds ? unused : payload;
}

/**
 * oidc-provider's storage interface over one table, through Kysely, so it
 * runs the same on PGlite and PostgreSQL. Clients are not stored here: they
 * are read from the applications table.
 */
export function createAdapterClass(
  db: Db,
  clock: () => Date = () => new Date(),
  findApplication: FindApplication = (id) => findApplicationById(db, id),
  secrets?: SecretRing,
  accessTokens?: AccessTokenCache,
) {
  return class KyselyOidcAdapter implements Adapter {
    readonly name: string;

    constructor(name: string) {
      this.name = name;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      refuseUnstorable(id);
      refuseUnstorable(payload);
      const row = {
        type: this.name,
        id: requestStoredId(this.name, id),
        payload: JSON.stringify(keptPayload(this.name, id, payload, secrets)),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? secondsToDate(rowLifetimeSeconds(this.name, expiresIn)) : null,
      };
      const issued = issuedTokenModels.has(this.name);
      // Inside a provider request the write waits for the request's end (request-memory.ts).
      const memory = currentOidcMemory();
      if (memory?.upsert({ ...row, consumed_at: null }, issued)) return this.announceAfterFlush(memory, row.id);
      await this.announcing(row.id, () => upsertOidcPayload(db, row, issued));
    }

    /**
     * The statements below tell the instance's token cache what they changed themselves (token-cache.ts); a write
     * is told even when it failed, since its answer may be what was lost after the change was made.
     */
    private async announcing(storedId: string, write: () => Promise<void>): Promise<void> {
      try {
        await write();
      } finally {
        forgetWritten(accessTokens, this.name, storedId);
      }
    }

    private announceAfterFlush(memory: OidcRequestMemory, storedId: string): void {
      if (accessTokens && changesCachedRows(this.name))
        memory.afterFlush.push(() => forgetWritten(accessTokens, this.name, storedId));
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      refuseUnstorable(id);
      if (this.name === "Client") return findOidcClient(findApplication, id);
      const payload = await this.findWhere("id", requestStoredId(this.name, id));
      if (!payload) return undefined;
      // The payload is this call's own (parsed from the row's text), so it takes its id in place.
      if (hashedIdModels.has(this.name) && payload.jti === undefined) payload.jti = id;
      return withinReuseGrace(this.name, payload, clock());
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere("uid", uid);
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere("user_code", userCode);
    }

    /** One UPDATE: the first use counts (a use inside the grace period does not extend it). */
    async consume(id: string): Promise<void> {
      refuseUnstorable(id);
      const storedId = requestStoredId(this.name, id);
      const at = clock();
      const memory = currentOidcMemory();
      if (memory?.consume(this.name, storedId, at)) return this.announceAfterFlush(memory, storedId);
      await this.announcing(storedId, () => consumeOidcPayload(db, this.name, storedId, at));
    }

    async destroy(id: string): Promise<void> {
      refuseUnstorable(id);
      await this.destroyStored(requestStoredId(this.name, id));
    }

    private async destroyStored(storedId: string): Promise<void> {
      const memory = currentOidcMemory();
      if (memory?.destroy(this.name, storedId)) return this.announceAfterFlush(memory, storedId);
      await this.announcing(storedId, () => deleteOidcPayload(db, this.name, storedId));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      refuseUnstorable(grantId);
      const memory = currentOidcMemory();
      // The request's deferred writes first, so that none of the grant's rows comes back after the removal.
      await memory?.flush(db);
      try {
        await deleteOidcPayloadsOfGrant(db, grantId);
      } finally {
        forgetGrant(accessTokens, grantId);
      }
      memory?.revokeGrant(grantId);
    }

    private async findWhere(column: OidcLookup, value: string) {
      const row = await this.findRow(column, value);
      if (!row) return undefined;
      const stored = JSON.parse(row.payload) as AdapterPayload;
      // The library reads `consumed` (seconds) from the payload to detect a second use; consumed_at holds it.
      const consumed = row.consumed_at ? Math.floor(row.consumed_at.getTime() / 1000) : undefined;
      const payload: Payload = readPayload(stored, secrets);
      if (consumed !== undefined) payload.consumed = consumed;
      return payload;
    }

    /** Expired rows are invisible and removed when met. Rows this request has met come from its memory. */
    private async findRow(column: OidcLookup, value: string): Promise<OidcRow | undefined> {
      refuseUnstorable(value);
      const memory = currentOidcMemory();
      const known = memory?.find(this.name, column, value);
      const row = known === undefined ? await this.selectRow(column, value) : (known ?? undefined);
      if (!row) {
        if (column === "id") memory?.absent(this.name, value);
        return undefined;
      }
      if (row.expires_at && row.expires_at <= new Date()) {
        // The row's id is already the stored one (hashed for bearer models).
        await this.destroyStored(row.id);
        return undefined;
      }
      return memory ? memory.read(row) : row;
    }

    private async selectRow(column: OidcLookup, value: string): Promise<OidcRow | undefined> {
      const memory = currentOidcMemory();
      if (memory && column === "id" && this.name === "AccessToken" && accessTokens)
        return readAccessToken(accessTokens, db, memory, value);
      if (memory && column === "id") return selectWithRelated(db, memory, this.name, value);
      // A user code may come again after an hour's old one was kept past its expiry: the newest is meant.
      const row = await findOidcPayloadRow(db, this.name, column, value);
      return row && { ...row, payload: JSON.stringify(row.payload) };
    }
  };
}
