import { forgetWifiSession, openWifiSessions, type WifiSession } from "../../model/wifi/sessions.ts";
import { type AuditEvent, recordAuditEvent } from "../../platform/audit/record.ts";
import type { WifiConfig } from "../../platform/config/wifi.ts";
import type { Db } from "../../platform/db/schema.ts";
import { type DisconnectAnswer, sendDisconnect } from "./radclient.ts";

/** The controller's answer, or why none came; `not_configured` without RADIUS_COA_SECRET. */
export type DisconnectOutcome = DisconnectAnswer | "not_configured";

/** Why a person's devices are disconnected: the audit row's `trigger`. */
export type DisconnectTrigger = "disabled" | "erased" | "wifi_off" | "password_revoked";

export interface WifiDisconnectsDeps {
  db: Db;
  clock: () => Date;
  /** Where a failure is told (the app's logger; the CLI's standard error). */
  log: { warn(facts: object, message: string): void; error(facts: object, message: string): void };
  coa: WifiConfig["coa"];
  /** Counts the audit row in the service's metrics, when the app has them. */
  observeAudit?: (event: AuditEvent) => void;
}

/**
 * Disconnects a person's devices when their Wi-Fi access ends (issue 73): one RFC 5176 Disconnect-Request per open
 * session, through FreeRADIUS to the controller holding it. The sessions are read when asked (before a revocation
 * deletes them); sending runs in the background, after the caller's change is committed, and never holds up the
 * operator. Each answer is audited (`wifi_disconnect`); a failure is also logged as a warning. An acknowledged
 * session is forgotten at once; a refused one stays listed until its Stop or the idle clean-up.
 */
export class WifiDisconnects {
  readonly #deps: WifiDisconnectsDeps;
  readonly #pending = new Set<Promise<void>>();

  constructor(deps: WifiDisconnectsDeps) {
    this.#deps = deps;
  }

  /** The open sessions of the person (or of one password): read them before anything deletes them. */
  sessionsOf(who: { userId: string; passwordId?: string }): Promise<WifiSession[]> {
    return openWifiSessions(this.#deps.db, who);
  }

  /**
   * Sends a Disconnect-Request for each session, in the background; call it after the change committed. The
   * answers, for a caller that waits (the CLI); the promise never rejects.
   */
  send(sessions: WifiSession[], trigger: DisconnectTrigger, actorId?: string): Promise<DisconnectOutcome[]> {
    return Promise.all(
      sessions.map((session) => {
        const sending = this.#disconnect(session, trigger, actorId);
        const tracked = sending.then(() => undefined).finally(() => this.#pending.delete(tracked));
        this.#pending.add(tracked);
        return sending;
      }),
    );
  }

  /** sessionsOf then send: for a change that leaves the sessions' rows in place (disabling, Wi-Fi off). */
  async disconnect(who: { userId: string; passwordId?: string }, trigger: DisconnectTrigger, actorId?: string) {
    void this.send(await this.sessionsOf(who), trigger, actorId);
  }

  /** Resolves when every Disconnect-Request sent so far has its answer (closing the app, the CLI's exit). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #disconnect(
    session: WifiSession,
    trigger: DisconnectTrigger,
    actorId: string | undefined,
  ): Promise<DisconnectOutcome> {
    const { db, clock, log, coa, observeAudit } = this.#deps;
    try {
      const answer: DisconnectOutcome = coa ? await sendDisconnect(coa.server, coa.secret, session) : "not_configured";
      if (answer === "ack") await forgetWifiSession(db, session.id);
      else log.warn({ controller: session.controller, answer, trigger }, "Wi-Fi disconnect not acknowledged");
      const event: AuditEvent = {
        type: "wifi_disconnect",
        result: answer === "ack" ? "success" : "failure",
        userId: session.userId,
        actorId,
        reason: answer === "ack" ? undefined : answer,
        occurredAt: clock(),
        details: { trigger, controller: session.controller, nasIdentifier: session.nasIdentifier },
      };
      await recordAuditEvent(db, event);
      observeAudit?.(event);
      return answer;
    } catch (error) {
      // Never thrown at the caller, who has long answered; the error is the operator's to see.
      log.error({ err: error, controller: session.controller, trigger }, "Wi-Fi disconnect failed");
      return "error";
    }
  }
}
