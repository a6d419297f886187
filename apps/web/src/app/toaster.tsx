import { type CSSProperties, lazy, Suspense, useEffect, useState } from "react";
import { loadSonner, toasterListening, whenToastWanted } from "@/lib/notify.ts";

/**
 * The spec's toast settings. The swipe threshold (45 px or 0.11 px/ms), the
 * removal delay (200 ms) and pausing while hovered are sonner's own behaviour.
 */
export const toastSettings = { duration: 4000, visibleToasts: 3, gap: 14, width: 356 } as const;

/**
 * sonner's rich colours give text of 3.1–4.4:1 on their tinted backgrounds (WCAG AA wants 4.5:1):
 * the same hues, darker, each at least 5.3:1. Set on the toaster element, where sonner defines them.
 */
export const toastColours = {
  "--success-text": "hsl(140, 100%, 22%)",
  "--info-text": "hsl(210, 92%, 38%)",
  "--warning-text": "hsl(31, 92%, 32%)",
  "--error-text": "hsl(360, 100%, 40%)",
} as CSSProperties;

const Sonner = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/** Rendered after sonner's toaster in the same boundary, so its effect runs once the toaster subscribed. */
function Listening() {
  useEffect(toasterListening, []);
  return null;
}

/** Mounts sonner's toaster at the first toast (notify.ts), which waits for it to listen. */
export function Toaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    let live = true;
    void whenToastWanted().then(() => live && setWanted(true));
    return () => {
      live = false;
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Sonner
        duration={toastSettings.duration}
        visibleToasts={toastSettings.visibleToasts}
        gap={toastSettings.gap}
        position="bottom-right"
        richColors
        closeButton
        style={toastColours}
        toastOptions={{ style: { width: toastSettings.width } }}
      />
      <Listening />
    </Suspense>
  );
}
