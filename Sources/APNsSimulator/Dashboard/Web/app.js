// The dashboard: renders the simulated world from the control API's GET routes, then follows the event
// stream, re-reading the device an event is about (and showing alerts as banners as they arrive).
import { h } from "./dom.js";
import { deviceView, updateDeviceView, tickClocks, showBanner, visibleState, activityTitle, BANNER_SECONDS } from "./devices.js";
import { renderLog, LOG_LIMIT } from "./push-log.js";
import { followEvents } from "./stream.js";
import { clockNow, setClock, renderClock } from "./clock.js";
import { CHANNEL_EVENT_KINDS, renderChannels, channelRefresher } from "./channels.js";

const EVENT_KINDS = [
  "appRegistered", "deviceAdded", "appInstalled", "tokenIssued", "tokenRotated", "activityStarted",
  "activityUpdated", "activityStale", "activityEnded", "activityDismissed", "alertShown", "decodeFailure",
  "pushIgnored", "pushExchange", "webhookDelivered", "webhookFailed", "clockChanged", ...CHANNEL_EVENT_KINDS,
];

const state = {
  devices: new Map(),
  order: [],
  pushes: [],
  bannered: new Set(),
  pendingDevices: new Map(),
  // While a full load is in flight: the devices that events touched meanwhile (its answer may predate them).
  touchedDuringLoad: null,
  // Whether a channel event arrived since the last full load started (its channels may predate it).
  channelsTouchedDuringLoad: false,
};

const elements = {
  devices: document.getElementById("devices"),
  log: document.getElementById("push-log-rows"),
  channels: document.getElementById("channel-rows"),
  error: document.getElementById("load-error"),
  connection: document.getElementById("connection"),
  clock: document.getElementById("clock"),
};

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (!response.ok) {
    let message = `${response.status}`;
    try { message += `: ${(await response.json()).error.message}`; } catch { /* not the JSON error shape */ }
    throw new Error(`GET ${path} failed (${message})`);
  }
  return response.json();
}

function reportError(error) {
  elements.error.hidden = false;
  elements.error.textContent = `Could not read the simulator: ${error.message}`;
}

function clearError() {
  elements.error.hidden = true;
  elements.error.textContent = "";
}

function articleFor(deviceId) {
  return elements.devices.querySelector(`article[data-device-id="${CSS.escape(deviceId)}"]`);
}

function renderDevices() {
  if (state.order.length === 0) {
    elements.devices.replaceChildren(h("p", { class: "empty" },
      "No simulated devices yet. Add one with POST /v1/devices, or run ", h("code", {}, "livepush demo"), "."));
    return;
  }
  const now = clockNow();
  const articles = state.order.map((id) => {
    const device = state.devices.get(id);
    const existing = articleFor(id);
    if (existing) {
      updateDeviceView(existing, device, now);
      return existing;
    }
    return deviceView(device, now);
  });
  const current = [...elements.devices.children];
  if (current.length !== articles.length || current.some((child, index) => child !== articles[index])) {
    elements.devices.replaceChildren(...articles);
  }
}

/** Banners for alerts that were shown moments ago (on load) or arrive on the stream. */
function bannerAlerts(device, onlyRecent) {
  const article = articleFor(device.deviceId);
  if (!article) return;
  for (const activity of device.activities || []) {
    for (const alert of activity.alerts || []) {
      if (state.bannered.has(alert.apnsId)) continue;
      state.bannered.add(alert.apnsId);
      const age = clockNow() - Date.parse(alert.shownAt);
      if (!onlyRecent || age < BANNER_SECONDS * 1000) {
        showBanner(article.querySelector(".banners"), alert, activityTitle(activity));
      }
    }
  }
}

function storeDevices(devices) {
  state.order = devices.map((device) => device.deviceId);
  state.devices = new Map(devices.map((device) => [device.deviceId, device]));
}

const samePush = (a, b) => a.apnsId === b.apnsId && a.receivedAt === b.receivedAt;

/**
 * Reads every device and the push log. Events keep arriving while the answers are on their way, so the
 * log keeps what events added (the answer may have been made before them) and the devices that events
 * touched meanwhile are read again afterwards.
 */
