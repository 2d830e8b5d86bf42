// The proposal's cleaned HTML (content.ts: only p, br, strong/b, em/i, u, ul/ol/li, h2-h4,
// blockquote, a, table rows and cells, hr) as blocks of styled text the PDF lays out (pdf.ts).
// The input has been through sanitize-html, so it is well formed and attribute values are quoted
// and escaped; a small tokenizer is enough, and anything unexpected is kept as plain text rather
// than dropped, so the PDF never shows less than the page.

export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
}

export type Block =
  /** `indent`: how many blockquotes it sits in. */
  | { kind: 'paragraph'; runs: Run[]; indent: number }
  | { kind: 'heading'; level: 2 | 3 | 4; runs: Run[] }
  /** A list item's paragraph: `marker` ("•", "3.") on its first paragraph, "" on later ones. */
  | { kind: 'item'; marker: string; depth: number; runs: Run[] }
  | { kind: 'rule' }
  | { kind: 'table'; rows: { header: boolean; cells: string[] }[] };

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const cp = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

function hrefOf(attrs: string): string | null {
  const m = /\bhref\s*=\s*"([^"]*)"/i.exec(attrs) ?? /\bhref\s*=\s*'([^']*)'/i.exec(attrs);
  return m ? decodeEntities(m[1]) : null;
}

/** The blocks of `html`, in order; whitespace collapsed as a browser would. */
export function htmlBlocks(html: string | null): Block[] {
  if (!html) return [];
  const blocks: Block[] = [];
  const style = { bold: 0, italic: 0, underline: 0 };
  /** The open block-level elements, innermost last. */
  const open: string[] = [];
  const lists: { ordered: boolean; n: number; markerPending: boolean }[] = [];
  const links: { href: string | null; text: string }[] = [];
  let runs: Run[] = [];
  let table: { header: boolean; cells: string[] }[] | null = null;
  let row: { header: boolean; cells: string[] } | null = null;
  let cell: string | null = null;

  const push = (text: string) => {
    if (text === '') return;
    if (cell !== null) {
      cell += text;
      return;
    }
    if (table !== null) return; // text between rows: not shown by a browser either
    for (const l of links) l.text += text;
    const last = runs[runs.length - 1];
    const s = { bold: style.bold > 0, italic: style.italic > 0, underline: style.underline > 0 };
    if (last && last.bold === s.bold && last.italic === s.italic && last.underline === s.underline) last.text += text;
    else runs.push({ text, ...s });
  };

  const flush = () => {
    // Collapse spaces around line breaks and at the ends; drop a block that is only whitespace.
    const trimmed: Run[] = [];
    for (const r of runs) trimmed.push({ ...r, text: r.text.replace(/ *\n */g, '\n') });
    while (trimmed.length > 0 && trimmed[0].text.trimStart() === '') trimmed.shift();
    while (trimmed.length > 0 && trimmed[trimmed.length - 1].text.trimEnd() === '') trimmed.pop();
    runs = [];
    if (trimmed.length === 0) return;
    trimmed[0].text = trimmed[0].text.replace(/^[ \n]+/, '');
    const end = trimmed[trimmed.length - 1];
    end.text = end.text.replace(/[ \n]+$/, '');
    const heading = [...open].reverse().find((t) => t === 'h2' || t === 'h3' || t === 'h4');
    if (heading) {
      blocks.push({ kind: 'heading', level: Number(heading[1]) as 2 | 3 | 4, runs: trimmed });
      return;
    }
    const innermostList = open.lastIndexOf('li');
    if (innermostList >= 0 && lists.length > 0) {
      const list = lists[lists.length - 1];
      const marker = list.markerPending ? (list.ordered ? `${list.n}.` : '•') : '';
      list.markerPending = false;
      blocks.push({ kind: 'item', marker, depth: lists.length, runs: trimmed });
      return;
    }
    blocks.push({ kind: 'paragraph', runs: trimmed, indent: open.filter((t) => t === 'blockquote').length });
  };

  const close = (tag: string) => {
    const at = open.lastIndexOf(tag);
    if (at >= 0) open.splice(at);
  };

  const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)|(<)/g;
  for (const m of html.matchAll(TOKEN)) {
    if (m[4] !== undefined || m[5] !== undefined) {
      const raw = decodeEntities(m[4] ?? m[5]).replace(/[ \t\n\r\f]+/g, ' ');
      push(raw);
      continue;
    }
    const closing = m[1] === '/';
    const tag = m[2].toLowerCase();
    switch (tag) {
      case 'strong':
      case 'b':
        style.bold += closing ? (style.bold > 0 ? -1 : 0) : 1;
        break;
      case 'em':
      case 'i':
        style.italic += closing ? (style.italic > 0 ? -1 : 0) : 1;
        break;
      case 'u':
        style.underline += closing ? (style.underline > 0 ? -1 : 0) : 1;
        break;
      case 'br':
        if (cell !== null) cell += ' ';
        else push('\n');
        break;
      case 'a':
        if (!closing) links.push({ href: hrefOf(m[3]), text: '' });
        else {
          // On paper a link is only useful when its address is printed.
          const link = links.pop();
          if (link?.href) {
            const target = link.href.replace(/^(mailto|tel):/i, '');
            if (target !== link.text.trim()) push(` (${target})`);
          }
        }
        break;
      case 'p':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'blockquote':
        if (cell !== null) break;
        flush();
        if (closing) close(tag);
        else open.push(tag);
        break;
      case 'ul':
      case 'ol':
        if (cell !== null) break;
        flush();
        if (closing) {
          lists.pop();
          close(tag);
        } else {
          lists.push({ ordered: tag === 'ol', n: 0, markerPending: false });
          open.push(tag);
        }
        break;
      case 'li': {
        if (cell !== null) break;
        flush();
        if (closing) close('li');
        else {
          if (lists.length === 0) lists.push({ ordered: false, n: 0, markerPending: false });
          const list = lists[lists.length - 1];
          list.n++;
          list.markerPending = true;
          open.push('li');
        }
        break;
      }
      case 'hr':
        if (cell !== null) break;
        flush();
        blocks.push({ kind: 'rule' });
        break;
      case 'table':
        if (closing) {
          if (table !== null && table.length > 0) blocks.push({ kind: 'table', rows: table });
          table = null;
          row = null;
          cell = null;
        } else if (table === null) {
          flush();
          table = [];
        }
        break;
      case 'tr':
        if (table === null) break;
        if (!closing) {
          row = { header: true, cells: [] };
          table.push(row);
        } else row = null;
        break;
      case 'td':
      case 'th':
        if (table === null) break;
        if (!closing) {
          if (row === null) {
            row = { header: true, cells: [] };
            table.push(row);
          }
          if (tag === 'td') row.header = false;
          cell = '';
        } else if (row !== null && cell !== null) {
          row.cells.push(cell.trim());
          cell = null;
        }
        break;
      default:
        // thead/tbody and anything the cleaner may allow later: their text still shows.
        break;
    }
  }
  if (table !== null && (table as unknown[]).length > 0) blocks.push({ kind: 'table', rows: table });
  flush();
  return blocks;
}
