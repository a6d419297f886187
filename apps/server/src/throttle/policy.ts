/**
 * How many failed credential checks a key may have before it waits, and for
 * how long. docs/operations.md describes the same numbers for operators.
 */
export interface ThrottleRule {
  /** Failures allowed without any delay. */
  freeFailures: number;
  /** The delay after the first failure past the free ones; it doubles with each further failure. */
  firstDelaySeconds: number;
  /** From this many failures on, every failure locks the key for lockSeconds. */
  lockAfterFailures: number;
  lockSeconds: number;
  /** When the count starts again from zero: this long after the key's last failure, or after its first. */
  forgetAfterSeconds: number;
  forgetFrom: "lastFailure" | "firstFailure";
}

export const throttlePolicy = {
  // One account: a person mistyping is never slowed; guessing is slowed to one try per 15 minutes.
  account: {
    freeFailures: 3,
    firstDelaySeconds: 1,
    lockAfterFailures: 10,
    lockSeconds: 15 * 60,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "lastFailure",
  },
  // One address: a campus NAT carries many people, so the allowance is larger, and it is counted per hour
  // from the first failure, so a busy address's occasional typos never add up to a lock over a day.
  ip: {
    freeFailures: 30,
    firstDelaySeconds: 1,
    lockAfterFailures: 100,
    lockSeconds: 15 * 60,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
} as const satisfies Record<string, ThrottleRule>;

/** Seconds the key must wait after its `failures`-th failure in a row. */
export function delayAfterFailures(rule: ThrottleRule, failures: number): number {
  if (failures >= rule.lockAfterFailures) return rule.lockSeconds;
  if (failures <= rule.freeFailures) return 0;
  return Math.min(rule.firstDelaySeconds * 2 ** (failures - rule.freeFailures - 1), rule.lockSeconds);
}
