import type { AccountSession } from "@kpi-id/contracts";
import { LogOut, MonitorSmartphone } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { deviceName, formatInstant } from "@/lib/format.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { endOtherSessions, endSession, useAccountChange } from "../api/account-changes.ts";
import { useAccountSessions } from "../api/account-queries.ts";
import { AccountList, AccountSection, Badge } from "./account-section.tsx";
import type { AskAgain } from "./use-reauth.tsx";

function SessionRow({ session, onEnd, ending }: { session: AccountSession; onEnd: () => void; ending: boolean }) {
  const { t } = useTranslation(["account", "apps"]);
  const language = useLanguage();
  const name = deviceName(session.browser, session.system, t("account:sessions.unknownDevice"));
  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="session">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium text-foreground">
          {name}
          {session.current ? <Badge tone="good">{t("account:sessions.thisDevice")}</Badge> : null}
        </p>
        <p className="text-muted-foreground">
          {t("account:sessions.details", {
            method: t(`apps:myData.authMethods.${session.method}`),
            started: formatInstant(session.startedAt, language),
            lastActive: formatInstant(session.lastActiveAt, language),
          })}
        </p>
        {session.address ? (
          <p className="text-muted-foreground">{t("account:sessions.address", { address: session.address })}</p>
        ) : null}
      </div>
      {session.current ? null : (
        <Button variant="outline" size="sm" className="self-start sm:self-center" onClick={onEnd} loading={ending}>
          {t("account:sessions.end")}
          <span className="sr-only">: {name}</span>
        </Button>
      )}
    </li>
  );
}

/** Where the person is signed in: end one session, or all but this one (which needs a recent sign-in). */
export function SessionsSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const sessions = useAccountSessions();
  const endOne = useAccountChange(endSession, askAgain);
  const endOthers = useAccountChange(endOtherSessions, askAgain);
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;
  return (
    <AccountSection
      id="sessions"
      icon={MonitorSmartphone}
      title={t("account:sessions.title")}
      description={t("account:sessions.description")}
      actions={
        others > 0 ? (
          <Button
            variant="outline"
            onClick={() => endOthers.mutate(undefined)}
            loading={endOthers.isPending}
            icon={<LogOut aria-hidden />}
          >
            {t("account:sessions.endOthers")}
          </Button>
        ) : null
      }
    >
      {sessions.data ? (
        <AccountList label={t("account:sessions.title")}>
          {sessions.data.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              onEnd={() => endOne.mutate(session.id)}
              ending={endOne.isPending && endOne.variables === session.id}
            />
          ))}
        </AccountList>
      ) : (
        <Skeleton className="h-20 w-full" />
      )}
    </AccountSection>
  );
}
