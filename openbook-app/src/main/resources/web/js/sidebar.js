// The sidebar's history: the caller's conversations from GET /v1/conversations, newest first,
// each renamed (PATCH) or deleted (DELETE) from its row.

import * as api from './api.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { confirmDialog, renameDialog, toast } from './ui.js';

const $ = (id) => document.getElementById(id);
let items = [];
let handlers = { open: () => {}, deleted: () => {} };
let active = null;

/** {@code open(id)} when a row is chosen; {@code deleted(id)} after one is deleted. */
export function init(h) {
  handlers = h;
}

/** Forgets the list (sign-out: the next user must not see this one's titles). */
export function clear() {
  items = [];
  active = null;
  $('conversations').removeAttribute('data-loaded');
  paint();
}

/** Reloads the list from the server; marks the list {@code data-loaded} once it has answered. */
export async function refresh() {
  try {
    const body = await api.conversations();
    items = body.conversations || [];
    $('history').hidden = false;
  } catch (e) {
    items = [];
    // A server without stored conversations: no history section at all.
    $('history').hidden = api.isMissingEndpoint(e);
  }
  paint();
  $('conversations').dataset.loaded = 'true';
}

/** Marks the open conversation's row and shows its title in the top bar. */
export function setActive(id) {
  active = id;
  const conv = items.find((c) => c.id === id);
  if (conv) $('view-title').textContent = conv.title || t('conv.untitled');
  for (const li of $('conversations').children) {
    const on = li.dataset.id === id;
    li.classList.toggle('active', on);
    const b = li.querySelector('.conv-open');
    if (b) {
      if (on) b.setAttribute('aria-current', 'page');
      else b.removeAttribute('aria-current');
    }
  }
}

function paint() {
  const list = $('conversations');
  list.replaceChildren();
  $('no-history').hidden = items.length > 0;
  for (const c of items) {
    const title = c.title || t('conv.untitled');
    const li = document.createElement('li');
    li.className = 'conv';
    li.dataset.id = c.id;
    const openBtn = document.createElement('button');
    openBtn.type = 'button';
    openBtn.className = 'conv-open';
    openBtn.append(icon('chat'));
    const span = document.createElement('span');
    span.className = 'conv-title';
    span.textContent = title;
    openBtn.append(span);
    openBtn.title = title;
    openBtn.addEventListener('click', () => handlers.open(c.id));
    const rename = button('edit', t('conv.rename') + ': ' + title, 'conv-rename');
    rename.addEventListener('click', async () => {
      const next = await renameDialog(title);
      if (!next || next === title) return;
      try {
        await api.renameConversation(c.id, next.slice(0, 200));
        await refresh();
      } catch (e) {
        toast(e.message, 'error');
      }
    });
    const del = button('trash', t('conv.delete') + ': ' + title, 'conv-delete');
    del.addEventListener('click', async () => {
      if (!await confirmDialog(t('conv.deleteTitle'), t('conv.deleteBody', { title }))) return;
      try {
        await api.deleteConversation(c.id);
        await refresh();
        handlers.deleted(c.id);
      } catch (e) {
        toast(e.message, 'error');
      }
    });
    const tools = document.createElement('span');
    tools.className = 'conv-tools';
    tools.append(rename, del);
    li.append(openBtn, tools);
    list.append(li);
  }
  setActive(active);
}

function button(name, label, cls) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn icon ghost small ' + cls;
  b.setAttribute('aria-label', label);
  b.title = label;
  b.append(icon(name));
  return b;
}
