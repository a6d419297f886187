import { recordIntegrationFailure } from "../../model/developers/health.ts";
import { decideBind, type LdapBindDecision, ldapBindAuditEvent } from "../../model/ldap/binds.ts";
import { ldapThrottleKey } from "../../model/ldap/throttle.ts";
import { createAcceptedBindQueue } from "../../model/ldap/uses.ts";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { Config } from "../../platform/config/index.ts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { DatabaseHandle } from "../../platform/db/index.ts";
import { synchroniseDirectory } from "./directory-sync.ts";
import { synchronisePeople } from "./person-sync.ts";
import { ldapResult, startBindResponder } from "./responder.ts";
import type { SockBind } from "./sock.ts";
import type { SyncReport } from "./sync.ts";
import { changeOf, scheduleSyncs } from "./sync-schedule.ts";

/** The channels whose messages mean "the directory may be behind" (migrations 0310 and 0690). */
const changeChannels = ["kpi_id_cache", "kpi_id_ldap"];

export interface LdapServiceOptions {
  database: DatabaseHandle;
  config: Config;
  clock: () => Date;
  /** The KPI ID password's check, for clients an operator allows it through (docs/ldap.md). */
  passwordHasher: PasswordHasher;
  /** Each bind's audit event once recorded (the service's metrics count it). */
  onBind?: (event: AuditEvent) => void;
  onError?: (error: unknown, what: "bind" | "sync" | "records") => void;
  onSynced?: (report: SyncReport) => void;
}

export interface LdapService {
  /** A full synchronisation now (after any one already running); what it changed. */
  syncNow(): Promise<SyncReport>;
  /**
   * Writes the accepted binds' audit rows and uses noted so far (batched after the binds: model/ldap/uses.ts,
   * createAcceptedBindQueue).
   */
  flushRecords(): Promise<void>;
  close(): Promise<void>;
}

function resultCode(decision: LdapBindDecision): number {
  if (decision.accepted) return ldapResult.success;
  return decision.refusal === "no_tls" ? ldapResult.confidentialityRequired : ldapResult.invalidCredentials;
}

/**
 * KPI ID's side of LDAP (docs/ldap.md): the responder slapd's sock overlay asks about every simple bind, and the
 * synchronisation that keeps slapd's directory KPI ID's truth: at start, within moments of any change announced
 * on the database's channels, and every LDAP_RESYNC_SECONDS to repair drift.
 */
export async function startLdapService(options: LdapServiceOptions): Promise<LdapService> {
  const { database, config, clock } = options;
  const ldap = config.ldap;
  if (!ldap.ldapiPath) throw new Error("LDAP_LDAPI_PATH is not set");
  const settings = { ldapiPath: ldap.ldapiPath, baseDn: ldap.baseDn, scope: ldap.scope };
  const throttleSecret = ldapThrottleKey(config.saml.pairwiseSalt);
  const records = createAcceptedBindQueue(database.db, { onError: (error) => options.onError?.(error, "records") });

  const decide = async (bind: SockBind): Promise<number> => {
    const facts = { dn: bind.dn, password: bind.credentials, peer: bind.peer, ssf: bind.ssf };
    const now = clock();
    const decision = await decideBind(
      {
        db: database.db,
        ring: config.sessionSecrets,
        throttleSecret,
        baseDn: ldap.baseDn,
        now,
        verifyAccountPassword: (hash, password) => options.passwordHasher.verify(hash, password),
        recordAccepted: records.add,
      },
      facts,
    );
    // decideBind wrote this audit row, or queued it (an application password's accepted bind).
    const event = ldapBindAuditEvent(decision, facts, now);
    // A person its application does not let in, binding through its client: the owners' health view shows it, as
    // the other protocols' gate refusals (the person is never named there).
    if (!decision.accepted && decision.refusal === "no_access" && decision.applicationId) {
      await recordIntegrationFailure(database.db, decision.applicationId, "ldap", "no_access");
    }
    options.onBind?.(event);
    return resultCode(decision);
  };
  const responder = await startBindResponder(ldap.bindSocket, decide, (error) => options.onError?.(error, "bind"));

  const scheduler = scheduleSyncs(
    {
      full: () => synchroniseDirectory(database.db, settings),
      people: (ids) => synchronisePeople(database.db, settings, ids),
    },
    {
      onSynced: (report) => options.onSynced?.(report),
      onError: (error) => options.onError?.(error, "sync"),
    },
  );

  const subscriptions = changeChannels.map((channel) =>
    database.listen(channel, {
      message(payload) {
        const change = changeOf(payload);
        if (change) scheduler.changed(change);
      },
      listening(state) {
        // Back after a lost connection: changes may have been missed meanwhile.
        if (state) scheduler.changed("all");
      },
    }),
  );
  await Promise.all(subscriptions.map((subscription) => subscription.ready));
  const resync = setInterval(() => scheduler.changed("all"), ldap.resyncSeconds * 1000);
  resync.unref();

  return {
    syncNow: scheduler.syncNow,
    flushRecords: records.flush,
    async close() {
      clearInterval(resync);
      await Promise.all(subscriptions.map((subscription) => subscription.close()));
      await scheduler.close();
      await responder.close();
      // After the responder: no bind is recorded any more, and the last ones are written before the database closes.
      await records.flush();
    },
  };
}
