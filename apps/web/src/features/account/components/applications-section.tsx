import { Blocks } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { revokeApplication, useAccountChange } from "../api/account-changes.ts";
import { useConnectedApplications } from "../api/account-queries.ts";
import { AccountList, AccountSection } from "./account-section.tsx";
import type { AskAgain } from "./use-reauth.tsx";

/**
 * The applications that read the person's data through OpenID Connect or were allowed a ticket, what each may
 * read, and revoking one.
 */
export function ApplicationsSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation(["account", "consent"]);
  const applications = useConnectedApplications();
  const revoke = useAccountChange(revokeApplication, askAgain);
  return (
    <AccountSection
      id="applications"
      icon={Blocks}
      title={t("account:applications.title")}
      description={t("account:applications.description")}
    >
      {!applications.data ? <Skeleton className="h-16 w-full" /> : null}
      {applications.data?.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("account:applications.none")}</p>
      ) : null}
      {applications.data?.length ? (
        <AccountList label={t("account:applications.title")}>
          {applications.data.map((application) => (
            <li
              key={application.id}
              className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between"
              data-testid="connected-application"
            >
              <div className="min-w-0 space-y-1 text-sm">
                <p className="font-medium text-foreground">{application.title}</p>
                {application.scopes.length ? (
                  <>
                    <p className="text-muted-foreground">{t("account:applications.mayRead")}</p>
                    <ul className="list-disc pl-5 text-muted-foreground">
                      {application.scopes.map((scope) => (
                        <li key={scope}>{t(`consent:scopes.${scope}`, { defaultValue: scope })}</li>
                      ))}
                    </ul>
                  </>
                ) : null}
                {application.ticketData?.length ? (
                  <>
                    <p className="text-muted-foreground">{t("account:applications.ticketData")}</p>
                    <ul className="list-disc pl-5 text-muted-foreground" data-testid="connected-ticket-data">
                      {application.ticketData.map((datum) => (
                        <li key={datum}>{t(`consent:ticketData.${datum}`, { defaultValue: datum })}</li>
                      ))}
                    </ul>
                  </>
                ) : null}
              </div>
              <Button
                variant="outline"
                size="sm"
                className="self-start"
                onClick={() => revoke.mutate(application.id)}
                loading={revoke.isPending && revoke.variables === application.id}
              >
                {t("account:applications.revoke")}
                <span className="sr-only">: {application.title}</span>
              </Button>
            </li>
          ))}
        </AccountList>
      ) : null}
    </AccountSection>
  );
}
