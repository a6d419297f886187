/**
 * Why they end; the audit row's reason. The person signing their own browsers out ("one", "others") and an
 * operator ending them ("operator") end the sessions and what was started in them. The others follow a
 * credential that may be in someone else's hands, or an account that is closing: every OpenID Connect grant
 * of the person ends with them (`offline_access` ones too) and so do the login grants not yet exchanged.
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
  | "erased";

/** What the protocols hear when a person's sessions end (sign-out-events.ts). */
export interface SignedOut {
  userId: string;
  /** When each ended session started (seconds): the OpenID Connect provider's sessions follow those sign-ins. */
  loginTimes: number[];
  reason: SignOutReason;
}

export type SignOutListener = (signedOut: SignedOut) => Promise<void>;

/**
 * A person's sessions ended (endSessions): the event the model publishes and the protocols above it subscribe
 * to when the app is assembled (app.ts), so the model never calls upward. OpenID Connect ends the provider
 * sessions that followed those sign-ins and sends their applications back-channel logout. Listeners run in the
 * order they subscribed, one after another, and the caller waits for them: the answer that says "signed out"
 * comes after the applications were told.
 */
export class SignOutEvents {
  readonly #listeners: SignOutListener[] = [];

  subscribe(listener: SignOutListener): void {
    this.#listeners.push(listener);
  }

  async publish(signedOut: SignedOut): Promise<void> {
    for (const listener of this.#listeners) await listener(signedOut);
  }
}
