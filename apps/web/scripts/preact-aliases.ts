import { fileURLToPath } from "node:url";
import type { Alias } from "vite";

/**
 * The app is written against React's API and renders with Preact (preact/compat): the login route's
 * first load fits its 110 kB budget only so (docs/performance.md has the figures and the reason).
 * The build and the component tests both resolve React to Preact, so the tests run what ships.
 */
export const preactAliases: Alias[] = [
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom\/test-utils$/, replacement: "preact/test-utils" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react$/, replacement: fileURLToPath(new URL("../src/preact/react.ts", import.meta.url)) },
];
