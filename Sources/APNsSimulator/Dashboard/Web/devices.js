// Renders each simulated device as an iPhone lock screen holding its Live Activities (in the order the
// control API gives: highest relevance first, dismissed last), and shows alerts as banners.
import { h, clockTime, describeValue } from "./dom.js";

/** How long an alert banner stays before it fades away (it stays in the activity's alert history). */
export const BANNER_SECONDS = 6;

/**
 * The state a person sees: the API's, or stale/ended/dismissed once those dates have passed since it was
 * read (`now` is the simulator's time; `activeUntil` is when the system ends an activity, 8 hours in).
 */
export function visibleState(activity, now = Date.now()) {
  const passed = (iso) => iso && Date.parse(iso) <= now;
  if (activity.state === "dismissed" || passed(activity.dismissalDate)) return "dismissed";
  if (activity.state === "ended" || passed(activity.activeUntil)) return "ended";
  if (activity.state === "stale" || passed(activity.staleDate)) return "stale";
  return "active";
}

/** The title of an activity: a name-like attribute (e.g. the hero), else the attributes type. */
export function activityTitle(activity) {
  const attributes = activity.attributes || {};
  const preferred = ["name", "heroName", "hero", "title", "displayName"];
  for (const key of preferred) {
    const value = attributes[key];
    if (typeof value === "string" && value) return value;
    if (value && typeof value === "object" && typeof value.name === "string") return value.name;
  }
  const firstString = Object.values(attributes).find((value) => typeof value === "string" && value);
  return firstString || activity.attributesType;
}

/** True for Emoji Rangers-like content: a health level 0...1 and an event description. */
export function isAdventure(state) {
  return state && typeof state.currentHealthLevel === "number" && typeof state.eventDescription === "string";
}

function healthView(level) {
  const clamped = Math.max(0, Math.min(1, level));
  const percent = Math.round(clamped * 100);
  const tone = clamped > 0.5 ? "good" : clamped > 0.25 ? "warn" : "bad";
  return h("div", { class: "health" },
    h("div", {
      class: `health-bar health-${tone}`, role: "meter", "aria-label": "Health",
      "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": percent, "aria-valuetext": `${percent}%`,
    }, h("div", { class: "health-fill", style: { width: `${percent}%` } })),
    h("span", { class: "health-value" }, `${percent}%`));
}

function keyValueView(entries) {
  if (entries.length === 0) return null;
  return h("dl", { class: "content-state" },
    entries.map(([key, value]) => [h("dt", {}, key), h("dd", {}, describeValue(value))]));
}

function contentView(state) {
  if (isAdventure(state)) {
    const others = Object.entries(state).filter(([key]) => key !== "currentHealthLevel" && key !== "eventDescription");
    return [
      healthView(state.currentHealthLevel),
      h("p", { class: "event-description" }, state.eventDescription),
      keyValueView(others),
    ];
  }
  return keyValueView(Object.entries(state || {})) || h("p", { class: "muted" }, "(empty content state)");
}

function alertText(alert) {
  return [alert.title, alert.body].filter(Boolean).join(" — ") || "(alert without text)";
}

function alertHistory(alerts) {
  if (!alerts || alerts.length === 0) return null;
  const newestFirst = [...alerts].reverse();
  return h("section", { class: "alert-history", "aria-label": "Alert history" },
    h("h5", {}, `Alerts (${alerts.length})`),
    h("ol", {}, newestFirst.map((alert) => h("li", { class: "alert-entry" },
      h("time", { datetime: alert.shownAt }, clockTime(alert.shownAt)), " ",
      h("span", { class: "alert-text" }, alertText(alert)),
      alert.sound ? h("span", { class: "alert-sound" }, ` 🔊 ${alert.sound}`) : null))));
}

const badgeText = { stale: "stale", ended: "ended", dismissed: "dismissed" };

