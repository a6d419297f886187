import type { Institution } from "@kpi-id/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { lastInstitution, rememberInstitution, startAtInstitution, useInstitutions } from "../api/institutions.ts";

const choiceClasses =
  "flex w-full flex-col items-start gap-0.5 rounded-md border border-border bg-white px-4 py-3 text-left text-sm " +
  "shadow-sm transition-colors hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring " +
  "focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-60";

/**
 * The discovery screen: the institutions visitors may come from, searched by name in either language or by
 * domain; the one chosen last on this device first. Choosing one sends the browser to sign in there: to sign in to
 * KPI ID, or (`purpose` "link", from the account page) to link that home identity to the signed-in person.
 */
export function InstitutionSearch({ search, purpose = "sign-in" }: { search: string; purpose?: "sign-in" | "link" }) {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const errorMessage = useErrorMessage();
  const [words, setWords] = useState("");
  const [leaving, setLeaving] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const found = useInstitutions(words.trim());
  const last = lastInstitution();
  const nameOf = (institution: Institution) => (language === "uk" ? institution.uk : institution.en);

  async function choose(institution: Institution) {
    setLeaving(institution.entityId);
    setFailure(undefined);
    try {
      const { redirect } = await startAtInstitution(institution.entityId, search, purpose);
      rememberInstitution(institution);
      window.location.assign(redirect);
    } catch (error) {
      setLeaving(undefined);
      setFailure(errorMessage(error, "auth:institution.startFailed").message);
    }
  }

  const choice = (institution: Institution) => (
    <li key={institution.entityId}>
      {/* A card-like button of its own: the Button's fixed height and centred row would fight a two-line choice. */}
      <button
        type="button"
        className={choiceClasses}
        disabled={leaving !== undefined}
        onClick={() => void choose(institution)}
        data-testid="institution-choice"
      >
        <span className="font-medium">{nameOf(institution)}</span>
        {institution.domains.length > 0 ? (
          <span className="text-sm text-muted-foreground">{institution.domains.join(", ")}</span>
        ) : null}
      </button>
    </li>
  );

  const results = (found.data?.institutions ?? []).filter((each) => each.entityId !== last?.entityId);
  return (
    <div className="flex flex-col gap-4">
      {failure ? (
        <Alert variant="destructive" title={t("auth:institution.refusedTitle")} testId="institution-start-error">
          {failure}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-2">
        <Label htmlFor="institution-search">{t("auth:institution.searchLabel")}</Label>
        <Input
          id="institution-search"
          type="search"
          value={words}
          autoComplete="off"
          placeholder={t("auth:institution.searchPlaceholder")}
          onChange={(event) => setWords(event.target.value)}
        />
      </div>
      {last && words.trim() === "" ? (
        <section aria-labelledby="institution-last" className="flex flex-col gap-2">
          <h2 id="institution-last" className="text-sm font-medium text-muted-foreground">
            {t("auth:institution.lastUsed")}
          </h2>
          <ul className="flex flex-col gap-2">{choice(last)}</ul>
        </section>
      ) : null}
      <ul className="flex flex-col gap-2" aria-label={t("auth:institution.resultsLabel")} aria-busy={found.isFetching}>
        {results.map(choice)}
      </ul>
      {found.isSuccess && results.length === 0 && !(last && words.trim() === "") ? (
        <p className="text-sm text-muted-foreground" data-testid="institution-none">
          {t("auth:institution.none")}
        </p>
      ) : null}
    </div>
  );
}
