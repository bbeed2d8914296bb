// Source cards under an answer and the dialog that opens a source's whole section.

import * as api from './api.js';
import { t } from './i18n.js';
import { icon } from './icons.js';

/** A readable title: the document's title, else its file name without folders and extension. */
export function titleOf(s) {
  if (s.title && s.title.trim()) return s.title.trim();
  const name = String(s.source || '').split('/').pop();
  return name.replace(/\.[^.]+$/, '') || name;
}

/** Where in the document: heading path (or sheet/slide names), and the page when known. */
export function whereOf(s) {
  const parts = [];
  if (s.headingPath) parts.push(String(s.headingPath).replace(/\s*>\s*/g, ' › '));
  if (s.page) parts.push(t('chat.page', { n: s.page }));
  return parts.join(' · ');
}

// English function words of 3+ letters: marking them in a passage would only add noise.
const STOP = new Set(('the and are for how what who when where which why with does did can you your '
  + 'many much long there their this that from into about was were has have had not any all our').split(' '));

/** Terms to mark in a passage: words of 3+ letters/digits, and every Han character bigram. */
export function queryTerms(question) {
  const out = new Set();
  for (const word of String(question || '').toLowerCase().match(/[\p{L}\p{N}_-]+/gu) || []) {
    for (const run of word.split(/(\p{Script=Han}+)/u)) {
      if (/^\p{Script=Han}+$/u.test(run)) {
        for (let i = 0; i + 2 <= run.length; i++) out.add(run.slice(i, i + 2));
      } else if (run.length >= 3 && !STOP.has(run)) {
        out.add(run);
      }
    }
  }
  return out;
}

/** Appends {@code text} to {@code el} with each of {@code terms} wrapped in <mark>. */
export function appendMarked(el, text, terms) {
  const alts = [...terms].sort((a, b) => b.length - a.length)
    .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!alts.length) {
    el.append(text);
    return;
  }
  const re = new RegExp('(' + alts.join('|') + ')', 'giu');
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    el.append(text.slice(last, m.index));
    const mark = document.createElement('mark');
    mark.textContent = m[0];
    el.append(mark);
    last = re.lastIndex;
  }
  el.append(text.slice(last));
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The card of source {@code s} (an API source object with {@code n}). */
export function card(s, question, unsupported) {
  const li = el('li', 'source-card');
  li.dataset.n = String(s.n);
  const head = el('div', 'source-head');
  head.append(el('span', 'source-n', String(s.n)));
  const title = el('span', 'source-title', titleOf(s));
  title.title = titleOf(s);
  head.append(title);
  if (s.dept) head.append(el('span', 'chip', s.dept));
  li.append(head);
  const where = whereOf(s);
  if (where) li.append(el('div', 'source-where', where));
  const passage = el('p', 'source-passage');
  appendMarked(passage, s.text || '', queryTerms(question));
  li.append(passage);
  const foot = el('div', 'source-foot');
  if (unsupported) foot.append(el('span', 'source-warn', t('chat.unsupported')));
  const open = el('button', 'btn link source-open');
  open.type = 'button';
  open.append(icon('open'), el('span', null, t('chat.open')));
  open.setAttribute('aria-label', t('chat.open') + ': ' + titleOf(s));
  open.addEventListener('click', () => openSection(s, question));
  foot.append(open);
  li.append(foot);
  return li;
}

/**
 * Opens the whole section of {@code s} (GET /v1/sections/{chunkId}) in the section dialog,
 * with the question's terms marked; shows the passage alone while loading or when the section
 * cannot be fetched.
 */
export async function openSection(s, question) {
  const dialog = document.getElementById('section-dialog');
  const terms = queryTerms(question);
  document.getElementById('section-title').textContent = titleOf(s);
  const meta = document.getElementById('section-where');
  meta.replaceChildren();
  const where = whereOf(s);
  if (where) meta.append(el('span', null, where));
  if (s.dept) meta.append(el('span', 'chip', s.dept));
  const body = document.getElementById('section-text');
  body.replaceChildren();
  appendMarked(body, s.text || '', terms);
  body.setAttribute('aria-busy', 'true');
  if (!dialog.open) dialog.showModal();
  try {
    const sec = await api.section(s.chunkId);
    body.replaceChildren();
    appendSection(body, sec.text || '', s.text || '', terms);
    if (sec.headingPath && !where) meta.prepend(el('span', null, whereOf(sec)));
  } catch (e) {
    // The passage stays; the section view is only a convenience.
  } finally {
    body.removeAttribute('aria-busy');
  }
}

/** The section text with the cited passage highlighted and scrolled into view. */
function appendSection(body, section, passage, terms) {
  const at = passage ? section.indexOf(passage.trim()) : -1;
  if (at < 0) {
    appendMarked(body, section, terms);
    return;
  }
  appendMarked(body, section.slice(0, at), terms);
  const hit = el('span', 'section-hit');
  appendMarked(hit, passage.trim(), terms);
  body.append(hit);
  appendMarked(body, section.slice(at + passage.trim().length), terms);
  requestAnimationFrame(() => hit.scrollIntoView({ block: 'center' }));
}
