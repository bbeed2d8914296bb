// The conversation view: questions and answers stacked, each answer streamed from /v1/ask,
// with its notice (refusal, failure, incomplete, error), source cards, actions and details.

import * as api from './api.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { render } from './markdown.js';
import * as sources from './sources.js';
import { toast } from './ui.js';

const DETAILS_KEY = 'openbook.details';

const state = {
  conversationId: null,
  exchanges: [],
  controller: null,
  onConversation: () => {},
};

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function iconButton(name, label, cls = 'btn icon ghost') {
  const b = el('button', cls);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.title = label;
  b.append(icon(name));
  return b;
}

/** Wires the composer; {@code onConversation(id, isNew)} is told when an ask starts or continues one. */
export function init({ onConversation }) {
  state.onConversation = onConversation;
  const q = $('question');
  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    send(q.value);
  });
  q.addEventListener('keydown', (e) => {
    // Enter sends, Shift+Enter is a new line; never while an IME is composing (Chinese input).
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      send(q.value);
    }
  });
  q.addEventListener('input', grow);
  $('stop').addEventListener('click', stop);
  const details = $('details-toggle');
  setDetails(localStorage.getItem(DETAILS_KEY) === '1');
  details.addEventListener('click', () => setDetails(details.getAttribute('aria-pressed') !== 'true'));
}

function setDetails(on) {
  $('details-toggle').setAttribute('aria-pressed', String(on));
  document.body.classList.toggle('show-details', on);
  $('k-field').hidden = !on;
  localStorage.setItem(DETAILS_KEY, on ? '1' : '0');
}

function grow() {
  const q = $('question');
  q.style.height = 'auto';
  q.style.height = Math.min(q.scrollHeight, 200) + 'px';
}

/** The open conversation's id, or null for a new chat. */
export function currentId() {
  return state.conversationId;
}

/** Empties the view for a new conversation. */
export function newChat() {
  stop();
  state.conversationId = null;
  state.exchanges = [];
  $('turns').replaceChildren();
  $('empty').hidden = false;
  $('question').value = '';
  grow();
  $('question').focus();
}

/** Shows the stored conversation {@code id} (GET /v1/conversations/{id}). */
export async function open(id) {
  stop();
  state.conversationId = id;
  state.exchanges = [];
  $('turns').replaceChildren();
  $('empty').hidden = true;
  let conv;
  let ratings = new Map();
  try {
    const [c, fb] = await Promise.all([api.conversation(id), api.request('GET', 'v1/feedback?limit=500&conversationId=' + encodeURIComponent(id)).catch(() => null)]);
    conv = c;
    for (const f of (fb && fb.feedback) || []) {
      if (f.conversationId === id) ratings.set(f.turn, f.rating);
    }
  } catch (e) {
    if (state.conversationId !== id) return null;
    state.conversationId = null;
    $('empty').hidden = false;
    toast(e.status === 404 ? t('chat.conversationGone') : t('chat.loadFailed'), 'error');
    return null;
  }
  if (state.conversationId !== id) return null;
  const turns = conv.turns || [];
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i];
    // Regenerate asks the same question again as the next turn: show only the latest answer.
    if (i + 1 < turns.length && turns[i + 1].question === turn.question) continue;
    const x = exchange(turn.question);
    x.turn = turn.turn;
    x.sources = turn.sources || [];
    finish(x, { status: turn.status, answer: turn.answer, turn: turn.turn, citations: citationsOf(turn) });
    if (ratings.has(turn.turn)) markRating(x, ratings.get(turn.turn));
  }
  scrollToEnd(true);
  return conv;
}

function citationsOf(turn) {
  return (turn.sources || []).map((s) => ({ n: s.n, chunkId: s.chunkId, source: s.source, supported: true }));
}