async function loadEverything() {
  const touched = new Set();
  state.touchedDuringLoad = touched;
  state.channelsTouchedDuringLoad = false;
  let devices;
  let pushes;
  let channels;
  let clock;
  try {
    [devices, pushes, channels, clock] = await Promise.all([
      getJSON("/v1/devices"), getJSON(`/v1/pushes?limit=${LOG_LIMIT}`), getJSON("/v1/channels"), getJSON("/v1/clock"),
    ]);
  } finally {
    if (state.touchedDuringLoad === touched) state.touchedDuringLoad = null;
  }
  setClock(clock);
  renderClock(elements.clock);
  storeDevices(devices.devices);
  const loaded = [...pushes.pushes].reverse();
  const newer = state.pushes.filter((entry) => !loaded.some((known) => samePush(known, entry)));
  state.pushes = [...newer, ...loaded]
    .sort((a, b) => Date.parse(b.receivedAt) - Date.parse(a.receivedAt))
    .slice(0, LOG_LIMIT);
  renderDevices();
  for (const device of devices.devices) bannerAlerts(device, true);
  renderLog(elements.log, state.pushes);
  renderChannels(elements.channels, channels.channels);
  clearError();
  for (const deviceId of touched) refreshDevice(deviceId);
  if (state.channelsTouchedDuringLoad) refreshChannels();
}

/** Re-reads one device soon (events often come in bursts for the same device). */
function refreshDevice(deviceId) {
  if (state.pendingDevices.has(deviceId)) return;
  state.pendingDevices.set(deviceId, setTimeout(async () => {
    state.pendingDevices.delete(deviceId);
    try {
      const device = await getJSON(`/v1/devices/${encodeURIComponent(deviceId)}`);
      if (!state.devices.has(deviceId)) state.order.push(deviceId);
      state.devices.set(deviceId, device);
      renderDevices();
      bannerAlerts(device, false);
      clearError();
    } catch (error) {
      reportError(error);
    }
  }, 50));
}

async function refreshAllDevices() {
  try {
    const devices = await getJSON("/v1/devices");
    storeDevices(devices.devices);
    renderDevices();
    for (const device of devices.devices) bannerAlerts(device, false);
    clearError();
  } catch (error) {
    reportError(error);
  }
}

const refreshChannels = channelRefresher(() => getJSON("/v1/channels"), elements.channels, reportError);

function applyEvent(event) {
  const data = event.data || {};
  if (CHANNEL_EVENT_KINDS.includes(event.kind)) {
    state.channelsTouchedDuringLoad = true;
    refreshChannels();
    return;
  }
  if (event.kind === "pushExchange") {
    if (!state.pushes.some((entry) => samePush(entry, data))) {
      state.pushes.unshift(data);
      state.pushes.length = Math.min(state.pushes.length, LOG_LIMIT);
      renderLog(elements.log, state.pushes);
    }
    return;
  }
  if (event.kind === "appRegistered") return;
  if (event.kind === "clockChanged") {
    // The clock moved: every date on the page compares against the new time.
    setClock(data);
    renderClock(elements.clock);
    refreshAllDevices();
    return;
  }
  if (typeof data.deviceId === "string") {
    state.touchedDuringLoad?.add(data.deviceId);
    refreshDevice(data.deviceId);
  } else {
    refreshAllDevices();
  }
}

/** Once a second: the clocks, and any activity whose stale, 8-hour or dismissal date has just passed. */
function tick() {
  const now = clockNow();
  renderClock(elements.clock);
  tickClocks(elements.devices, now);
  for (const device of state.devices.values()) {
    const article = articleFor(device.deviceId);
    if (!article) continue;
    const changed = (device.activities || []).some((activity) => {
      const shown = article.querySelector(`li[data-activity-id="${CSS.escape(activity.activityId)}"]`);
      return shown && shown.dataset.state !== visibleState(activity, now);
    });
    if (changed) refreshDevice(device.deviceId);
  }
}

async function start() {
  try {
    await loadEverything();
  } catch (error) {
    reportError(error);
  }
  followEvents({
    url: "/v1/events",
    kinds: EVENT_KINDS,
    indicator: elements.connection,
    onEvent: applyEvent,
    // Re-read after every (re)connection: events published while the stream was down are not replayed.
    onOpen: () => loadEverything().catch(reportError),
  });
  setInterval(tick, 1000);
}

start();
