// The page's only door to the server (docs/API.md): bearer token, JSON errors, the event stream
// of /v1/ask and the upload with progress. Paths are relative so the page works under a prefix.

const TOKEN_KEY = 'openbook.token';

/** An error response: {status, field, message, requestId} from the server's error body. */
export class ApiError extends Error {
  constructor(status, field, message, requestId) {
    super(message || 'HTTP ' + status);
    this.status = status;
    this.field = field || null;
    this.requestId = requestId || null;
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

let onUnauthorized = () => {};
/** Called when a request is refused with 401 after sign-in (token revoked or expired). */
export function whenUnauthorized(fn) {
  onUnauthorized = fn;
}

function headers(extra = {}) {
  const h = { ...extra };
  const tok = token();
  if (tok) h.Authorization = 'Bearer ' + tok;
  return h;
}

async function errorOf(res) {
  let e = {};
  try {
    e = (await res.json()).error || {};
  } catch (ignored) { /* not JSON */ }
  return new ApiError(res.status, e.field, e.message, e.requestId || res.headers.get('X-Request-Id'));
}

/** A JSON request; resolves to the parsed body (null for 204), rejects with ApiError. */
export async function request(method, path, body, { signal } = {}) {
  const init = { method, headers: headers({ Accept: 'application/json' }), signal };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (!res.ok) {
    const err = await errorOf(res);
    if (res.status === 401) onUnauthorized(err);
    throw err;
  }
  return res.status === 204 ? null : res.json();
}

/**
 * Whether {@code e} says the server has no such endpoint (an older server): 404 without a
 * field, unlike "no such conversation" (404 naming {@code id}). The page then hides the feature.
 */
export function isMissingEndpoint(e) {
  return e instanceof ApiError && (e.status === 404 || e.status === 405) && !e.field;
}

/**
 * Who the token belongs to: GET /v1/me; on a server without it, the token is checked with the
 * document list and the principal is unknown (shown as "—", no library).
 */
export async function me() {
  try {
    return await request('GET', 'v1/me');
  } catch (e) {
    if (!isMissingEndpoint(e)) throw e;
    await request('GET', 'v1/documents');
    return { principal: null, departments: [], writer: false };
  }
}
export const conversations = () => request('GET', 'v1/conversations');
export const conversation = (id) => request('GET', 'v1/conversations/' + encodeURIComponent(id));
export const renameConversation = (id, title) =>
  request('PATCH', 'v1/conversations/' + encodeURIComponent(id), { title });
export const deleteConversation = (id) => request('DELETE', 'v1/conversations/' + encodeURIComponent(id));
export const feedback = (body) => request('POST', 'v1/feedback', body);
export const section = (chunkId) => request('GET', 'v1/sections/' + encodeURIComponent(chunkId));
export const documents = () => request('GET', 'v1/documents?offset=0&limit=500');
export const deleteDocument = (source) => request('DELETE', 'v1/documents/' + encodeURIComponent(source));
export const job = (id) => request('GET', 'v1/jobs/' + encodeURIComponent(id));

/**
 * Asks with Accept: text/event-stream and calls handlers.sources(array), .delta(text),
 * .final(answer) as events arrive. Rejects with ApiError for an error status or an `error`
 * event, with an ApiError of status 0 when the stream ends without `final`, and with an
 * AbortError when {@code signal} aborts (the stop button).
 */
export async function ask(body, handlers, signal) {
  const res = await fetch('v1/ask', {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) {
    const err = await errorOf(res);
    if (res.status === 401) onUnauthorized(err);
    throw err;
  }
  let finished = false;
  await readEvents(res.body, (name, data) => {
    if (name === 'sources') handlers.sources(data);
    else if (name === 'delta') handlers.delta(data.text);
    else if (name === 'final') {
      finished = true;
      handlers.final(data);
    } else if (name === 'error') {
      const e = data.error || {};
      throw new ApiError(e.status || 500, e.field, e.message, e.requestId);
    }
  });
  if (!finished) throw new ApiError(0, null, 'stream ended without a final event', res.headers.get('X-Request-Id'));
}

/** Parses a text/event-stream body (WHATWG HTML § 9.2): events end at a blank line. */
async function readEvents(stream, handle) {
  const reader = stream.getReader();
  // stream: true keeps a multi-byte character split across chunks for the next call.
  const decoder = new TextDecoder('utf-8');
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buf += done ? decoder.decode() : decoder.decode(value, { stream: true });
      buf = buf.replace(/\r\n?/g, '\n');
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
  } catch (e) {
    // An error event or bad data: stop reading so the server sees the client go.
    reader.cancel().catch(() => {});
    throw e;
  }
}

/**
 * Uploads files (multipart parts `files`, optional `folder`) with XMLHttpRequest, the one
 * browser API that reports upload progress; {@code onProgress(fraction 0..1)}. Resolves to the
 * 202 body {jobId, status}.
 */
export function upload(files, folder, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    if (folder) form.append('folder', folder);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', 'v1/documents');
    for (const [k, v] of Object.entries(headers({ Accept: 'application/json' }))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch (ignored) { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body || {});
      } else {
        const e = (body && body.error) || {};
        if (xhr.status === 401) onUnauthorized(e);
        reject(new ApiError(xhr.status, e.field, e.message, e.requestId));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, null, 'network error'));
    xhr.send(form);
  });
}
