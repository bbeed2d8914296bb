// Small shared pieces: a toast line and the confirm / rename dialogs (native <dialog>).

import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

let toastTimer = 0;
/** Shows {@code text} briefly at the bottom of the screen; kind 'error' colours it. */
export function toast(text, kind = 'info') {
  const box = $('toast');
  box.textContent = text;
  box.className = 'toast ' + kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 3500);
}

/** Asks for confirmation; resolves true when the (destructive) button was pressed. */
export function confirmDialog(title, body, okLabel = t('common.delete')) {
  const d = $('confirm-dialog');
  $('confirm-title').textContent = title;
  $('confirm-body').textContent = body;
  $('confirm-ok').textContent = okLabel;
  return dialogResult(d).then((v) => v === 'ok');
}

/** Asks for a new title; resolves the trimmed text, or null when cancelled or empty. */
export function renameDialog(current) {
  const d = $('rename-dialog');
  const input = $('rename-input');
  input.value = current || '';
  return dialogResult(d, input).then((v) => (v === 'ok' && input.value.trim() ? input.value.trim() : null));
}

for (const b of document.querySelectorAll('dialog [data-close]')) {
  b.addEventListener('click', () => b.closest('dialog').close('cancel'));
}

function dialogResult(d, focus) {
  return new Promise((resolve) => {
    d.returnValue = '';
    d.addEventListener('close', () => resolve(d.returnValue), { once: true });
    d.showModal();
    if (focus) {
      focus.focus();
      focus.select();
    }
  });
}
