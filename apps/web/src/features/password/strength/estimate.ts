import { type BlocklistReason, blockedWords, blocklistReason, serviceContextWords } from "@kpi-id/contracts";

export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** zxcvbn-ts's verdict; warning and suggestions are its translation keys (the app's i18n words them). */
export interface Strength {
  score: StrengthScore;
  warning: string | null;
  suggestions: string[];
  /** KPI ID's server will refuse it, and why (the same rule the server applies). */
  refused?: BlocklistReason;
}

export type Estimate = (password: string, contextWords: readonly string[]) => Strength;

let loading: Promise<Estimate> | undefined;

async function loadZxcvbn(): Promise<Estimate> {
  // About 400 kB of word lists: fetched only where a new password is typed, never with the sign-in screen.
  const [{ ZxcvbnFactory }, common] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
  ]);
  const zxcvbn = new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
  const commonPasswords = new Set(common.dictionary["passwords-common"].map((word) => word.toLowerCase()));
  return (password, contextWords) => {
    const { score, feedback } = zxcvbn.check(password, [...serviceContextWords, ...contextWords]);
    const refused = blocklistReason(password, blockedWords(contextWords), commonPasswords);
    return { score: refused ? 0 : score, warning: feedback.warning, suggestions: feedback.suggestions, refused };
  };
}

/** The estimator, loaded once on first use; a failed load is tried again next time. */
export function loadEstimate(): Promise<Estimate> {
  loading ??= loadZxcvbn().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The person's own words a password must not be built on: username and each part of the name. */
export function contextWordsOf(person: { username?: string; fullName?: string }): string[] {
  const names = (person.fullName ?? "").split(/\s+/);
  return [person.username ?? "", ...names].filter((word) => word.length >= 3);
}
