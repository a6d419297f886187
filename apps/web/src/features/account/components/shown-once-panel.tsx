import type { ReactNode } from "react";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";

interface ShownOncePanelProps {
  testId: string;
  /** "It is shown only now": the first thing read, since the secret cannot be shown again. */
  note: string;
  /** The secret itself, what the copy button copies. */
  secret: string;
  copyLabel: string;
  copiedMessage: string;
  doneLabel: string;
  onDone: () => void;
  /** Beside the text on a wide screen, above it on a phone (Wi-Fi's QR code). */
  aside?: ReactNode;
  /** What to enter where: the fields and a line of help. */
  children: ReactNode;
}

/** A generated password the server answers once (Wi-Fi, LDAP): the person copies it before closing the panel. */
export function ShownOncePanel({
  testId,
  note,
  secret,
  copyLabel,
  copiedMessage,
  doneLabel,
  onDone,
  aside,
  children,
}: ShownOncePanelProps) {
  return (
    <div
      className="flex flex-col gap-4 rounded-lg border border-primary/40 p-3 sm:flex-row sm:items-start"
      data-testid={testId}
    >
      {aside}
      <div className="flex min-w-0 flex-1 flex-col gap-2 text-sm">
        <p className="font-medium">{note}</p>
        {children}
        <div className="flex flex-wrap gap-2">
          <CopyButton text={secret} copiedMessage={copiedMessage}>
            {copyLabel}
          </CopyButton>
          <Button variant="outline" size="sm" onClick={onDone}>
            {doneLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
