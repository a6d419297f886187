import type { FastifyInstance } from "fastify";
import type { SamlKeys } from "./keys.ts";

// How long an instance keeps its keys before looking for a rollover (by the CLI or another instance).
const keyReloadMs = 60_000;

/** The SAML IdP's keys, reloaded at most once a minute. */
export class SamlRuntime {
  private keys: SamlKeys | undefined;
  private loadedAt = 0;
  private readonly app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  /** The keys; the first use ever makes the first key (lazily: an instance that never speaks SAML makes none). */
  async currentKeys(): Promise<SamlKeys> {
    const now = this.app.clock();
    if (!this.keys || now.getTime() - this.loadedAt > keyReloadMs) {
      // keys.ts reads certificates with @peculiar/x509: loaded with the first key, not at start-up (issue 41).
      const { ensureSamlKey, loadSamlKeys } = await import("./keys.ts");
      let keys = await loadSamlKeys(this.app.db, this.app.config.sessionSecrets, now);
      if (!keys.signing) {
        const commonName = new URL(this.app.config.publicUrl).hostname;
        await ensureSamlKey(this.app.db, this.app.config.sessionSecret, commonName, now);
        keys = await loadSamlKeys(this.app.db, this.app.config.sessionSecrets, now);
      }
      this.keys = keys;
      this.loadedAt = now.getTime();
    }
    return this.keys;
  }
}
