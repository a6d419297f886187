import { applicationScopes } from "@kpi-id/contracts";
import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";

// What an application asks to read, shown the same on the consent screen, the device page and the developers'
// preview of their consent screen. The scopes an application may ask for are the contracts' list (a new scope needs
// its consent text); anything else is shown by its name.
const knownScopes: ReadonlySet<string> = new Set(applicationScopes);

/** What an application's scopes let it read, in words (the consent screen's and the device page's). */
export function useScopeWords(): (scopes: string[]) => string[] {
  const { t } = useTranslation("consent");
  return (scopes) =>
    (scopes.length ? scopes : ["openid"]).map((scope) => (knownScopes.has(scope) ? t(`scopes.${scope}`) : scope));
}

export function RequestedData({ items }: { items: string[] }) {
  return (
    <ul className="space-y-2" data-testid="consent-scopes">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2 text-foreground">
          <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
