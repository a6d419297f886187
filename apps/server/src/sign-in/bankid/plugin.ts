import type { FastifyInstance } from "fastify";
import { bankListStore } from "../../model/bankid/bank-list.ts";
import { BankIdClient } from "./client.ts";
import { bankIdRoutes } from "./routes.ts";
import type { BankIdRuntime } from "./service.ts";

/**
 * The BankID runtime when configured; a key, certificate or CA that cannot be read stops start-up.
 * Its DSTU crypto (jkurwa, gost89) is loaded here only when BankID is configured (issue 41).
 */
export async function createBankIdRuntime(app: FastifyInstance): Promise<BankIdRuntime | undefined> {
  const settings = app.config.bankId;
  if (!settings) return undefined;
  const [{ loadBankIdKeys }, { ThreadedEnvelopeOpener }] = await Promise.all([
    import("./runtime.ts"),
    import("./crypto/envelope-opener.ts"),
  ]);
  const keys = loadBankIdKeys(settings, app.log);
  return {
    client: new BankIdClient(settings, app.clock, bankListStore(app.db)),
    keys,
    // Every bank's answer, the sandbox stand-in's included, is opened in the thread (its start: the first answer).
    envelopes: new ThreadedEnvelopeOpener(keys),
    publicUrl: app.config.publicUrl,
  };
}

/** Sign-in with BankID NBU: its routes always exist and answer bankid.not_configured until it is configured. */
export async function registerBankId(app: FastifyInstance, given?: BankIdRuntime): Promise<void> {
  const runtime = given ?? (await createBankIdRuntime(app));
  app.features.bankId = runtime !== undefined;
  app.features.bankIdBankPicker = runtime !== undefined && app.config.bankId?.bankPicker === true;
  const crls = runtime?.keys.crls;
  // The CRLs load at start; a source that fails is logged and asked again at the next sign-in.
  if (crls) app.addHook("onReady", () => crls.refresh(app.clock()));
  if (runtime) {
    const { envelopes } = runtime;
    app.metrics.watchCheckLine("bankid", envelopes.queue);
    app.addHook("onClose", () => envelopes.close());
  }
  await app.register(bankIdRoutes(runtime));
}
