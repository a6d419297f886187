import type { Db } from "../../platform/db/schema.ts";

/**
 * Why sessions end; the audit row's reason. The person signing their own browsers out ("one", "others") and an
 * operator ending them ("operator") end the sessions and what was started in them. The others follow a
 * credential that may be in someone else's hands, or an account that is closing: the protocols end every token
 * of the person with them (OpenID Connect's `offline_access` too) and the login grants not yet exchanged go.
 * "signed_out" is a browser signing itself out through any protocol's sign-out: its entry point writes the
 * `logout` audit row (with the protocol it came through), not a `session_end` one.
 */
export type SignOutReason =
  | "one"
  | "others"
  | "operator"
  | "operator.reset_mfa"
  | "password_change"
  | "password_reset"
  | "scim_password"
  | "disabled"
  | "erased"
  | "signed_out";

/** A credential may be in other hands, or the account is closing: every token and pending grant ends too. */
export const endsEveryGrant: Record<SignOutReason, boolean> = {
  one: false,
  others: false,
  operator: false,
  "operator.reset_mfa": true,
  password_change: true,
  password_reset: true,
  scim_password: true,
  disabled: true,
  // Erasure deletes every grant and pending sign-in itself, and counts them for the person (privacy/erase.ts).
  erased: false,
  signed_out: false,
};

/** One person's sessions that are ending, as every participant hears of them. */
export interface EndingSessions {
  userId: string;
  sessionIds: readonly string[];
  /**
   * When each was signed in to (seconds): its start, and a later step-up to a second factor. The OpenID Connect
   * provider's sessions follow those sign-ins (`loginTs`).
   */
  loginTimes: readonly number[];
  reason: SignOutReason;
  /**
   * Set when a browser signs out and is there to be sent on: where it goes last. A participant that tells its
   * applications through the browser (SAML's front-channel) answers the path it goes first (`browserPath`).
   */
  browser?: { returnTo: string };
  /**
   * When one browser signs itself out: its cookies, by name. A participant that keeps a session of its own in the
   * browser (the OpenID Connect provider's) ends that one, not whichever of the person's started the same second.
   */
  cookie?: (name: string) => string | undefined;
}

/**
 * A protocol's part in every sign-out (Keycloak's LoginProtocol: backchannelLogout, frontchannelLogout). Each
 * protocol registers one when the app is assembled; the model calls it for every ending, whichever protocol or
 * page started it, so each application the sessions reached is told once.
 */
export interface SignOutParticipant<Noted> {
  /** The protocol, for the log. */
  readonly name: string;
  /**
   * In the ending's transaction, before the session rows go: what the protocol removes with them. Answers what it
   * must tell its applications after the commit; taking those records here (deleting them) is what makes a second
   * ending of the same sessions, by another path at the same time, tell nobody twice.
   */
  withinTransaction(tx: Db, ending: EndingSessions): Promise<Noted>;
  /** After the commit: what it tells its applications over the back channel. Never throws: it logs what failed. */
  afterCommit(ending: EndingSessions, noted: Noted): Promise<void>;
  /** For a browser sign-out: where the browser goes first to tell this protocol's applications, if anywhere. */
  browserPath?(noted: Noted): string | undefined;
}

/** What an ending leaves to do once its transaction commits. */
export interface PendingSignOut {
  /** How many sessions ended. */
  count: number;
  /** Tells the applications (every participant's afterCommit, at once); resolves when all were told or gave up. */
  tellApplications(): Promise<void>;
  /** A browser sign-out: where the browser goes next (a participant's front channel), else undefined. */
  browserPath?: string;
}

type Step = (tx: Db, ending: EndingSessions) => Promise<{ after: () => Promise<void>; path?: string }>;

/** Where a participant's failure after the commit goes (the app's log): it never fails the sign-out. */
export type SignOutFailure = (participant: string, error: unknown) => void;

/**
 * The participants of one app (`app.signOut`): each protocol registers once (its register function), and
 * end-sessions.ts runs them for every ending. The model never names a protocol; it only calls what registered.
 */
export class SignOutParticipants {
  readonly #steps: Step[] = [];
  readonly #names: string[] = [];
  readonly #onFailure: SignOutFailure;

  constructor(onFailure: SignOutFailure) {
    this.#onFailure = onFailure;
  }

  register<Noted>(participant: SignOutParticipant<Noted>): void {
    this.#names.push(participant.name);
    this.#steps.push(async (tx, ending) => {
      const noted = await participant.withinTransaction(tx, ending);
      return {
        after: () =>
          participant.afterCommit(ending, noted).catch((error: unknown) => this.#onFailure(participant.name, error)),
        path: ending.browser ? participant.browserPath?.(noted) : undefined,
      };
    });
  }

  /** The registered protocols' names, in the order they registered. */
  get names(): readonly string[] {
    return this.#names;
  }

  /** Every participant's part inside the transaction; answers what is left for after the commit. */
  async withinTransaction(tx: Db, ending: EndingSessions): Promise<Omit<PendingSignOut, "count">> {
    const done: Awaited<ReturnType<Step>>[] = [];
    for (const step of this.#steps) done.push(await step(tx, ending));
    // Only one participant (SAML) walks the browser; were there two, the first one's round would be the one taken.
    const browserPath = done.find((each) => each.path)?.path;
    return {
      browserPath,
      tellApplications: async () => {
        await Promise.all(done.map((each) => each.after()));
      },
    };
  }
}
