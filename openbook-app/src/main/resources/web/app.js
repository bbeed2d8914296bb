// Start-up and navigation: sign-in, who you are (GET /v1/me), the sidebar, and the routes
// #/ (new chat), #/c/<id> (a stored conversation) and #/library (writers only).

import * as api from './js/api.js';
import * as chat from './js/chat.js';
import { applyStatic, lang, LANGUAGES, setLang, t } from './js/i18n.js';
import { applyIcons } from './js/icons.js';
import * as library from './js/library.js';
import * as sidebar from './js/sidebar.js';

const $ = (id) => document.getElementById(id);
let me = null;

function boot() {
  applyIcons();
  applyStatic();
  for (const sel of [$('lang'), $('signin-lang')]) {
    for (const [code, label] of LANGUAGES) {
      const o = document.createElement('option');
      o.value = code;
      o.textContent = label;
      sel.append(o);
    }
    sel.value = lang();
    sel.addEventListener('change', () => switchLang(sel.value));
  }
  api.whenUnauthorized(() => signOut(t('signin.invalid')));
  $('signin-form').addEventListener('submit', signIn);
  $('signout').addEventListener('click', () => signOut());
  $('new-chat').addEventListener('click', () => {
    chat.newChat();
    go('#/');
  });
  $('nav-library').addEventListener('click', () => go('#/library'));
  $('nav-chat').addEventListener('click', () => go(chat.currentId() ? '#/c/' + chat.currentId() : '#/'));
  $('menu').addEventListener('click', () => drawer(true));
  $('menu-close').addEventListener('click', () => drawer(false));
  $('scrim').addEventListener('click', () => drawer(false));
  $('section-close').addEventListener('click', () => $('section-dialog').close());
  chat.init({
    onConversation: (id, isNew) => {
      if (id && isNew) {
        history.replaceState(null, '', '#/c/' + encodeURIComponent(id));
      }
      sidebar.setActive(id);
      sidebar.refresh();
    },
  });
  sidebar.init({
    open: (id) => go('#/c/' + encodeURIComponent(id)),
    deleted: (id) => {
      if (chat.currentId() === id) go('#/');
    },
  });
  window.addEventListener('hashchange', route);
  if (api.token()) start();
  else showSignIn();
}

function switchLang(code) {
  setLang(code);
  $('lang').value = code;
  $('signin-lang').value = code;
  if (me) {
    showUser();
    sidebar.refresh();
    library.init(me.departments);
    route();
  }
}

function showSignIn(message) {
  me = null;
  $('app').hidden = true;
  $('signin').hidden = false;
  const err = $('signin-error');
  err.textContent = message || '';
  err.hidden = !message;
  $('token').value = '';
  $('token').focus();
}

async function signIn(e) {
  e.preventDefault();
  const value = $('token').value.trim();
  if (!value) return;
  api.setToken(value);
  $('signin-submit').disabled = true;
  try {
    await start();
  } finally {
    $('signin-submit').disabled = false;
  }
}

/** Loads who the token belongs to and opens the app, or returns to the sign-in screen. */
async function start() {
  try {
    me = await api.me();
  } catch (e) {
    api.setToken(null);
    showSignIn(e.status === 401 || e.status === 403 ? t('signin.invalid') : t('signin.unreachable'));
    return;
  }
  $('signin').hidden = true;
  $('app').hidden = false;
  $('token').value = '';
  showUser();
  $('nav-library').hidden = !me.writer;
  if (me.writer) library.init(me.departments || []);
  await sidebar.refresh();
  route();
}

function signOut(message) {
  chat.stop();
  api.setToken(null);
  history.replaceState(null, '', '#/');
  chat.newChat();
  // Nothing of this user stays on screen for the next one.
  sidebar.clear();
  library.clear();
  $('view-title').textContent = '';
  showSignIn(message);
}

function showUser() {
  // a token user's principal is its id (oidc:<issuer>#<sub>); show the name it goes by
  const name = me.displayName || me.principal;
  $('user-name').textContent = name || t('common.never');
  $('user-avatar').textContent = (name || '?').slice(0, 1).toUpperCase();
  $('user-role').textContent = me.writer ? t('user.writer') : '';
  $('user-role').hidden = !me.writer;
  const depts = $('user-depts');
  depts.replaceChildren();
  for (const d of me.departments || []) {
    const li = document.createElement('li');
    li.className = 'chip';
    li.textContent = d;
    depts.append(li);
  }
  $('greeting').textContent = name ? t('chat.greeting', { name }) : t('app.tagline');
}

function go(hash) {
  drawer(false);
  if (location.hash === hash) route();
  else location.hash = hash;
}

async function route() {
  if (!me) return;
  const h = location.hash;
  const lib = h === '#/library' && me.writer;
  $('chat-view').hidden = lib;
  $('library-view').hidden = !lib;
  $('nav-library').classList.toggle('active', lib);
  $('nav-library').toggleAttribute('aria-current', lib);
  $('view-title').textContent = lib ? t('lib.title') : t('nav.newChat');
  if (lib) {
    sidebar.setActive(null);
    await library.refresh();
    return;
  }
  const m = /^#\/c\/(.+)$/.exec(h);
  const id = m ? decodeURIComponent(m[1]) : null;
  sidebar.setActive(id);
  if (!id) {
    if (chat.currentId() !== null) chat.newChat();
    return;
  }
  if (chat.currentId() === id && document.querySelector('#turns .exchange')) return;
  const conv = await chat.open(id);
  if (!conv && chat.currentId() === null) history.replaceState(null, '', '#/');
  else if (conv) $('view-title').textContent = conv.title || t('conv.untitled');
}

function drawer(open) {
  document.body.classList.toggle('drawer-open', open);
  $('scrim').hidden = !open;
}

boot();
