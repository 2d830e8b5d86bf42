// What a page that takes a signature shares (the proposal and change-order pages): the consent
// box, the optional signature pad and its one script, their CSS, the form's size, who is on the
// page (the audit trail's IP and user agent). Times on these pages are the workspace's
// (platform/time-zone.ts, localWhen), with the zone named.
import type { FastifyRequest } from 'fastify';
import { SIGNATURE_PNG_MAX } from '#platform/signing/e-sign.ts';
import type { Visitor } from '#platform/signing/audit.ts';
import { html, type Html } from '#platform/html.ts';

/** Percent-encoding makes a base64 PNG up to three times longer; the other fields are short. */
export const SIGNING_FORM_BYTES = SIGNATURE_PNG_MAX * 3 + 64 * 1024;

/**
 * The signature pad: the page's one script. Without it (or without script at all) the pad stays
 * hidden and the typed name is the signature. Drawing writes the canvas as a PNG data URL into the
 * hidden `signature` field after each stroke; Clear empties both.
 */
export const SIGNATURE_SCRIPT = `(function(){
var pad=document.getElementById('signature-pad'),c=document.getElementById('signature-canvas'),out=document.getElementById('signature');
if(!pad||!c||!out||!c.getContext)return;
pad.hidden=false;
var g=c.getContext('2d');g.lineWidth=3;g.lineCap='round';g.lineJoin='round';g.strokeStyle='#102a43';
var down=false,drawn=false;
function at(e){var r=c.getBoundingClientRect();return[(e.clientX-r.left)*c.width/r.width,(e.clientY-r.top)*c.height/r.height];}
c.addEventListener('pointerdown',function(e){down=true;if(c.setPointerCapture)c.setPointerCapture(e.pointerId);var p=at(e);g.beginPath();g.moveTo(p[0],p[1]);e.preventDefault();});
c.addEventListener('pointermove',function(e){if(!down)return;var p=at(e);g.lineTo(p[0],p[1]);g.stroke();drawn=true;e.preventDefault();});
function end(){if(!down)return;down=false;if(drawn)out.value=c.toDataURL('image/png');}
c.addEventListener('pointerup',end);c.addEventListener('pointercancel',end);
document.getElementById('signature-clear').addEventListener('click',function(){g.clearRect(0,0,c.width,c.height);drawn=false;out.value='';});
})();`;

/**
 * A signing page's document parts (sections, the terms as a list, the outcome banners) and its
 * consent block and pad, in the page's accent colour (a validated hex).
 */
export function signingStyle(color: string): string {
  return `
.banner{padding:12px 16px;border-radius:8px;margin:0 0 16px;background:#fff3c4}
.banner.accepted{background:#e3f9e5}.banner.rejected{background:#ffe3e3}
.doc-section{background:#fff;border-radius:8px;padding:4px 16px 16px;margin:0 0 16px}
.facts-list{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:8px 0}
.facts-list dt{color:#616e7c}.facts-list dd{margin:0}
.consent{background:#f5f7fa;border-left:4px solid ${color};padding:8px 12px;margin:8px 0;font-size:15px}
form.answer{max-width:640px}
.pad{margin:8px 0}
.pad canvas{display:block;width:100%;max-width:600px;aspect-ratio:10/3;background:#fff;border:1px dashed #9aa5b1;border-radius:4px;touch-action:none}
.pad button{background:#616e7c;margin-top:4px}
`;
}

/** The hidden pad (shown by the script) and the field its drawing is posted in. */
export const signaturePadFields = (): Html => html`<div class="pad" id="signature-pad" hidden>
<p class="muted">Draw your signature (optional)</p>
<canvas id="signature-canvas" width="600" height="180" aria-label="Signature pad"></canvas>
<button type="button" id="signature-clear">Clear</button>
</div>
<input type="hidden" id="signature" name="signature" value="">`;

/** The box a signer ticks to agree to sign electronically (the consent text stands above it). */
export const consentCheckbox = (checked: boolean): Html =>
  html`<label class="check"><input type="checkbox" name="consent" value="yes" required${checked ? html` checked` : null}> I have read the consent above and agree to sign electronically</label>`;

/** Who is on the page, for the audit trail. */
export const visitorOf = (request: FastifyRequest): Visitor => ({
  ip: request.ip ?? null,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
});

/** What a signing page's forms say back: which form a message belongs to ('page' puts it on top). */
export interface Notice {
  at: 'sign' | 'decline' | 'page';
  message: string;
}

/** The message for one form, if it is that form's. */
export const formError = (notice: Notice | null, at: Notice['at']): Html | null =>
  notice?.at === at ? html`<p class="error" role="alert">${notice.message}</p>` : null;

/** The decline form, folded away under the signing form, with its one optional text field. */
export function declineDetails(d: {
  /** The document's name: "proposal", "change order". */
  what: string;
  action: string;
  field: { name: string; label: string; max: number; value: string };
  notice: Notice | null;
}): Html {
  return html`<details class="decline"${d.notice?.at === 'decline' ? html` open` : null}>
<summary>Decline this ${d.what}</summary>
<form class="wide answer" method="post" action="${d.action}">
<label for="${d.field.name}">${d.field.label} (optional)</label>
<textarea id="${d.field.name}" name="${d.field.name}" maxlength="${d.field.max}">${d.field.value}</textarea>
${formError(d.notice, 'decline')}
<button type="submit">Decline ${d.what}</button>
</form>
</details>`;
}
