/**
 * Full page loads, in one object so tests can watch them (jsdom cannot navigate).
 * Everything else moves with the router.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
  replace(url: string): void {
    window.location.replace(url);
  },
  reload(): void {
    window.location.reload();
  },
};
