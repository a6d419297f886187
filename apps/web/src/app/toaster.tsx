import { Toaster as Sonner } from "sonner";

/**
 * The spec's toast settings. The swipe threshold (45 px or 0.11 px/ms), the
 * removal delay (200 ms) and pausing while hovered are sonner's own behaviour.
 */
export const toastSettings = { duration: 4000, visibleToasts: 3, gap: 14, width: 356 } as const;

export function Toaster() {
  return (
    <Sonner
      duration={toastSettings.duration}
      visibleToasts={toastSettings.visibleToasts}
      gap={toastSettings.gap}
      position="bottom-right"
      richColors
      closeButton
      toastOptions={{ style: { width: toastSettings.width } }}
    />
  );
}
