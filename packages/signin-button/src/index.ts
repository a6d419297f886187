export * from "./config.ts";
export type { KpiIdGlobal } from "./global.ts";
export { KpiIdSignin, type KpiIdSigninProps, signinAttributes, useKpiIdSignin } from "./react.tsx";
export { buttonClasses, createButton, type RenderOptions, renderAll, renderInto, selector } from "./render.ts";
