import { userDataKeys } from "@kpi-id/contracts";
import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogContent } from "@/components/ui/dialog.tsx";

/** Known fields first in their fixed order, then anything else the server sent. */
function orderedKeys(data: Record<string, string>): string[] {
  const extra = Object.keys(data).filter((key) => !(userDataKeys as readonly string[]).includes(key));
  return [...userDataKeys, ...extra];
}

interface MyDataDialogProps {
  data: Record<string, string>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The link that opened it: focus goes back there on close (there is no Radix trigger to return to). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/**
 * Every field of the person's data as "name:" and value; an empty one says so in words (the spec's "--"
 * read as a glitch to people, issue 37).
 */
export default function MyDataDialog({ data, open, onOpenChange, returnFocusTo }: MyDataDialogProps) {
  const { t } = useTranslation("apps");
  const displayValue = (key: string): string => {
    const value = data[key]?.trim();
    if (!value) return t("apps:myData.notOnFile");
    return key === "AUTH_METHOD" ? t(`apps:myData.authMethods.${value}`, { defaultValue: value }) : value;
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
        title={t("apps:myData.title")}
        description={t("apps:myData.description")}
        closeLabel={t("common:actions.close")}
      >
        <dl className="divide-y divide-border text-sm" data-testid="my-data">
          {orderedKeys(data).map((key) => (
            <div key={key} className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:gap-3">
              <dt className="text-muted-foreground sm:w-44 sm:shrink-0">
                {t(`apps:myData.fields.${key}`, { defaultValue: key })}:
              </dt>
              <dd className="font-medium break-words text-foreground">{displayValue(key)}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
