import { INSTITUTION_ERROR_PARAM, INSTITUTION_REQUEST_PARAM } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { InstitutionSearch } from "@/features/institution/components/institution-search.tsx";
import { InstitutionWelcome } from "@/features/institution/components/institution-welcome.tsx";
import { EntryGate } from "../gates/entry-gate.tsx";

// Only the institution codes the server sends here are shown as such; anything else in the address is ignored.
const knownRefusals = new Set([
  "institution.not_allowed",
  "institution.answer_refused",
  "institution.request_expired",
  "institution.identity_reassigned",
  "institution.name_missing",
  "institution.already_linked",
  "auth.too_many_attempts",
]);

/**
 * /{lang}/institution: the discovery screen ("Sign in with your institution"), the refusal an institution's answer
 * met (`error`), or a first sign-in's agreement step (`request`).
 */
export function InstitutionRoute() {
  const { t } = useTranslation(["auth", "errors"]);
  const { search } = useLocation();
  const query = new URLSearchParams(search);
  const request = query.get(INSTITUTION_REQUEST_PARAM);
  const refusal = query.get(INSTITUTION_ERROR_PARAM);
  return (
    <EntryGate>
      <ContentPage
        title={t(request ? "auth:institution.welcome.title" : "auth:institution.title")}
        width="narrow"
        centered
      >
        {refusal && knownRefusals.has(refusal) ? (
          <Alert variant="destructive" title={t("auth:institution.refusedTitle")} testId="institution-refused">
            {t(`errors:${refusal}`)}
          </Alert>
        ) : null}
        {request ? <InstitutionWelcome request={request} /> : <InstitutionSearch search={search} />}
      </ContentPage>
    </EntryGate>
  );
}
