import { type Algorithm, hash, verify } from "@node-rs/argon2";
import type { Config } from "../config/index.ts";
import { AppError } from "../errors.ts";
import { type CheckQueue, CheckRefused, createCheckQueue } from "./check-queue.ts";

export type Argon2Parameters = Config["argon2"];
export type PasswordCheckLimits = Config["passwordChecks"];

/** What a caller does in its turn: verify without queueing again (the turn is already held). */
export interface PasswordTurn {
  verify(passwordHash: string | null, password: string): Promise<boolean>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Also true/false for a null hash (unknown user), after the same work as a real check. */
  verify(passwordHash: string | null, password: string): Promise<boolean>;
  /**
   * Runs `work` in a turn of the bounded line of argon2id checks (check-queue.ts), for a caller with more to do
   * in the turn than the check (a sign-in counts the attempt first). Refused with 429 `request.rate_limited`
   * and a Retry-After when the line is full or the turn does not come in time; `abandoned` (the client gone)
   * is asked when the turn comes, and a check nobody waits for any more is not made.
   */
  inTurn<T>(work: (turn: PasswordTurn) => Promise<T>, abandoned?: () => boolean): Promise<T>;
  readonly queue: CheckQueue;
  /** Told each argon2id computation's time (ms), the wait for its turn not counted (the metrics). */
  onArgon2?: (milliseconds: number) => void;
}

/** A busy instance's refusal: try again in a moment (the wait the line allows is the hint). */
function busy(limits: PasswordCheckLimits, error: CheckRefused): AppError {
  return new AppError("request.rate_limited", {
    retryAfterSeconds: Math.max(1, Math.ceil(limits.maxWaitMs / 1000)),
    cause: error,
  });
}

/**
 * argon2id with the configured (OWASP minimum or stronger) parameters. Passwords
 * are hashed whole: no truncation, no composition rules (NIST SP 800-63B).
 */
export function createPasswordHasher(parameters: Argon2Parameters, limits?: PasswordCheckLimits): PasswordHasher {
  const options = {
    // Algorithm.Argon2id; the enum is a const enum that type stripping cannot inline.
    algorithm: 2 as Algorithm,
    memoryCost: parameters.memoryCost,
    timeCost: parameters.timeCost,
    parallelism: parameters.parallelism,
  };
  // Verified against when the user does not exist, so that an unknown username
  // costs the same time as a wrong password and cannot be told apart.
  let dummyHash: Promise<string> | undefined;
  const getDummyHash = () => {
    dummyHash ??= hash("kpi-id dummy password for timing equality", options);
    return dummyHash;
  };
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const began = performance.now();
    try {
      return await work();
    } finally {
      hasher.onArgon2?.(performance.now() - began);
    }
  };
  const turn: PasswordTurn = {
    verify: (passwordHash, password) =>
      timed(async () => {
        if (passwordHash === null) {
          await verify(await getDummyHash(), password).catch(() => false);
          return false;
        }
        try {
          return await verify(passwordHash, password);
        } catch {
          return false;
        }
      }),
  };
  // Without limits (the CLI, an import's own process: one check at a time anyway) the line never refuses.
  const lineLimits = limits ?? { concurrency: 4, maxWaiting: Number.POSITIVE_INFINITY, maxWaitMs: 2 ** 31 - 1 };
  const queue = createCheckQueue(lineLimits);
  const inTurn = async <T>(work: (turn: PasswordTurn) => Promise<T>, abandoned?: () => boolean): Promise<T> => {
    try {
      return await queue.run(() => work(turn), abandoned);
    } catch (error) {
      if (error instanceof CheckRefused) throw busy(lineLimits, error);
      throw error;
    }
  };

  const hasher: PasswordHasher = {
    queue,
    inTurn,
    hash: (password) => inTurn(() => timed(() => hash(password, options))),
    verify: (passwordHash, password) => inTurn((own) => own.verify(passwordHash, password)),
  };
  return hasher;
}
