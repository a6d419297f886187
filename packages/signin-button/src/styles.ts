/**
 * The button's style sheet. Colours and sizes are CSS variables so a page can
 * theme the button (`--kpi-id-brand`, `--kpi-id-on-brand`, `--kpi-id-radius`,
 * `--kpi-id-font`) without fighting specificity; the outline variant follows
 * `prefers-color-scheme`. No inline style attributes: they would need
 * `'unsafe-inline'` under a strict CSP.
 */
const css = `.kpi-id-btn{--b:var(--kpi-id-brand,#1b3f8f);--o:var(--kpi-id-on-brand,#fff);--h:48px;--bg:var(--b);--fg:var(--o);box-sizing:border-box;display:inline-flex;align-items:center;justify-content:center;gap:10px;height:var(--h);padding:0 calc(var(--h)/2.4);border:1px solid var(--b);border-radius:var(--kpi-id-radius,8px);background:var(--bg);color:var(--fg);font:600 16px/1 var(--kpi-id-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);text-decoration:none;white-space:nowrap;cursor:pointer;transition:filter .15s}
.kpi-id-btn:hover{filter:brightness(1.08)}.kpi-id-btn:focus-visible{outline:3px solid var(--kpi-id-focus,#f59e0b);outline-offset:2px}
.kpi-id-btn--medium{--h:40px;font-size:15px}.kpi-id-btn--small{--h:32px;font-size:14px;gap:8px}
.kpi-id-btn--outline{--bg:var(--kpi-id-surface,#fff);--fg:var(--b)}
.kpi-id-btn--right{flex-direction:row-reverse}.kpi-id-btn--full{display:flex;width:100%}
.kpi-id-btn--dev{outline:2px dashed #dc2626;outline-offset:3px}
.kpi-id-btn svg{width:calc(var(--h)/2);height:calc(var(--h)/2);flex:none}.kpi-id-btn rect{fill:var(--fg)}.kpi-id-btn path{fill:none;stroke:var(--bg);stroke-width:2.4;stroke-linecap:round;stroke-linejoin:round}
@media (prefers-color-scheme:dark){.kpi-id-btn--outline{--bg:var(--kpi-id-surface,#111827);--fg:var(--kpi-id-on-dark,#93b4f0);border-color:var(--fg)}}`;

const marker = "data-kpi-id-style";

/**
 * Adds the style sheet once per document: as a constructed sheet where the
 * browser has them (CSP does not govern those), otherwise as a `<style>`
 * element carrying the nonce of the script tag.
 */
export function installStyles(doc: Document, nonce: string | undefined): void {
  if (doc.querySelector(`style[${marker}]`)) return;
  const view = doc.defaultView;
  if (view && "adoptedStyleSheets" in doc && typeof view.CSSStyleSheet?.prototype.replaceSync === "function") {
    if (doc.adoptedStyleSheets.some((sheet) => (sheet as CSSStyleSheet & { kpiId?: true }).kpiId)) return;
    const sheet = new view.CSSStyleSheet() as CSSStyleSheet & { kpiId?: true };
    sheet.replaceSync(css);
    sheet.kpiId = true;
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    return;
  }
  const style = doc.createElement("style");
  style.setAttribute(marker, "");
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  doc.head.append(style);
}
