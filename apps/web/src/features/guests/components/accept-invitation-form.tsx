import { useMutation, useQuery } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { LiveStatus } from "@/components/ui/live-status.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { contextWordsOf, NewPasswordField } from "@/features/password/index.ts";
import { ApiError } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useSettings } from "@/lib/settings.ts";
import { acceptInvitation, acceptInvitationWithBankId, readInvitation } from "../api/invitation.ts";

const linkInvalid = (error: unknown) => error instanceof ApiError && error.code === "guest.invitation_invalid";

/**
 * The invitation link's page: who invites, until when; the guest gives the address the mail came to and a
 * password, and goes on to set up their second factor (the account page's own set-up).
 */
export function AcceptInvitationForm({ token }: { token: string }) {
  const { t, i18n } = useTranslation("account");
  const describeError = useErrorMessage();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const invitation = useQuery({
    queryKey: ["guest-invitation", token],
    queryFn: () => readInvitation(token),
    enabled: token !== "",
    retry: false,
    staleTime: Infinity,
  });
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token, email.trim(), password),
    onSuccess: ({ next }) => browser.assign(next),
  });
  // A Ukrainian guest may let the state vouch for them instead (issue 78): no password, the state's name.
  const bankIdEnabled = useSettings().data?.bankIdEnabled ?? false;
  const withBankId = useMutation({
    mutationFn: () => acceptInvitationWithBankId(token, email.trim()),
    onSuccess: ({ url }) => browser.assign(url),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  if (token === "" || linkInvalid(invitation.error)) {
    return (
      <Alert variant="destructive" title={t("account:guestInvitation.invalid")} testId="guest-link-invalid">
        {t("account:guestInvitation.invalidDescription")}
      </Alert>
    );
  }
  if (invitation.isError) {
    return (
      <Alert variant="destructive" title={describeError(invitation.error, "errors:service.internal_error").message} />
    );
  }
  if (!invitation.data) {
    return (
      <LiveStatus words={t("account:guestInvitation.checking")}>
        <Skeleton className="h-40 w-full" />
      </LiveStatus>
    );
  }
  const { fullName, sponsor, endsAt } = invitation.data;
  const until = new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "Europe/Kyiv" }).format(
    new Date(new Date(endsAt).getTime() - 1000),
  );
  return (
    <form
      className="flex flex-col gap-4 rounded-xl border border-border bg-white p-5 shadow-sm"
      onSubmit={submit}
      noValidate
    >
      <p className="text-sm" data-testid="guest-invitation-for">
        {t("account:guestInvitation.welcome", { name: fullName, sponsor, until })}
      </p>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="guest-email">{t("account:guestInvitation.email")}</Label>
        <Input
          id="guest-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
        <p className="text-xs text-muted-foreground">{t("account:guestInvitation.emailHint")}</p>
      </div>
      <NewPasswordField
        value={password}
        onChange={setPassword}
        contextWords={contextWordsOf({ username: email, fullName })}
      />
      {accept.isError ? (
        <Alert variant="destructive" title={t("account:guestInvitation.refused")} testId="guest-accept-refused">
          {describeError(accept.error, "errors:service.internal_error").message}
        </Alert>
      ) : null}
      <Button
        type="submit"
        loading={accept.isPending}
        disabled={email.trim() === "" || password === ""}
        icon={<UserPlus aria-hidden />}
      >
        {t("account:guestInvitation.submit")}
      </Button>
      {bankIdEnabled ? (
        <div className="flex flex-col gap-2 border-t border-border pt-4">
          <p className="text-sm text-muted-foreground">{t("account:guestInvitation.stateAccept")}</p>
          {withBankId.isError ? (
            <Alert variant="destructive" title={t("account:guestInvitation.refused")}>
              {describeError(withBankId.error, "errors:service.internal_error").message}
            </Alert>
          ) : null}
          <Button
            type="button"
            variant="outline"
            loading={withBankId.isPending}
            disabled={email.trim() === ""}
            onClick={() => withBankId.mutate()}
            data-testid="guest-accept-bankid"
          >
            {t("account:guestInvitation.acceptWithBankId")}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
