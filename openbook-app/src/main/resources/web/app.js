// OpenBook web page: asks /v1/ask with Accept: text/event-stream and renders the events
// (sources, then delta*, then final) as they arrive. No build step, no dependencies.
'use strict';

const $ = (id) => document.getElementById(id);
const state = { sources: [], text: '', question: '', unsupported: new Set(), conversationId: null };

$('token').value = sessionStorage.getItem('openbook.token') || '';
$('token').addEventListener('change', () => sessionStorage.setItem('openbook.token', $('token').value));
$('passage-close').addEventListener('click', () => { $('passage').hidden = true; });
$('ask-form').addEventListener('submit', (e) => { e.preventDefault(); ask(); });
$('new-conversation').addEventListener('click', () => { state.conversationId = null; setStatus('New conversation'); });

async function ask() {
  const question = $('question').value.trim();
  if (!question) return;
  Object.assign(state, { sources: [], text: '', question, unsupported: new Set() });
  $('answer-box').hidden = false;
  $('passage').hidden = true;
  $('answer').className = '';
  $('warnings').textContent = '';
  renderSources();
  renderAnswer();
  setStatus('Asking…');
  $('ask').disabled = true;
  try {
    // Follow-ups continue the conversation the server issued; it rewrites them before retrieval.
    const body = { question };
    if (state.conversationId) body.conversationId = state.conversationId;
    const k = parseInt($('k').value, 10);
    if (Number.isInteger(k)) body.k = k;
    const res = await fetch('v1/ask', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Accept': 'text/event-stream',
        'Authorization': 'Bearer ' + $('token').value.trim(),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) {
      let msg = res.status + ' ' + res.statusText;
      try {
        const err = (await res.json()).error;
        if (err.field === 'conversationId') state.conversationId = null;
        msg = err.status + ': ' + err.message + (err.field ? ' (field: ' + err.field + ')' : '');
      } catch (ignored) { /* not JSON */ }
      showFailure(msg);
      return;
    }
    await readEvents(res.body, onEvent);
  } catch (err) {
    showFailure('Request failed: ' + err.message);
  } finally {
    $('ask').disabled = false;
  }
}

/** Parses a text/event-stream body: events are separated by a blank line. */
async function readEvents(stream, handle) {
  const reader = stream.getReader();
  // stream: true keeps a multi-byte character split across chunks for the next call.
  const decoder = new TextDecoder('utf-8');
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    buf += done ? decoder.decode() : decoder.decode(value, { stream: true });
    buf = buf.replace(/\r\n/g, '\n');
    let cut;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) handle(name, JSON.parse(data.join('\n')));
    }
    if (done) return;
  }
}

function onEvent(name, data) {
  if (name === 'sources') {
    state.sources = data;
    renderSources();
    setStatus(data.length ? 'Answering from ' + data.length + ' source(s)…' : 'Checking…');
  } else if (name === 'delta') {
    state.text += data.text;
    renderAnswer();
  } else if (name === 'final') {
    state.conversationId = data.conversationId;
    state.text = data.answer;
    state.unsupported = new Set(data.diagnostics.unsupportedCitations || []);
    renderAnswer();
    const box = $('answer');
    if (data.status.startsWith('REFUSED')) {
      box.className = 'refused';
      setStatus('Refused (' + data.status + ')');
    } else if (data.status === 'FAILED') {
      box.className = 'failed';
      setStatus('Failed: ' + data.diagnostics.reason);
    } else {
      setStatus((data.diagnostics.rewrittenQuestion ? 'Asked as “' + data.diagnostics.rewrittenQuestion + '” · ' : '')
        + 'Answered · ' + data.diagnostics.generator + ' · retrieval '
        + data.diagnostics.retrievalMillis + ' ms, generation ' + data.diagnostics.generationMillis + ' ms');
    }
    const w = [];
    if (data.diagnostics.partialResults) w.push('Partial results: shard(s) ' + data.diagnostics.missingShards.join(', ') + ' did not answer');
    if (data.diagnostics.invalidCitations.length) w.push('Removed citations to sources that were not given: ' + data.diagnostics.invalidCitations.join(', '));
    if (state.unsupported.size) w.push('Citations not supported by their passage: ' + [...state.unsupported].join(', '));
    if (data.diagnostics.uncitedSentences.length) w.push(data.diagnostics.uncitedSentences.length + ' sentence(s) without citation');
    $('warnings').textContent = w.join(' · ');
  }
}