function activityView(activity, now) {
  const state = visibleState(activity, now);
  const badge = badgeText[state] ? h("span", { class: `badge badge-${state}` }, badgeText[state]) : null;
  const facts = [`relevance ${describeValue(activity.relevanceScore)}`];
  if (state === "ended" && activity.dismissalDate) facts.push(`leaves the lock screen at ${clockTime(activity.dismissalDate)}`);
  if (state === "stale" && activity.staleDate) facts.push(`stale since ${clockTime(activity.staleDate)}`);
  if (activity.lastTimestamp) facts.push(`updated ${clockTime(activity.lastTimestamp)}`);
  return h("li", {
      class: `activity activity-${state}`, "data-activity-id": activity.activityId, "data-state": state,
      "aria-label": `${activityTitle(activity)}, ${state}`,
    },
    h("header", { class: "activity-header" },
      h("span", { class: "app-badge", "aria-hidden": "true" }, (activity.bundleId || "?").split(".").pop().slice(0, 1).toUpperCase()),
      h("div", { class: "activity-heading" },
        h("h4", { class: "activity-title" }, activityTitle(activity)),
        h("span", { class: "activity-type" }, activity.attributesType)),
      badge),
    state === "ended" ? h("p", { class: "final-label" }, "Final state") : null,
    h("div", { class: "activity-content" }, contentView(activity.contentState)),
    h("p", { class: "activity-facts" }, facts.join(" · ")),
    alertHistory(activity.alerts));
}

function lockClock(now) {
  const date = new Date(now);
  return h("div", { class: "lock-clock", "aria-hidden": "true" },
    h("div", { class: "lock-date" }, date.toLocaleDateString([], { weekday: "long", day: "numeric", month: "long" })),
    h("div", { class: "lock-time" }, lockTime(date)));
}

/** "9:41" as a lock screen shows it: hours and minutes, no AM/PM. */
function lockTime(date) {
  return new Intl.DateTimeFormat([], { hour: "numeric", minute: "2-digit" }).formatToParts(date)
    .filter((part) => part.type !== "dayPeriod").map((part) => part.value).join("").trim();
}

/** One device as a lock screen, with an empty banner area (aria-live, so new alerts are announced). */
export function deviceView(device, now = Date.now()) {
  const article = h("article", { class: "phone", "data-device-id": device.deviceId, "aria-labelledby": `name-${device.deviceId}` },
    h("div", { class: "screen" },
      h("div", { class: "status-bar", "data-part": "status", "aria-hidden": "true" }),
      lockClock(now),
      h("div", { class: "banners", "aria-live": "polite", "aria-label": "Notifications" }),
      h("div", { "data-part": "activities" })),
    h("h3", { class: "device-name", id: `name-${device.deviceId}`, "data-part": "name" }),
    h("p", { class: "device-meta", "data-part": "meta" }));
  updateDeviceView(article, device, now);
  return article;
}

/** Re-renders a device's parts in place; its banners (and their fade) are left alone. */
export function updateDeviceView(article, device, now = Date.now()) {
  const activities = device.activities || [];
  const parts = {
    status: h("div", { class: "status-bar", "data-part": "status", "aria-hidden": "true" },
      h("span", {}, device.environment), h("span", { class: "island" }),
      h("span", {}, device.frequentPushesEnabled ? "⚡︎ frequent" : "")),
    activities: h("div", { class: "screen-content", "data-part": "activities" },
      activities.length === 0
        ? h("p", { class: "no-activities" }, "No Live Activities")
        : h("ol", { class: "activities", "aria-label": "Live Activities, most relevant first" },
            activities.map((activity) => activityView(activity, now)))),
    name: h("h3", { class: "device-name", id: `name-${device.deviceId}`, "data-part": "name" }, device.name),
    meta: h("p", { class: "device-meta", "data-part": "meta" },
      `${(device.apps || []).map((app) => app.bundleId).join(", ")} · ${activities.length} activit${activities.length === 1 ? "y" : "ies"}`),
  };
  for (const [name, element] of Object.entries(parts)) {
    article.querySelector(`[data-part="${name}"]`).replaceWith(element);
  }
}

/** Moves the lock-screen clocks on. */
export function tickClocks(root, now = Date.now()) {
  for (const clock of root.querySelectorAll(".lock-clock")) clock.replaceWith(lockClock(now));
}

/** Shows an alert as a banner in `container`; it fades and is removed after BANNER_SECONDS. */
export function showBanner(container, alert, title) {
  const banner = h("div", { class: "banner", "data-apns-id": alert.apnsId },
    h("div", { class: "banner-app" }, h("span", {}, title), h("time", { datetime: alert.shownAt }, "now")),
    alert.title ? h("p", { class: "banner-title" }, alert.title) : null,
    alert.body ? h("p", { class: "banner-body" }, alert.body) : null,
    alert.sound ? h("p", { class: "banner-sound" }, `🔊 ${alert.sound}`) : null);
  banner.style.animationDuration = `${BANNER_SECONDS}s`;
  container.prepend(banner);
  setTimeout(() => banner.remove(), BANNER_SECONDS * 1000);
}
