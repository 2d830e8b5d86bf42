// HTML for customer pages, escaped by default: every value put into an `html` template is escaped
// unless it is itself Html (another template, or `trusted` markup written in our own code). So a
// customer name, a photo caption or a label can never open a tag or an attribute.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** A value a template accepts: text (escaped), numbers, nothing (empty), markup, or a list of them. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + (strings[i + 1] as string);
  return new Html(out);
}

/** Markup written in our own code (never data): used as it is. */
export const trusted = (markup: string) => new Html(markup);
