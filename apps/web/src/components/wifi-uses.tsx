import type { WifiUse } from "@kpi-id/contracts";
import { useLanguage } from "@/lib/use-language.ts";
import { formatInstant } from "../lib/format.ts";

/** The words a page gives these pieces: the account page and the console each say them in their own namespace. */
export interface WifiUsesWords {
  /** "Recent uses (3)", the disclosure's summary. */
  show: string;
  /** The list's accessible name. */
  label: string;
  /** An access point that sent neither NAS-Identifier nor Called-Station-Id. */
  unnamed: string;
}

/** The access point as the network names it: the controller's NAS-Identifier, else the station id. */
export const wifiUseWhere = (use: WifiUse, unnamed: string) => use.nasIdentifier || use.accessPoint || unnamed;

/**
 * An access point's id ("AA-BB-CC-00-0A-01:eduroam") kept whole: its hyphens are break opportunities, so on a phone
 * it used to wrap mid-id and read as two names. On its own line when the line is full, cut with an ellipsis (the
 * whole id in the title) only when longer than the line itself.
 */
export function AccessPoint({ use, unnamed }: { use: WifiUse; unnamed: string }) {
  const where = wifiUseWhere(use, unnamed);
  return (
    <span className="inline-block max-w-full truncate align-bottom" title={where} data-testid="wifi-access-point">
      {where}
    </span>
  );
}

/**
 * A password's recent uses (when, which access point), folded under the last one so a row stays one line on a
 * phone; a native disclosure, so keyboards and screen readers open it without help.
 */
export function WifiRecentUses({ uses, words }: { uses: WifiUse[]; words: WifiUsesWords }) {
  const language = useLanguage();
  return (
    <details className="group text-muted-foreground" data-testid="wifi-uses">
      <summary className="cursor-pointer rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        {words.show}
      </summary>
      <ol className="mt-1 space-y-0.5 border-l border-border pl-3" aria-label={words.label}>
        {uses.map((use) => (
          <li key={`${use.usedAt}-${use.accessPoint}`}>
            <time dateTime={use.usedAt}>{formatInstant(use.usedAt, language)}</time>
            {" · "}
            <AccessPoint use={use} unnamed={words.unnamed} />
          </li>
        ))}
      </ol>
    </details>
  );
}