/** Appends the DOM of one exchange (question + empty answer) and returns its record. */
function exchange(question) {
  $('empty').hidden = true;
  const art = el('article', 'exchange');
  const user = el('div', 'msg user');
  const bubble = el('div', 'bubble', question);
  user.append(bubble);
  const bot = el('div', 'msg assistant');
  const avatar = el('div', 'avatar');
  avatar.append(icon('book'));
  const body = el('div', 'msg-body');
  const name = el('div', 'msg-name', t('chat.assistant'));
  const notice = el('div', 'notice');
  notice.hidden = true;
  const answer = el('div', 'answer markdown');
  answer.setAttribute('aria-live', 'polite');
  const typing = el('div', 'typing');
  typing.append(el('span', 'dots'), el('span', 'typing-text', t('chat.thinking')));
  const srcBox = el('section', 'sources');
  srcBox.hidden = true;
  srcBox.append(el('h3', 'sources-title', t('chat.sources')), el('ol', 'source-list'));
  const actions = el('div', 'actions');
  actions.hidden = true;
  const feedback = el('form', 'feedback-form');
  feedback.hidden = true;
  const details = el('dl', 'details');
  details.hidden = true;
  body.append(name, notice, answer, typing, srcBox, actions, feedback, details);
  bot.append(avatar, body);
  art.append(user, bot);
  $('turns').append(art);
  const x = { question, art, answer, notice, typing, srcBox, actions, feedback, details, text: '', sources: [], turn: null, rating: null, final: null };
  state.exchanges.push(x);
  return x;
}

/** Asks {@code question} in the open conversation and streams the answer. */
export async function send(raw, into) {
  const question = String(raw || '').trim();
  if (!question || state.controller) return;
  if (!into) {
    $('question').value = '';
    grow();
  }
  const x = into || exchange(question);
  if (into) reset(x);
  scrollToEnd(true);
  const body = { question };
  if (state.conversationId) body.conversationId = state.conversationId;
  const k = parseInt($('k').value, 10);
  if (document.body.classList.contains('show-details') && Number.isInteger(k)) body.k = k;
  const controller = new AbortController();
  state.controller = controller;
  busy(true);
  let frame = 0;
  const paint = () => {
    frame = 0;
    paintAnswer(x);
    scrollToEnd(false);
  };
  try {
    await api.ask(body, {
      sources: (list) => {
        x.sources = list;
        x.typing.querySelector('.typing-text').textContent = list.length
          ? t('chat.reading', { n: list.length }) : t('chat.thinking');
      },
      delta: (text) => {
        x.text += text;
        x.typing.hidden = true;
        if (!frame) frame = requestAnimationFrame(paint);
      },
      final: (fin) => {
        if (frame) cancelAnimationFrame(frame);
        const isNew = state.conversationId !== fin.conversationId;
        state.conversationId = fin.conversationId;
        finish(x, fin);
        state.onConversation(fin.conversationId, isNew);
      },
    }, controller.signal);
  } catch (e) {
    if (frame) cancelAnimationFrame(frame);
    if (e.name === 'AbortError') {
      paintAnswer(x);
      showNotice(x, 'truncated', t('chat.stopped'));
    } else {
      if (e.status === 404 && e.field === 'conversationId') {
        state.conversationId = null;
        state.onConversation(null, true);
        toast(t('chat.conversationGone'), 'error');
      }
      paintAnswer(x);
      showError(x, e);
    }
    x.typing.hidden = true;
    renderActions(x);
  } finally {
    if (state.controller === controller) state.controller = null;
    busy(false);
    scrollToEnd(false);
  }
}

/** Cancels the running answer (the server then cancels the LLM call). */
export function stop() {
  if (state.controller) state.controller.abort();
}

function busy(on) {
  $('send').hidden = on;
  $('stop').hidden = !on;
  document.body.classList.toggle('answering', on);
  if (!on) $('question').focus();
}

function reset(x) {
  x.text = '';
  x.final = null;
  x.sources = [];
  x.turn = null;
  x.rating = null;
  x.answer.replaceChildren();
  x.notice.hidden = true;
  x.notice.className = 'notice';
  x.srcBox.hidden = true;
  x.actions.hidden = true;
  x.feedback.hidden = true;
  x.details.hidden = true;
  x.typing.hidden = false;
  x.typing.querySelector('.typing-text').textContent = t('chat.thinking');
}

function paintAnswer(x) {
  x.answer.replaceChildren(render(x.text, (n) => citeButton(x, n)));
}

