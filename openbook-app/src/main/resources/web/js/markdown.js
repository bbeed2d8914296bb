// Answer text → safe DOM. marked (GFM) parses the Markdown with raw HTML escaped to text, then
// DOMPurify removes anything active that is left (script, event handlers, javascript: URLs),
// so a model or a document cannot inject HTML into the page. Links are never live in an answer:
// a document's author chose where they go, so a link shows its text and its address as code
// (the server's InertLinks does the same to the text). Citation markers [n] / [n, m] become
// buttons afterwards, on text nodes only.

import { Marked } from '../vendor/marked.esm.js';
import DOMPurify from '../vendor/purify.es.js';

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    // Raw HTML in the answer is shown as the text it is, never parsed.
    html: (token) => escape(token.text),
    // A link (inline, reference, <autolink> or bare URL) is its text plus its address as code.
    link(token) {
      const text = this.parser.parseInline(token.tokens || []);
      const href = String(token.href || '');
      const plain = token.text === href || 'mailto:' + token.text === href;
      return plain ? '<code>' + escape(token.text) + '</code>'
        : text + ' (<code>' + escape(href) + '</code>)';
    },
    image: (token) => escape(token.text || '') + ' (<code>' + escape(token.href || '') + '</code>)',
  },
});

const PURIFY = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS: ['style', 'img', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'svg', 'math'],
  FORBID_ATTR: ['style', 'class', 'id'],
};

const MARKER = /\[(\d{1,3}(?:\s*[,，]\s*\d{1,3})*)\]/g;

/**
 * Renders {@code text} as a DocumentFragment; {@code cite(n)} makes the element that replaces
 * each citation number (or returns null to leave the marker as text).
 */
export function render(text, cite) {
  const frag = DOMPurify.sanitize(marked.parse(text || ''), PURIFY);
  // belt and braces: whatever produced an anchor, it becomes its text
  for (const a of frag.querySelectorAll('a')) a.replaceWith(document.createTextNode(a.textContent));
  if (cite) linkCitations(frag, cite);
  return frag;
}

function linkCitations(root, cite) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest('code, pre, a')
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const s = node.nodeValue;
    MARKER.lastIndex = 0;
    if (!MARKER.test(s)) continue;
    MARKER.lastIndex = 0;
    const out = document.createDocumentFragment();
    let last = 0;
    let m;
    while ((m = MARKER.exec(s)) !== null) {
      out.append(s.slice(last, m.index));
      for (const n of m[1].split(/\s*[,，]\s*/).map(Number)) {
        out.append(cite(n) || '[' + n + ']');
      }
      last = MARKER.lastIndex;
    }
    out.append(s.slice(last));
    node.replaceWith(out);
  }
}

