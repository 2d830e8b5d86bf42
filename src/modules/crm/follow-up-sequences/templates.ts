// The placeholders of a follow-up sequence's subject, body and task title ({{customer_name}} …),
// checked when the sequence is saved and filled when a step comes due. Filled values are plain
// text: the mail's HTML part escapes them (platform/mail/templates.ts).
export const PLACEHOLDERS = ['customer_name', 'job_name', 'job_address', 'workspace_name', 'salesperson_name'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PATTERN = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The placeholder names a template uses that are not in PLACEHOLDERS, each once, in order. */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(PLACEHOLDERS);
  const unknown: string[] = [];
  for (const match of template.matchAll(PATTERN)) {
    const name = match[1] as string;
    if (!known.has(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}

export function fillTemplate(template: string, values: Record<Placeholder, string>): string {
  return template.replace(PATTERN, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name as Placeholder] : whole,
  );
}
