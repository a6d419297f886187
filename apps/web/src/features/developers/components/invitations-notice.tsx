import type { DeveloperMemberships } from "@kpi-id/contracts";
import { MailPlus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { useLanguage } from "@/lib/use-language.ts";
import { answerInvitation, leaveApplication, useDeveloperChange, useMyMemberships } from "../api/developers.ts";
import { formatDay } from "./format-day.ts";
import { LifecycleBadge } from "./lifecycle-badge.tsx";

const titleIn = (language: string, item: { title: string; titleEn: string }) =>
  language === "en" ? item.titleEn || item.title : item.title;

/**
 * On the developers' page: invitations to be a co-owner or tester, each accepted or declined here (nobody is
 * one before accepting), and the applications the person tests, each to leave. Nothing when there is neither.
 */
export function InvitationsNotice() {
  const memberships = useMyMemberships();
  const data = memberships.data;
  if (!data || (data.invitations.length === 0 && data.testing.length === 0)) return null;
  return (
    <>
      {data.invitations.length > 0 ? <Invitations invitations={data.invitations} /> : null}
      {data.testing.length > 0 ? <Testing testing={data.testing} /> : null}
    </>
  );
}

function Invitations({ invitations }: { invitations: DeveloperMemberships["invitations"] }) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const answer = useDeveloperChange(({ id, reply }: { id: string; reply: "accept" | "decline" }) =>
    answerInvitation(id, reply),
  );
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="invitations-heading" className="flex flex-col gap-4" data-testid="invitations-notice">
        <h2 id="invitations-heading" className="flex items-center gap-2 text-lg font-semibold text-foreground">
          <MailPlus className="size-5 text-primary" aria-hidden />
          {t("invitations.title", { count: invitations.length })}
        </h2>
        <p className="text-sm text-muted-foreground">{t("invitations.description")}</p>
        <ul className="divide-y divide-border rounded-lg border border-border">
          {invitations.map((each) => (
            <li
              key={each.id}
              className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="invitation"
            >
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium text-foreground">
                  {t(`invitations.${each.role}`, { title: titleIn(language, each) })}
                </p>
                <p className="text-sm break-all text-muted-foreground">
                  {each.invitedBy
                    ? t("invitations.from", { person: each.invitedBy, date: formatDay(each.expiresAt, language) })
                    : t("invitations.until", { date: formatDay(each.expiresAt, language) })}
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  size="sm"
                  onClick={() => answer.mutate({ id: each.id, reply: "accept" })}
                  disabled={answer.isPending}
                  data-testid="invitation-accept"
                >
                  {t("invitations.accept")}
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => answer.mutate({ id: each.id, reply: "decline" })}
                  disabled={answer.isPending}
                  data-testid="invitation-decline"
                >
                  {t("invitations.decline")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}

function Testing({ testing }: { testing: DeveloperMemberships["testing"] }) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const leave = useDeveloperChange((id: string) => leaveApplication(id, "tester"));
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="testing-heading" className="flex flex-col gap-4" data-testid="testing-list">
        <h2 id="testing-heading" className="text-lg font-semibold text-foreground">
          {t("testing.title")}
        </h2>
        <ul className="divide-y divide-border rounded-lg border border-border">
          {testing.map((application) => (
            <li key={application.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <span className="flex flex-wrap items-center gap-2 font-medium text-foreground">
                {titleIn(language, application)}
                <LifecycleBadge application={application} />
              </span>
              <Button
                size="sm"
                variant="outline"
                onClick={() => leave.mutate(application.id)}
                disabled={leave.isPending}
                data-testid="testing-leave"
              >
                {t("testing.leave")}
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}