function citeButton(x, n) {
  const s = x.sources.find((src) => src.n === n);
  if (!s) return null;
  const unsupported = x.final && (x.final.diagnostics?.unsupportedCitations || []).includes(n);
  const b = el('button', 'cite' + (unsupported ? ' unsupported' : ''), String(n));
  b.type = 'button';
  b.dataset.n = String(n);
  b.setAttribute('aria-label', t('chat.sources') + ' ' + n + ': ' + sources.titleOf(s));
  b.title = sources.titleOf(s);
  b.addEventListener('click', () => sources.openSection(s, x.question));
  return b;
}

/** Shows the final state of an answer: text, notice by status, cited sources, actions, details. */
function finish(x, fin) {
  x.final = fin;
  x.turn = fin.turn ?? null;
  x.text = fin.answer || '';
  x.typing.hidden = true;
  const status = String(fin.status || '');
  const cited = new Set((fin.citations || []).map((c) => c.n));
  const shown = status.startsWith('REFUSED') || status === 'FAILED' ? []
    : x.sources.filter((s) => cited.size === 0 || cited.has(s.n));
  if (status.startsWith('REFUSED')) {
    showNotice(x, 'refused', t('chat.refused'), t('chat.refusedHint'));
  } else if (status === 'FAILED') {
    showNotice(x, 'failed', t('chat.failed'), t('chat.failedHint'));
  } else if (status && status !== 'ANSWERED') {
    showNotice(x, 'truncated', t('chat.truncated'));
  }
  // A refusal or failure is said by the notice; its fixed text adds nothing but noise.
  if (status.startsWith('REFUSED') || status === 'FAILED') {
    x.answer.replaceChildren();
    x.answer.hidden = true;
  } else {
    x.answer.hidden = false;
    paintAnswer(x);
  }
  const list = x.srcBox.querySelector('.source-list');
  list.replaceChildren();
  const unsupported = new Set(fin.diagnostics?.unsupportedCitations || []);
  for (const s of shown) list.append(sources.card(s, x.question, unsupported.has(s.n)));
  x.srcBox.hidden = shown.length === 0;
  renderDetails(x, fin);
  renderActions(x);
}

function showNotice(x, kind, title, hint) {
  x.notice.className = 'notice ' + kind;
  x.notice.setAttribute('role', kind === 'error' || kind === 'failed' ? 'alert' : 'status');
  x.notice.replaceChildren(icon(kind === 'refused' ? 'info' : 'alert'));
  const text = el('div', 'notice-text');
  text.append(el('strong', 'notice-title', title));
  if (hint) text.append(el('span', 'notice-hint', hint));
  x.notice.append(text);
  x.notice.hidden = false;
}

function showError(x, e) {
  const hint = e.status === 0 && e.message.includes('final') ? t('chat.errorNoFinal')
    : (e.status && e.status < 500 && e.message ? e.message : '');
  showNotice(x, 'error', t('chat.error'), [hint, e.requestId ? t('chat.errorRequest', { id: e.requestId }) : '']
    .filter(Boolean).join(' '));
}

function renderActions(x) {
  const a = x.actions;
  a.replaceChildren();
  if (x.text && !x.answer.hidden) {
    const copy = iconButton('copy', t('chat.copy'));
    copy.classList.add('act-copy');
    copy.addEventListener('click', () => copyText(x.text, copy));
    a.append(copy);
  }
  const isLast = state.exchanges[state.exchanges.length - 1] === x;
  if (isLast) {
    const regen = iconButton('refresh', t('chat.regenerate'));
    regen.classList.add('act-regenerate');
    regen.addEventListener('click', () => send(x.question, x));
    a.append(regen);
  }
  if (x.turn !== null && state.conversationId) {
    for (const [rating, name, label] of [['up', 'up', t('chat.good')], ['down', 'down', t('chat.bad')]]) {
      const b = iconButton(name, label);
      b.classList.add('act-' + rating);
      b.setAttribute('aria-pressed', String(x.rating === rating));
      b.addEventListener('click', () => rate(x, rating));
      a.append(b);
    }
  }
  a.hidden = a.childElementCount === 0;
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    // Clipboard API refused (no permission, not focused): the older selection copy.
    const ta = el('textarea', 'offscreen');
    ta.value = text;
    document.body.append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  button.replaceChildren(icon('check'));
  button.classList.add('done');
  button.title = t('chat.copied');
  toast(t('chat.copied'));
  setTimeout(() => {
    button.replaceChildren(icon('copy'));
    button.classList.remove('done');
    button.title = t('chat.copy');
  }, 1500);
}

