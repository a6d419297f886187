import { GOOGLE_LINK_PARAM, isGoogleErrorReason } from "@kpi-id/contracts";
import { KeyRound, Landmark, Link2, QrCode, ShieldCheck } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { contextWordsOf } from "@/features/password/index.ts";
import { useSettings } from "@/lib/settings.ts";
import { linkGoogle, unlinkGoogle, useAccountChange } from "../api/account-changes.ts";
import { useAccountMethods } from "../api/account-queries.ts";
import { AccountList, AccountSection, Badge } from "./account-section.tsx";
import { PasswordForm } from "./password-form.tsx";
import type { AskAgain } from "./use-reauth.tsx";
import { useReauthWindow } from "./use-reauth-window.ts";

function MethodRow({
  icon,
  name,
  state,
  children,
  below,
  testId,
}: {
  icon: ReactNode;
  name: string;
  state: ReactNode;
  children?: ReactNode;
  /** Shown under the row (the password form). */
  below?: ReactNode;
  testId: string;
}) {
  return (
    <li data-testid={testId}>
      <div className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-start gap-3 text-sm">
          <span className="mt-0.5 text-primary [&_svg]:size-5">{icon}</span>
          <div className="space-y-1">
            <p className="font-medium text-foreground">{name}</p>
            <p className="text-muted-foreground">{state}</p>
          </div>
        </div>
        {children ? <div className="flex shrink-0 gap-2 self-start sm:self-center">{children}</div> : null}
      </div>
      {below}
    </li>
  );
}

/** What the Google link that just came back says: linked, or why not. */
function GoogleLinkOutcome() {
  const { t } = useTranslation(["account", "auth"]);
  const [params] = useSearchParams();
  const outcome = params.get(GOOGLE_LINK_PARAM);
  if (outcome === "linked") return <Alert title={t("account:methods.google.linkedNow")} testId="google-link-outcome" />;
  if (!isGoogleErrorReason(outcome)) return null;
  return (
    <Alert variant="destructive" title={t("account:methods.google.linkFailed")} testId="google-link-outcome">
      {t(`auth:login.googleError.reasons.${outcome}`)}
    </Alert>
  );
}

/**
 * Password (whether one is set; change it, or set a first one), Google (link, unlink), Diia (usable when
 * the tax id is known), BankID where the deployment has it (by the tax id, or else by a document on record).
 */
export function MethodsSection({ askAgain, fullName }: { askAgain: AskAgain; fullName: string }) {
  const { t } = useTranslation(["account", "password"]);
  const reauthWindow = useReauthWindow();
  const methods = useAccountMethods();
  const [editingPassword, setEditingPassword] = useState(false);
  const link = useAccountChange(linkGoogle, askAgain);
  const unlink = useAccountChange(unlinkGoogle, askAgain);
  const known = methods.data;
  const bankIdEnabled = useSettings().data?.bankIdEnabled ?? false;
  return (
    <AccountSection
      id="methods"
      icon={ShieldCheck}
      title={t("account:methods.title")}
      description={t("account:methods.description", { window: reauthWindow })}
    >
      <GoogleLinkOutcome />
      {known ? (
        <AccountList label={t("account:methods.title")}>
          <MethodRow
            testId="method-password"
            icon={<KeyRound aria-hidden />}
            name={t("account:methods.password.name")}
            state={
              known.password ? (
                <>
                  {t("account:methods.password.set")}{" "}
                  {/* Guests and people whose username was made for them learn here what to sign in with. */}
                  {t("account:methods.password.username")}{" "}
                  <span className="break-all font-mono text-foreground" data-testid="sign-in-username">
                    {known.username}
                  </span>
                </>
              ) : (
                t("account:methods.password.notSet")
              )
            }
            below={
              editingPassword ? (
                <PasswordForm
                  hasPassword={known.password}
                  username={known.username}
                  contextWords={contextWordsOf({ username: known.username, fullName })}
                  askAgain={askAgain}
                  onClose={() => setEditingPassword(false)}
                />
              ) : null
            }
          >
            {editingPassword ? null : (
              <Button variant="outline" size="sm" onClick={() => setEditingPassword(true)}>
                {known.password ? t("password:change.open") : t("password:change.openSet")}
              </Button>
            )}
          </MethodRow>
          <MethodRow
            testId="method-google"
            icon={<Link2 aria-hidden />}
            name={t("account:methods.google.name")}
            state={
              known.google.linked ? (
                <Badge tone="good">{t("account:methods.google.linked")}</Badge>
              ) : (
                t("account:methods.google.notLinked")
              )
            }
          >
            {known.google.linked ? (
              <Button variant="outline" size="sm" onClick={() => unlink.mutate(undefined)} loading={unlink.isPending}>
                {t("account:methods.google.unlink")}
              </Button>
            ) : known.google.available ? (
              <Button variant="outline" size="sm" onClick={() => link.mutate(undefined)} loading={link.isPending}>
                {t("account:methods.google.link")}
              </Button>
            ) : null}
          </MethodRow>
          <MethodRow
            testId="method-diia"
            icon={<QrCode aria-hidden />}
            name={t("account:methods.diia.name")}
            state={known.diia.usable ? t("account:methods.diia.usable") : t("account:methods.diia.notUsable")}
          />
          {bankIdEnabled ? (
            <MethodRow
              testId="method-bankid"
              icon={<Landmark aria-hidden />}
              name={t("account:methods.bankid.name")}
              // The tax id is what the bank reports first; without one, a passport or ID card on record may still match.
              state={known.diia.usable ? t("account:methods.bankid.usable") : t("account:methods.bankid.byDocument")}
            />
          ) : null}
        </AccountList>
      ) : (
        <Skeleton className="h-24 w-full" />
      )}
    </AccountSection>
  );
}
