import type { CurrentUser } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DevelopersLink } from "@/features/developers/index.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { ActivitySection } from "./activity-section.tsx";
import { ApplicationsSection } from "./applications-section.tsx";
import { DataDownloadSection } from "./data-download-section.tsx";
import { GuestsSection } from "./guests-section.tsx";
import { InstitutionLinkSection } from "./institution-link-section.tsx";
import { LdapSection } from "./ldap-section.tsx";
import { MethodsSection } from "./methods-section.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { SecondFactorSection } from "./second-factor-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { useReauth } from "./use-reauth.tsx";
import { WifiSection } from "./wifi-section.tsx";

/** The account page: profile, sessions, connected applications, sign-in methods, recent activity. */
export function AccountScreen({ user }: { user: CurrentUser }) {
  const { t } = useTranslation("account");
  const { askAgain, dialog } = useReauth();
  const language = useLanguage();
  return (
    <div className="flex w-full max-w-3xl flex-col gap-4 sm:gap-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">{t("account:title")}</h1>
        <p className="text-muted-foreground">{t("account:subtitle", { name: user.fullName })}</p>
        {user.console ? (
          <p className="text-sm">
            <Link
              to={localizePath(language, "/admin")}
              className="font-medium text-primary underline-offset-4 hover:underline"
              data-testid="console-link"
            >
              {t("account:console")}
            </Link>
          </p>
        ) : null}
        <DevelopersLink />
      </div>
      <ProfileSection data={user.data} />
      <SessionsSection askAgain={askAgain} />
      <ApplicationsSection askAgain={askAgain} />
      <MethodsSection askAgain={askAgain} fullName={user.fullName} />
      <InstitutionLinkSection />
      <PasskeysSection askAgain={askAgain} />
      <SecondFactorSection askAgain={askAgain} />
      <WifiSection askAgain={askAgain} />
      <LdapSection askAgain={askAgain} />
      <GuestsSection askAgain={askAgain} />
      <ActivitySection />
      <DataDownloadSection askAgain={askAgain} />
      {dialog}
    </div>
  );
}
