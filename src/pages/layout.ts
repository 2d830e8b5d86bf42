// The shell every customer page shares: a phone-first document with the workspace's name as the
// header, one small stylesheet (inline, allowed by the answer's nonce), and the noindex robots tag
// (the header says it too; the tag covers a saved copy). No script: a page that needs one (a
// signature pad) brings its own under the same nonce.
import { html, trusted, type Html, type HtmlValue } from '#platform/html.ts';

export interface LayoutParts {
  /** The tab title and the page's heading. */
  title: string;
  /** Who sent the link (the workspace's name); none on pages that cannot say (an unknown link). */
  from?: string | null;
  body: HtmlValue;
  nonce: string;
  /** The page's own CSS after the shared stylesheet. */
  style?: string;
  /** The page's own script (our code), run at the end of the body. */
  script?: string;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
header{background:#243b53;color:#fff;padding:12px 16px}
header p{margin:0;font-size:14px;opacity:.85}
main{max-width:960px;margin:0 auto;padding:16px}
h1{font-size:24px;margin:0 0 8px}
h2{font-size:20px;margin:24px 0 8px}
h3{font-size:17px;margin:16px 0 4px}
.muted{color:#616e7c;font-size:14px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:16px;padding:0;list-style:none}
.card{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12);overflow:hidden}
.card img{display:block;width:100%;height:auto;background:#d9e2ec}
.card .text{padding:8px 12px}
.card a{color:inherit;text-decoration:none}
.photo h3{margin:0 0 4px}.photo p{margin:4px 0}
.photo a.open{display:block;padding:64px 12px;text-align:center;background:#d9e2ec;color:#243b53;text-decoration:underline}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e4e7eb;vertical-align:top}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:13px;background:#e4e7eb;white-space:nowrap}
.sev-low{background:#e3f9e5}.sev-medium{background:#fff3c4}.sev-high{background:#ffe3e3}.sev-critical{background:#ffbdbd}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;vertical-align:middle}
.sev-counts .badge{margin-right:4px}
.meta{margin:0 0 12px}
.service{margin-top:24px}
.pin{margin:12px 0}
.pin h4{margin:0 0 4px;font-size:16px}
.facts{margin:4px 0;padding-left:18px}
.notes{white-space:pre-line;margin:4px 0}
.pin-photos{grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:8px;margin:8px 0 0}
.pin-photo img{display:block;width:100%;height:auto;border-radius:4px;background:#d9e2ec}
.pin-photo p{margin:4px 0 0}
.pin-photo a.open{display:block;padding:32px 8px;text-align:center;background:#d9e2ec;color:#243b53;border-radius:4px}
.scroll{overflow-x:auto}
.assessment{margin-top:16px}
form{background:#fff;padding:16px;border-radius:8px;max-width:360px}
label{display:block;margin-bottom:8px}
input{font:inherit;padding:8px;width:100%;border:1px solid #9aa5b1;border-radius:4px}
button{font:inherit;margin-top:12px;padding:8px 16px;border:0;border-radius:4px;background:#243b53;color:#fff}
.error{color:#ab091e}
.thread{list-style:none;padding:0;margin:8px 0}
.thread li{background:#fff;border-radius:8px;padding:8px 12px;margin:8px 0;box-shadow:0 1px 2px rgba(0,0,0,.1)}
.thread li.from-customer{background:#e6f6ff}
.thread .who{font-weight:600}
.thread .body{white-space:pre-line;margin:4px 0 0;overflow-wrap:anywhere}
textarea{font:inherit;padding:8px;width:100%;min-height:96px;border:1px solid #9aa5b1;border-radius:4px}
form.wide{max-width:640px;margin:8px 0}
details{margin:8px 0}
summary{cursor:pointer;color:#243b53;font-weight:600}
fieldset{border:0;padding:0;margin:0 0 12px}
.stars label{display:flex;gap:8px;align-items:center;margin:4px 0}
.stars input,.check input{width:auto}
.check{display:flex;gap:8px;align-items:center}
@media (max-width:480px){table{font-size:15px}th,td{padding:6px 4px}}
`;

export function layout({ title, from, body, nonce, style, script }: LayoutParts): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style nonce="${nonce}">${trusted(STYLE)}${style ? trusted(style) : null}</style>
</head>
<body>
<header>${from ? html`<p>${from}</p>` : null}</header>
<main>
<h1>${title}</h1>
${body}
</main>
${script ? html`<script nonce="${nonce}">${trusted(script)}</script>` : null}
</body>
</html>
`;
}
