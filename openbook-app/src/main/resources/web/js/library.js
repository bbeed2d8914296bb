// The document library (writers only): the documents of the departments the caller can read,
// upload by drag and drop or file picker with progress (the upload, then the indexing job),
// delete with confirmation.

import * as api from './api.js';
import { formatTime, t } from './i18n.js';
import { icon } from './icons.js';
import { titleOf } from './sources.js';
import { confirmDialog, toast } from './ui.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 500;
let wired = false;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Fills the folder choice from the caller's departments and wires the drop zone once. */
export function init(departments) {
  const folder = $('upload-folder');
  folder.replaceChildren();
  const none = el('option', null, t('lib.folderNone'));
  none.value = '';
  folder.append(none);
  for (const d of departments.filter((x) => x !== 'public')) {
    const o = el('option', null, d);
    o.value = d;
    folder.append(o);
  }
  if (wired) return;
  wired = true;
  const zone = $('dropzone');
  const input = $('upload-input');
  input.addEventListener('change', () => {
    if (input.files.length) upload([...input.files]);
    input.value = '';
  });
  for (const ev of ['dragenter', 'dragover']) {
    zone.addEventListener(ev, (e) => {
      e.preventDefault();
      zone.classList.add('over');
    });
  }
  for (const ev of ['dragleave', 'drop']) {
    zone.addEventListener(ev, () => zone.classList.remove('over'));
  }
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    const files = [...(e.dataTransfer?.files || [])];
    if (files.length) upload(files);
  });
}

/** Forgets the table and the uploads shown (sign-out). */
export function clear() {
  $('documents').replaceChildren();
  $('uploads').replaceChildren();
  $('lib-count').textContent = '';
}

/** Reloads the document table. */
export async function refresh() {
  const body = $('documents');
  let docs;
  try {
    docs = (await api.documents()).documents || [];
  } catch (e) {
    body.replaceChildren();
    $('lib-count').textContent = t('lib.loadFailed');
    return;
  }
  $('lib-count').textContent = t('lib.count', { n: docs.length });
  $('lib-empty').hidden = docs.length > 0;
  $('doc-table').hidden = docs.length === 0;
  body.replaceChildren();
  for (const d of docs) {
    const tr = el('tr');
    tr.dataset.source = d.source;
    const name = el('td', 'doc-name');
    const title = titleOf(d);
    const wrap = el('div', 'doc-title-wrap');
    wrap.append(icon('file'));
    const text = el('div', 'doc-text');
    text.append(el('span', 'doc-title', title), el('span', 'doc-file', d.source.split('/').pop()));
    wrap.append(text);
    name.append(wrap);
    const dept = el('td', 'doc-dept');
    dept.append(el('span', 'chip', d.dept));
    const chunks = el('td', 'doc-chunks num', String(d.chunks));
    chunks.append(el('span', 'mobile-label', ' ' + t('lib.chunksUnit')));
    const updated = el('td', 'doc-updated', formatTime(d.updatedAt));
    const actions = el('td', 'doc-actions');
    const del = el('button', 'btn icon ghost danger doc-delete');
    del.type = 'button';
    del.append(icon('trash'));
    del.setAttribute('aria-label', t('lib.delete') + ': ' + title);
    del.title = t('lib.delete');
    del.addEventListener('click', () => remove(d, title));
    actions.append(del);
    tr.append(name, dept, chunks, updated, actions);
    body.append(tr);
  }
}

async function remove(d, title) {
  if (!await confirmDialog(t('lib.deleteTitle'), t('lib.deleteBody', { title }))) return;
  try {
    await api.deleteDocument(d.source);
    toast(t('lib.deleted', { title }));
  } catch (e) {
    toast(e.message, 'error');
  }
  await refresh();
}

/**
 * Uploads {@code files} as one job: the bar shows the bytes sent (first half), then the
 * job's progress {done, total} (second half), until the job succeeds or fails.
 */
async function upload(files) {
  const item = el('li', 'upload');
  const label = files.map((f) => f.name).join(', ');
  const name = el('div', 'upload-name');
  name.append(icon('file'), el('span', null, label));
  const bar = el('progress', 'upload-bar');
  bar.max = 100;
  bar.value = 0;
  bar.setAttribute('aria-label', label);
  const status = el('div', 'upload-status', t('lib.uploading', { name: label }));
  status.setAttribute('role', 'status');
  item.append(name, bar, status);
  $('uploads').prepend(item);
  try {
    const started = await api.upload(files, $('upload-folder').value, (f) => {
      bar.value = Math.round(f * 50);
    });
    bar.value = 50;
    status.textContent = t('lib.queued');
    // An older server indexes during the request (201 with the report) and has no job.
    const job = !started.jobId ? { status: 'succeeded', result: started } : await poll(started.jobId, (j) => {
      const p = j.progress || {};
      if (p.total) {
        bar.value = 50 + Math.round((50 * p.done) / p.total);
        status.textContent = t('lib.indexing', { done: p.done, total: p.total });
      }
    });
    if (job.status === 'succeeded') {
      bar.value = 100;
      const r = job.result || {};
      item.classList.add('ok');
      status.textContent = t('lib.done', { added: r.added ?? 0, updated: r.updated ?? 0 });
    } else {
      throw new api.ApiError(job.error?.status || 500, job.error?.field, job.error?.message);
    }
  } catch (e) {
    item.classList.add('failed');
    status.textContent = t('lib.failed', { message: e.message });
  }
  await refresh();
}

async function poll(jobId, onProgress) {
  for (;;) {
    const j = await api.job(jobId);
    onProgress(j);
    if (j.status === 'succeeded' || j.status === 'failed') return j;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
