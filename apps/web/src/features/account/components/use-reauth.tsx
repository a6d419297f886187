import { useState } from "react";
import { ReauthDialog } from "./reauth-dialog.tsx";

/**
 * Called when the server wants a recent sign-in: `retry` repeats the change once the person proved it again;
 * `reason` is the refusal (the dialog says it: a sign-in with the second factor is asked for, not only a recent one).
 */
export type AskAgain = (retry: () => void, reason?: unknown) => void;

/** The account page's "prove it is you" prompt: one dialog for every sensitive change. */
export function useReauth() {
  const [asked, setAsked] = useState<{ retry: () => void; reason?: unknown } | null>(null);
  const askAgain: AskAgain = (retry, reason) => setAsked({ retry, reason });
  const dialog = (
    <ReauthDialog
      open={asked !== null}
      reason={asked?.reason}
      onClose={() => setAsked(null)}
      onConfirmed={() => {
        asked?.retry();
        setAsked(null);
      }}
    />
  );
  return { askAgain, dialog };
}
