import { userDataKeys } from "@kpi-id/contracts";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog.tsx";

const EMPTY_VALUE = "--";

/** Known fields first in their fixed order, then anything else the server sent. */
function orderedKeys(data: Record<string, string>): string[] {
  const extra = Object.keys(data).filter((key) => !(userDataKeys as readonly string[]).includes(key));
  return [...userDataKeys, ...extra];
}

interface MyDataDialogProps {
  data: Record<string, string>;
  trigger: ReactNode;
}

/**
 * Open is a history entry of its own (location state), so the browser's Back closes the dialog
 * instead of leaving the page; closing it any other way steps back over that entry.
 */
function useDialogHistoryEntry(): [boolean, (open: boolean) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const open = (location.state as { myData?: boolean } | null)?.myData === true;
  const setOpen = (next: boolean) => {
    if (next && !open) navigate({ pathname: location.pathname, search: location.search }, { state: { myData: true } });
    if (!next && open) navigate(-1);
  };
  return [open, setOpen];
}

/** Every field of the person's data as "name:" and value, "--" when empty. */
export function MyDataDialog({ data, trigger }: MyDataDialogProps) {
  const { t } = useTranslation("apps");
  const [open, setOpen] = useDialogHistoryEntry();
  const displayValue = (key: string): string => {
    const value = data[key]?.trim();
    if (!value) return EMPTY_VALUE;
    return key === "AUTH_METHOD" ? t(`apps:myData.authMethods.${value}`, { defaultValue: value }) : value;
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
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
