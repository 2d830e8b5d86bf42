import { visitCapitalPlan, type CapitalPlan, type PlanAssessment } from './visit.ts';
import { longDate, plural, quantitiesText, severityCounts, swatch } from '#field/site-assessments/findings.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html, type Html } from '#platform/html.ts';
import { type PageModule, TokenParams } from '#pages/pages.ts';
import { sendPage } from '#pages/respond.ts';

function summaryTable(plan: CapitalPlan): Html {
  const head = plan.years.map((y) => html`<th scope="col">${y}</th>`);
  const rows = plan.summary.map(
    (row) =>
      html`<tr class="service-row"><th scope="row">${swatch(row.color)}${row.label}</th>${plan.years.map((y) => {
        const cell = row.years.get(y);
        if (!cell) return html`<td class="muted">—</td>`;
        return html`<td>${quantitiesText(cell.quantities) || plural(cell.pin_count, 'finding')}</td>`;
      })}</tr>`,
  );
  return html`<div class="scroll"><table class="plan-summary"><thead><tr><th scope="col">Service</th>${head}</tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="muted">Each year shows the latest completed assessment of that year that found the service.</p>`;
}

function assessmentSection(a: PlanAssessment): Html {
  const rows = a.findings.map(
    (f) =>
      html`<tr class="service-row"><td>${swatch(f.color)}${f.label}</td><td>${f.pin_count}</td><td>${
        quantitiesText(f.quantities) || html`<span class="muted">—</span>`
      }</td><td>${severityCounts(f.severities)}</td></tr>`,
  );
  return html`<section class="assessment" id="assessment-${a.id}">
<h3>${a.title}</h3>
<p class="muted"><time datetime="${a.date}">${longDate(a.date)}</time> · ${plural(a.pinCount, 'finding')}</p>
${
  a.findings.length > 0
    ? html`<div class="scroll"><table><thead><tr><th>Service</th><th>Findings</th><th>Quantities</th><th>Severity</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th>Total</th><th>${a.pinCount}</th><th></th><th>${severityCounts(a.severityTotals)}</th></tr></tfoot></table></div>`
    : html`<p class="muted">Nothing was found on this walk.</p>`
}
</section>`;
}

export const capitalPlanPage: PageModule = (app, env) => {
  app.get('/share/plans/:token', { schema: { params: TokenParams } }, async (request, reply) => {
    const visit = await visitCapitalPlan(env.database.db, request.params.token);
    if (visit.state === 'unknown') return sendUnknownLink(reply);
    if (visit.state === 'gone') return sendGone(reply, visit.why);
    const { plan } = visit;
    return sendPage(reply, {
      title: `Capital plan: ${plan.siteName || plan.address}`,
      from: plan.firmName,
      body: html`<p class="meta"><span class="place">${plan.address}</span>${
        plan.customerName ? html`<br><span>Prepared for ${plan.customerName}</span>` : null
      }</p>
${
  plan.assessments.length > 0
    ? html`<h2>Quantities by year</h2>${summaryTable(plan)}
<h2>Assessments</h2>
<p class="muted">${plural(plan.assessments.length, 'completed assessment')}, newest first.</p>
${plan.assessments.map(assessmentSection)}`
    : html`<p class="muted">No completed assessments of this site yet.</p>`
}`,
    });
  });
};
