/**
 * The one page container: header, footer and every wide page share its width (1024 px) and side
 * padding, so their left edges line up at every window width. Narrow forms (login, consent) centre
 * inside it instead.
 */
export const pageContainer = "mx-auto w-full max-w-5xl px-4 sm:px-6";
