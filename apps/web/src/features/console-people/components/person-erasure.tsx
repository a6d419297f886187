import {
  type ErasedCounts,
  erasedKinds,
  type PersonDetail,
  type PersonErasureResult,
  personErasureResultSchema,
} from "@kpi-id/contracts";
import { hashKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent } from "@/components/ui/dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { consoleKey, Section, useCan, useConsoleOperator } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { personWifiKey } from "../api/wifi-api.ts";

function useErasure(person: PersonDetail) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) =>
      apiJson(
        `/api/admin/people/${person.id}/erase`,
        { method: "POST", body: { username }, failure: "The erasure failed" },
        personErasureResultSchema,
      ),
    // Every answer is read again but, once the person is erased, their Wi-Fi: its section is still on screen until
    // the person's answer says they are erased, and asked beside it the Wi-Fi was refused (409) every time.
    onSettled: (erased) =>
      queryClient.invalidateQueries({
        queryKey: consoleKey,
        predicate: (query) => !erased || query.queryHash !== hashKey(personWifiKey(person.id)),
      }),
  });
}

/** What went, kind by kind, in words: the same counts the audit row keeps. */
export function ErasedList({ erased }: { erased: ErasedCounts }) {
  const { t } = useTranslation("admin");
  const kinds = erasedKinds.filter((kind) => erased[kind] > 0);
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="erased-counts">
      {kinds.map((kind) => (
        <li key={kind} className="flex justify-between gap-4">
          <span>{t(`admin:erase.kinds.${kind}`)}</span>
          <span className="tabular-nums font-medium">{erased[kind]}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * An admin's erasure of the person on request (docs/privacy.md): a dialog that says what goes and what stays,
 * asks for the username typed again, and then shows what was erased. Never offered for the operator themselves.
 */
export function ErasureSection({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const allowed = useCan("people.erase");
  const operator = useConsoleOperator();
  const describeError = useErrorMessage();
  const erasure = useErasure(person);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [result, setResult] = useState<PersonErasureResult | undefined>();
  const inputId = useId();
  // The result stays on screen after the person's row (now erased) is read again, until the dialog closes.
  if (!result && (!allowed || operator.username === person.username || person.erasedAt)) return null;
  const matches = typed.trim().toLowerCase() === person.username.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) erasure.mutate(typed, { onSuccess: setResult });
  };
  return (
    <Section title={t("admin:erase.title")} testId="person-erasure">
      <p className="text-sm text-muted-foreground">{t("admin:erase.intro")}</p>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            setTyped("");
            setResult(undefined);
          }
        }}
      >
        <Button
          variant="danger"
          size="sm"
          className="self-start"
          onClick={() => setOpen(true)}
          data-testid="erase-open"
        >
          {t("admin:erase.button")}
        </Button>
        <DialogContent
          title={result ? t("admin:erase.doneTitle") : t("admin:erase.question", { name: person.fullName })}
          description={result ? undefined : t("admin:erase.consequence")}
          closeLabel={t("common:actions.close")}
        >
          {result ? (
            <div className="flex flex-col gap-3" data-testid="erasure-done">
              <p className="text-sm">{t("admin:erase.done")}</p>
              <ErasedList erased={result.erased} />
            </div>
          ) : (
            <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
              <Label htmlFor={inputId}>{t("admin:erase.typeUsername", { username: person.username })}</Label>
              <Input
                id={inputId}
                value={typed}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setTyped(event.target.value)}
                data-testid="erase-confirm-username"
              />
              {erasure.error ? (
                <Alert
                  variant="destructive"
                  testId="erase-error"
                  title={describeError(erasure.error, "admin:failed").message}
                />
              ) : null}
              <div className="flex flex-wrap justify-end gap-2">
                <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                  {t("common:actions.cancel")}
                </Button>
                <Button
                  type="submit"
                  variant="danger"
                  disabled={!matches}
                  loading={erasure.isPending}
                  data-testid="erase-submit"
                >
                  {t("admin:erase.confirm")}
                </Button>
              </div>
            </form>
          )}
        </DialogContent>
      </Dialog>
    </Section>
  );
}
