import type { DeveloperApplication } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Dialog, DialogContent } from "@/components/ui/dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { deleteApplication, signEveryoneOut, useDeveloperChange } from "../api/developers.ts";
import { DeveloperSection } from "./section.tsx";

/** "Sign everyone out" and deleting the application (issue 60), each asked first. */
export function DangerSection({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation("developers");
  const signOut = useDeveloperChange(
    () => signEveryoneOut(application.id),
    () => notify("success", t("danger.signedOut")),
  );
  return (
    <DeveloperSection id="danger" title={t("danger.title")}>
      <div className="flex flex-col gap-2">
        <p className="text-sm text-foreground">{t("danger.signOutDescription")}</p>
        <div>
          <ConfirmButton
            question={t("danger.signOutQuestion")}
            consequence={t("danger.signOutConsequence")}
            confirmLabel={t("danger.signOut")}
            onConfirm={() => signOut.mutate(undefined)}
            loading={signOut.isPending}
            data-testid="sign-everyone-out"
          >
            {t("danger.signOut")}
          </ConfirmButton>
        </div>
      </div>
      <DeleteApplication application={application} />
    </DeveloperSection>
  );
}

function DeleteApplication({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation(["developers", "common"]);
  const language = useLanguage();
  const navigate = useNavigate();
  const id = useId();
  const describeError = useErrorMessage();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const name = language === "en" ? application.titleEn || application.title : application.title;
  const remove = useDeveloperChange(
    () => deleteApplication(application.id, typed),
    () => {
      notify("success", t("danger.deleted", { name }));
      navigate(localizePath(language, "/developers"));
    },
    { toast: false },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(undefined);
  };
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-foreground">{t("danger.deleteDescription")}</p>
      <Dialog open={open} onOpenChange={setOpen}>
        <div>
          <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="delete-application">
            {t("danger.delete")}
          </Button>
        </div>
        <DialogContent
          title={t("danger.deleteQuestion", { name })}
          description={t("danger.deleteConsequence")}
          closeLabel={t("common:actions.close")}
        >
          <form className="flex flex-col gap-3" onSubmit={submit}>
            <Label htmlFor={`${id}-confirm`}>{t("danger.typeName", { name })}</Label>
            <Input
              id={`${id}-confirm`}
              value={typed}
              autoComplete="off"
              onChange={(event) => setTyped(event.target.value)}
              aria-invalid={remove.isError ? true : undefined}
              aria-describedby={remove.isError ? `${id}-error` : undefined}
              data-testid="delete-confirm-name"
            />
            {remove.isError ? (
              <p id={`${id}-error`} className="text-sm font-medium text-destructive-strong" role="alert">
                {describeError(remove.error, "developers:errors.generic").message}
              </p>
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                {t("common:actions.cancel")}
              </Button>
              <Button
                type="submit"
                loading={remove.isPending}
                disabled={typed.trim() === ""}
                data-testid="delete-confirm"
              >
                {t("danger.deleteConfirm")}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