function markRating(x, rating) {
  x.rating = rating;
  for (const b of x.actions.querySelectorAll('.act-up, .act-down')) {
    b.setAttribute('aria-pressed', String(b.classList.contains('act-' + rating)));
  }
}

/** Stores a thumbs-up/down at once, then offers an optional comment that replaces it. */
async function rate(x, rating) {
  const body = { conversationId: state.conversationId, turn: x.turn, rating };
  try {
    await api.feedback(body);
    markRating(x, rating);
  } catch (e) {
    if (api.isMissingEndpoint(e)) {
      // A server without feedback storage: the thumbs go away rather than fail each time.
      document.body.classList.add('no-feedback');
    } else {
      toast(t('chat.feedbackFailed'), 'error');
    }
    return;
  }
  const f = x.feedback;
  f.replaceChildren();
  const label = el('label', 'feedback-label', t('chat.feedbackPrompt'));
  const ta = el('textarea', 'feedback-comment');
  ta.rows = 2;
  ta.maxLength = 2000;
  const id = 'fb-' + Math.random().toString(36).slice(2);
  ta.id = id;
  label.htmlFor = id;
  const row = el('div', 'feedback-row');
  const cancel = el('button', 'btn ghost small', t('common.cancel'));
  cancel.type = 'button';
  cancel.addEventListener('click', () => { f.hidden = true; });
  const submit = el('button', 'btn primary small', t('chat.feedbackSend'));
  submit.type = 'submit';
  row.append(cancel, submit);
  f.append(label, ta, row);
  f.onsubmit = async (e) => {
    e.preventDefault();
    const comment = ta.value.trim();
    try {
      if (comment) await api.feedback({ ...body, comment });
      f.replaceChildren(el('p', 'feedback-thanks', t('chat.feedbackThanks')));
      setTimeout(() => { f.hidden = true; }, 2000);
    } catch (err) {
      toast(t('chat.feedbackFailed'), 'error');
    }
  };
  f.hidden = false;
  ta.focus();
}

function renderDetails(x, fin) {
  const d = fin.diagnostics;
  x.details.replaceChildren();
  if (!d) return;
  const add = (key, value) => {
    if (value === null || value === undefined || value === '') return;
    x.details.append(el('dt', null, t(key)), el('dd', null, String(value)));
  };
  add('details.status', fin.status);
  add('details.k', x.sources.length);
  add('details.generator', d.generator);
  add('details.retrieval', d.retrievalMillis != null ? t('details.ms', { n: d.retrievalMillis }) : null);
  add('details.generation', d.generationMillis != null ? t('details.ms', { n: d.generationMillis }) : null);
  add('details.bestScore', d.bestDenseScore != null ? Number(d.bestDenseScore).toFixed(3) : null);
  add('details.threshold', d.threshold != null ? Number(d.threshold).toFixed(3) : null);
  add('details.rewritten', d.rewrittenQuestion);
  add('details.reason', d.reason);
  const w = [];
  if ((d.invalidCitations || []).length) w.push(t('details.invalid', { list: d.invalidCitations.join(', ') }));
  if ((d.unsupportedCitations || []).length) w.push(t('details.unsupportedList', { list: d.unsupportedCitations.join(', ') }));
  if ((d.uncitedSentences || []).length) w.push(t('details.uncited', { n: d.uncitedSentences.length }));
  add('details.warnings', w.join(' · '));
  x.details.hidden = false;
}

function scrollToEnd(force) {
  const box = $('messages');
  const near = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  if (force || near) box.scrollTop = box.scrollHeight;
}
