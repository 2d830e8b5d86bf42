import type { Storage } from '#platform/storage/storage.ts';
import { originOf } from '#platform/routes.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import {
  visitAssessmentReport,
  type AssessmentReport,
  type ReportGroup,
  type ReportPhoto,
  type ReportPin,
} from './visit.ts';
import {
  amount,
  longDate,
  plural,
  quantitiesText,
  severityBadge,
  severityCounts,
  swatch,
} from '#field/site-assessments/findings.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html, type Html } from '#platform/html.ts';
import { pageImageUrl } from '#pages/images.ts';
import { type PageModule, TokenParams } from '#pages/pages.ts';
import { sendPage } from '#pages/respond.ts';

/** Signs what the page shows of a photo; `images` collects the inline images' URLs for the policy. */
async function photoFigure(storage: Storage, origin: string, photo: ReportPhoto, images: string[]): Promise<Html> {
  const full = await pageImageUrl(storage, photo.storage_key, origin, photo.content_type);
  const text = photo.title ?? photo.caption;
  const caption = html`${photo.title ? html`<strong>${photo.title}</strong> ` : null}${photo.caption ?? null}`;
  if (photo.thumbnail_key === null) {
    // A video, or an image no thumbnail could be made of (HEIC): a link to open it.
    return html`<li class="pin-photo"><a class="open" href="${full}">${photo.is_video ? 'Play video' : 'Open photo'}</a>${
      text ? html`<p class="muted">${caption}</p>` : null
    }</li>`;
  }
  const thumb = await pageImageUrl(storage, photo.thumbnail_key, origin, 'image/jpeg');
  images.push(thumb);
  return html`<li class="pin-photo"><a href="${full}"><img src="${thumb}" alt="${text ?? 'Photo of the finding'}"></a>${
    text ? html`<p class="muted">${caption}</p>` : null
  }</li>`;
}

function measurementLines(m: ReportPin['measurement']): Html[] {
  const lines: Html[] = [];
  const dims = [
    m.length_ft !== null ? `${amount(m.length_ft)} ft long` : null,
    m.width_ft !== null ? `${amount(m.width_ft)} ft wide` : null,
    m.depth_in !== null ? `${amount(m.depth_in)} in deep` : null,
  ].filter((d): d is string => d !== null);
  if (dims.length > 0) lines.push(html`<li>${dims.join(' × ')}</li>`);
  if (m.area_sqft !== null) lines.push(html`<li>Area: ${amount(m.area_sqft)} sq ft</li>`);
  if (m.value !== null && m.unit !== null) {
    const name =
      m.unit === 'SF'
        ? 'Area'
        : m.unit === 'CY'
          ? 'Volume'
          : m.unit === 'LF'
            ? 'Length'
            : m.unit === 'EA'
              ? 'Count'
              : 'Quantity';
    lines.push(html`<li>${name}: ${quantitiesText([{ unit: m.unit, value: m.value }])}</li>`);
  }
  return lines;
}

async function pinArticle(storage: Storage, origin: string, pin: ReportPin, images: string[]): Promise<Html> {
  const photos = await Promise.all(pin.photos.map((p) => photoFigure(storage, origin, p, images)));
  return html`<article class="pin card" id="pin-${pin.id}"><div class="text">
<h4>${pin.label} ${severityBadge(pin.severity)}</h4>
<ul class="facts"><li>Size: ${pin.size}</li>${measurementLines(pin.measurement)}</ul>
${pin.notes ? html`<p class="notes">${pin.notes}</p>` : null}
${photos.length > 0 ? html`<ul class="grid pin-photos">${photos}</ul>` : null}
</div></article>`;
}

function summaryTable(report: AssessmentReport): Html {
  const rows = report.groups.map(
    (g) =>
      html`<tr class="service-row"><td>${swatch(g.color)}${g.label}</td><td>${g.pin_count}</td><td>${
        quantitiesText(g.quantities) || html`<span class="muted">—</span>`
      }</td><td>${severityCounts(g.severities)}</td></tr>`,
  );
  const total = report.groups.reduce((n, g) => n + g.pin_count, 0);
  return html`<div class="scroll"><table class="summary"><thead><tr><th>Service</th><th>Findings</th><th>Quantities</th><th>Severity</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th>Total</th><th>${total}</th><th></th><th>${severityCounts(report.severityTotals)}</th></tr></tfoot></table></div>`;
}

async function groupSection(storage: Storage, origin: string, g: ReportGroup, images: string[]): Promise<Html> {
  const pins = await Promise.all(g.pins.map((p) => pinArticle(storage, origin, p, images)));
  const quantities = quantitiesText(g.quantities);
  return html`<section class="service" id="service-${g.service_type_id ?? 'other'}">
<h2>${swatch(g.color)}${g.label}</h2>
<p class="muted">${plural(g.pin_count, 'finding')}${quantities ? ` · ${quantities}` : ''}</p>
${g.pin_count > 0 ? html`<p>${severityCounts(g.severities)}</p>` : null}
${pins.length > 0 ? pins : html`<p class="muted">Nothing was found for this service.</p>`}
</section>`;
}

function when(report: AssessmentReport): string {
  if (report.status === 'completed' && report.completedAt)
    return `Completed ${longDate(storedToLocal(report.completedAt, report.timezone).date)}`;
  return `In progress (started ${longDate(storedToLocal(report.startedAt, report.timezone).date)})`;
}

export const assessmentReportPage: PageModule = (app, env) => {
  app.get('/share/assessments/:token', { schema: { params: TokenParams } }, async (request, reply) => {
    const visit = await visitAssessmentReport(env.database.db, request.params.token);
    if (visit.state === 'unknown') return sendUnknownLink(reply);
    if (visit.state === 'gone') return sendGone(reply, visit.why);
    const { report } = visit;
    const origin = originOf(request);
    const images: string[] = [];
    const sections = await Promise.all(report.groups.map((g) => groupSection(env.deps.storage, origin, g, images)));
    // A site made from a job's address is named by it: the address once then.
    const place = [report.siteName === report.address ? null : report.siteName, report.address]
      .filter((p) => p)
      .join(', ');
    return sendPage(reply, {
      title: report.title,
      from: report.firmName,
      images,
      body: html`<p class="meta">${place ? html`<span class="place">${place}</span><br>` : null}<span class="status">${when(report)}</span></p>
${report.scope ? html`<p class="scope">This report covers ${report.scope.map((s) => s.name).join(', ')}.</p>` : null}
${
  report.groups.length > 0
    ? html`<h2>Summary</h2>${summaryTable(report)}${sections}`
    : html`<p class="muted">No findings have been recorded yet.</p>`
}`,
    });
  });
};
