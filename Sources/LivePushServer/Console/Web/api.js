const storageKey = 'livepush.operatorKey';

export class SignedOut extends Error {}

export const credential = {
  get: () => sessionStorage.getItem(storageKey),
  set: (key) => sessionStorage.setItem(storageKey, key),
  clear: () => sessionStorage.removeItem(storageKey),
};

// The message of an API refusal ({error: {field, rule, message}}), as text.
function refusal(body, status) {
  const error = body && body.error;
  return error ? `${error.field ?? ''} ${error.rule}: ${error.message}`.trim() : `HTTP ${status}`;
}

export async function call(path, { method = 'GET', query = {}, body } = {}) {
  const key = credential.get();
  if (!key) throw new SignedOut('no operator key');
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const url = `/v1/operator/${path}` + (search.size ? `?${search}` : '');
  const headers = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer',
  });
  const answer = await response.json().catch(() => null);
  if (response.status === 401 || response.status === 403) {
    credential.clear();
    throw new SignedOut(refusal(answer, response.status));
  }
  if (!response.ok) throw new Error(refusal(answer, response.status));
  // Any request that succeeds clears the error the page shows in its header.
  document.dispatchEvent(new CustomEvent('console-ok'));
  return answer;
}

export function segment(id) {
  return encodeURIComponent(id);
}