/** Renders the answer text with each [n] / [n, m] marker as links to its source. */
function renderAnswer() {
  const box = $('answer');
  box.replaceChildren();
  const marker = /\[(\d+(?:\s*[,，]\s*\d+)*)\]/g;
  let last = 0;
  let m;
  while ((m = marker.exec(state.text)) !== null) {
    box.append(state.text.slice(last, m.index));
    for (const num of m[1].split(/\s*[,，]\s*/).map(Number)) {
      box.append(citeLink(num));
    }
    last = marker.lastIndex;
  }
  box.append(state.text.slice(last));
}

function citeLink(n) {
  const a = document.createElement('a');
  a.className = 'cite' + (state.unsupported.has(n) ? ' unsupported' : '');
  a.href = '#source-' + n;
  a.textContent = '[' + n + ']';
  a.dataset.n = String(n);
  a.addEventListener('click', (e) => { e.preventDefault(); openSource(n); });
  return a;
}

function renderSources() {
  const list = $('sources');
  list.replaceChildren();
  for (const s of state.sources) {
    const li = document.createElement('li');
    li.id = 'source-' + s.n;
    li.value = s.n;
    const a = document.createElement('a');
    a.className = 'cite';
    a.href = '#source-' + s.n;
    a.textContent = where(s);
    a.addEventListener('click', (e) => { e.preventDefault(); openSource(s.n); });
    li.append(a);
    list.append(li);
  }
}

function where(s) {
  let w = s.source;
  if (s.page) w += ' p.' + s.page;
  if (s.headingPath) w += ' › ' + s.headingPath;
  return w;
}

/** Opens the passage of source n: file, heading path or page, and the text with question terms marked. */
function openSource(n) {
  const s = state.sources.find((x) => x.n === n);
  if (!s) return;
  $('passage-title').textContent = '[' + n + '] ' + s.source;
  $('passage-where').textContent = (s.headingPath || '') + (s.page ? ' · page ' + s.page : '') + ' · ' + s.dept;
  const box = $('passage-text');
  box.replaceChildren();
  const uniq = [...queryTerms(state.question)].sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!uniq.length) {
    box.textContent = s.text;
  } else {
    const re = new RegExp('(' + uniq.join('|') + ')', 'giu');
    let last = 0;
    let m;
    while ((m = re.exec(s.text)) !== null) {
      box.append(s.text.slice(last, m.index));
      const mark = document.createElement('mark');
      mark.textContent = m[0];
      box.append(mark);
      last = re.lastIndex;
    }
    box.append(s.text.slice(last));
  }
  $('passage').hidden = false;
}

/** Terms to mark in a passage: words of 3+ letters/digits, and every Han character bigram. */
function queryTerms(question) {
  const out = new Set();
  for (const word of question.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) || []) {
    for (const run of word.split(/(\p{Script=Han}+)/u)) {
      if (/^\p{Script=Han}+$/u.test(run)) {
        for (let i = 0; i + 2 <= run.length; i++) out.add(run.slice(i, i + 2));
      } else if (run.length >= 3) {
        out.add(run);
      }
    }
  }
  return out;
}

function showFailure(msg) {
  $('answer').className = 'failed';
  $('answer').textContent = msg;
  setStatus('Error');
}

function setStatus(text) {
  $('status').textContent = text;
}
