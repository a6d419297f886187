import type { Institution } from "@kpi-id/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { lastInstitution, rememberInstitution, startAtInstitution, useInstitutions } from "../api/institutions.ts";

/**
 * The discovery screen: the institutions visitors may come from, searched by name in either language or by
 * domain; the one chosen last on this device first. Choosing one sends the browser to sign in there.
 */
export function InstitutionSearch({ search }: { search: string }) {
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
      const { redirect } = await startAtInstitution(institution.entityId, search);
      rememberInstitution(institution);
      window.location.assign(redirect);
    } catch (error) {
      setLeaving(undefined);
      setFailure(errorMessage(error, "auth:institution.startFailed").message);
    }
  }

  const choice = (institution: Institution) => (
    <li key={institution.entityId}>
      <Button
        variant="outline"
        className="h-auto w-full flex-col items-start gap-0.5 py-3 text-left"
        disabled={leaving !== undefined}
        onClick={() => void choose(institution)}
        data-testid="institution-choice"
      >
        <span className="font-medium">{nameOf(institution)}</span>
        {institution.domains.length > 0 ? (
          <span className="text-sm text-muted-foreground">{institution.domains.join(", ")}</span>
        ) : null}
      </Button>
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
