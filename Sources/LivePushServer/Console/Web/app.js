import { credential, SignedOut } from './api.js';
import { activities, overview, report, resources, sends, shapes } from './views.js';

const $ = (id) => document.getElementById(id);
const views = { overview, activities, sends, shapes, resources };
const interval = 2000;
let current = 'overview';
let timer = null;

function setStatus(state, text) {
  $('status').dataset.state = state;
  $('status').textContent = text;
}

function showSignIn(message) {
  stop();
  $('views').hidden = true;
  $('tabs').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message ?? '';
  setStatus('signed-out', 'signed out');
}

function showConsole() {
  $('sign-in').hidden = true;
  $('views').hidden = false;
  $('tabs').hidden = false;
  $('sign-out').hidden = false;
  show(current);
}

function show(name) {
  current = name;
  // The charts are read again when their view is shown, not only every 10 s.
  if (name === 'overview') overview.seriesAt = 0;
  for (const section of document.querySelectorAll('section.view')) section.hidden = section.id !== name;
  for (const button of $('tabs').querySelectorAll('button')) button.setAttribute('aria-pressed', String(button.dataset.view === name));
  restart();
}

// Refreshes under way: while hidden, 'paused' is shown only once they are over, so 'paused' means
// that no request is in flight and none is scheduled.
let inFlight = 0;

async function tick() {
  timer = null;
  inFlight += 1;
  try {
    await views[current].refresh();
    if (!document.hidden) setStatus('live', `live · ${new Date().toLocaleTimeString()}`);
  } catch (error) {
    report(error);
  } finally {
    inFlight -= 1;
  }
  if (document.hidden) {
    if (credential.get() && inFlight === 0) setStatus('paused', 'paused while hidden');
  } else if (credential.get() && !timer && inFlight === 0) {
    timer = setTimeout(tick, interval);
  }
}

function stop() {
  if (timer) clearTimeout(timer);
  timer = null;
}

function restart() {
  stop();
  if (document.hidden) {
    if (inFlight === 0) setStatus('paused', 'paused while hidden');
    return;
  }
  tick();
}

document.addEventListener('console-error', (event) => {
  const error = event.detail;
  if (error instanceof SignedOut) {
    showSignIn(error.message);
  } else {
    setStatus('error', error.message);
  }
});

document.addEventListener('console-ok', () => {
  if ($('status').dataset.state === 'error') setStatus('live', `live · ${new Date().toLocaleTimeString()}`);
});

document.addEventListener('visibilitychange', () => {
  if (credential.get()) restart();
});

$('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  credential.set($('key').value.trim());
  $('key').value = '';
  showConsole();
});

$('sign-out').addEventListener('click', () => {
  credential.clear();
  showSignIn();
});

$('tabs').addEventListener('click', (event) => {
  const view = event.target.dataset?.view;
  if (view) show(view);
});

$('find-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('find-error').textContent = '';
  activities.find($('find-by').value, $('find-value').value.trim()).then(() => {
    $('find-error').textContent = '';
  }, (error) => {
    if (error instanceof SignedOut) report(error); else $('find-error').textContent = error.message;
  });
});

$('resource-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('resource-error').textContent = '';
  resources.find($('resource-user').value.trim(), $('resource-key').value.trim()).catch((error) => {
    if (error instanceof SignedOut) report(error); else $('resource-error').textContent = error.message;
  });
});

$('more-activities').addEventListener('click', () => activities.page(true).catch(report));
$('more-sends').addEventListener('click', () => sends.refresh(true).catch(report));

$('test-push-form').addEventListener('submit', (event) => {
  event.preventDefault();
  activities.testPush($('test-confirm').value, $('test-content').value).catch((error) => {
    if (error instanceof SignedOut) report(error); else $('test-result').textContent = error.message;
  });
});

if (credential.get()) showConsole(); else showSignIn();
document.body.dataset.ready = 'true';
