/** The look of a native <select> beside the Input component (same height, border and focus ring). */
export const nativeSelectClass =
  "h-10 rounded-md border border-border bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";
