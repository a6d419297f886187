export * from "./account.ts";
export * from "./api.ts";
export * from "./consent.ts";
export * from "./errors.ts";
export * from "./google.ts";
export * from "./language.ts";
export * from "./messages.ts";
export * from "./pages.ts";
