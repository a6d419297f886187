import { Landmark } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { InstitutionSearch } from "@/features/institution/index.ts";
import { useSettings } from "@/lib/settings.ts";
import { AccountSection } from "./account-section.tsx";

/** Where a link that came back lands (protocols/saml/visitors/service.ts): /{lang}/account?linked=institution. */
const linkedParam = "linked";

/**
 * A person who already has a KPI ID account links their home institution's identity (issue 78): they choose it,
 * sign in there, and come back here; later they may sign in to KPI ID through it. Only where visitors are allowed.
 */
export function InstitutionLinkSection() {
  const { t } = useTranslation("account");
  const [params] = useSearchParams();
  const [choosing, setChoosing] = useState(false);
  const institutionsEnabled = useSettings().data?.institutionsEnabled ?? false;
  if (!institutionsEnabled) return null;
  return (
    <AccountSection
      id="institution"
      icon={Landmark}
      title={t("account:institution.title")}
      description={t("account:institution.description")}
    >
      {params.get(linkedParam) === "institution" ? (
        <Alert title={t("account:institution.linkedNow")} testId="institution-link-outcome" />
      ) : null}
      {choosing ? (
        <InstitutionSearch search="" purpose="link" />
      ) : (
        <div>
          <Button variant="outline" onClick={() => setChoosing(true)} data-testid="institution-link-start">
            {t("account:institution.link")}
          </Button>
        </div>
      )}
    </AccountSection>
  );
}
