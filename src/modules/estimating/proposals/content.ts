// A proposal's wording (document 3, Proposal `content`): five HTML blocks the office edits. HTML
// from users is cleaned with sanitize-html to a small set of text tags and safe links, so the
// customer page (with its strict Content-Security-Policy) and the PDF show text, never script,
// frames, styles or remote images.
import sanitizeHtml from 'sanitize-html';

export const CONTENT_FIELDS = ['cover_html', 'intro_html', 'scope_html', 'terms_html', 'closing_html'] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];
export type ProposalContent = Record<ContentField, string | null>;

/** The most HTML one block may hold, before cleaning. */
export const HTML_MAX = 50_000;

const CLEAN: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['https', 'http', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // Script and style bodies go with their tags; other unknown tags keep their text.
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
};

/** The HTML kept of `markup`: null or blank stays null. */
export function cleanHtml(markup: string | null): string | null {
  if (markup === null) return null;
  const cleaned = sanitizeHtml(markup, CLEAN).trim();
  return cleaned === '' ? null : cleaned;
}

/** The wording a new proposal starts with: the workspace and the customer's names filled in. */
export function defaultContent(firmName: string, clientName: string | null): ProposalContent {
  const esc = (t: string) => sanitizeHtml(t, { allowedTags: [], allowedAttributes: {} });
  const who = clientName ? esc(clientName) : 'you';
  return {
    cover_html: `<p>Prepared for ${who} by ${esc(firmName)}.</p>`,
    intro_html:
      `<p>${esc(firmName)} has served property owners and managers with careful, on-time work. ` +
      'We carry full insurance, stand behind our workmanship, and keep you informed from the first visit to the final walk-through.</p>',
    scope_html:
      '<p>The work below is priced from our site measurements. Quantities are approximate; ' +
      'the price covers the scope as described.</p>',
    terms_html: null,
    closing_html: `<p>Thank you for the opportunity to earn your business. Sign below to accept this proposal, and we will call to schedule the work.</p>`,
  };
}

/** Text of `markup` without tags, for the PDF and plain-text places (entities decoded). */
export function htmlToText(markup: string | null): string {
  if (!markup) return '';
  const withBreaks = markup
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h2|h3|h4|li|tr|blockquote)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
