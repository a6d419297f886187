import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, type ButtonProps } from "./button.tsx";
import { Dialog, DialogContent } from "./dialog.tsx";

interface ConfirmButtonProps extends Omit<ButtonProps, "onClick"> {
  /** What will happen, in words, shown before anything is done. */
  question: string;
  consequence: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
}

/** A destructive action (the console's, the account page's): the button asks first, naming what will happen. */
export function ConfirmButton({ question, consequence, confirmLabel, onConfirm, ...button }: ConfirmButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" {...button} onClick={() => setOpen(true)} />
      <DialogContent title={question} description={consequence} closeLabel={t("common:actions.close")}>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={() => setOpen(false)}>
            {t("common:actions.cancel")}
          </Button>
          <Button
            data-testid="confirm-action"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
