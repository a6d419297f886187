// Part of auth's public surface, loaded lazily by the account page's new sign-in (only for a person with a second
// factor): a file of its own, so the form stays out of the chunk that imports auth's index.
export { default } from "./components/second-factor-form.tsx";
