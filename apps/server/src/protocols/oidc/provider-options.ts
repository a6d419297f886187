import type { Kysely } from "kysely";
import type { ApplicationCache } from "../../model/apps/cache.ts";
import type { PrivateJwk } from "../../model/oidc/keys.ts";
import type { Config } from "../../platform/config/index.ts";
import type { Database } from "../../platform/db/schema.ts";
import type { AccountCache } from "./account-cache.ts";
import type { OidcAuditSink } from "./audit.ts";
import type { AccessTokenCache } from "./token-cache.ts";

/** What the provider is built from (provider.ts); its parts read it from here, so none imports provider.ts back. */
export interface ProviderOptions {
  config: Config;
  db: Kysely<Database>;
  keys: PrivateJwk[];
  clock: () => Date;
  audit: OidcAuditSink;
  /** The instance's memory of applications, the people and the access tokens the provider asks for (cache/feed.ts). */
  caches: { applications: ApplicationCache; accounts: AccountCache; accessTokens: AccessTokenCache };
}
