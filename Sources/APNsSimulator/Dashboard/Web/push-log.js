// Renders the push log: one row per request the APNs endpoint answered, newest first, with its headers,
// APNs' status and reason, and what the device did with it.
import { h, clockTime, shortToken, header } from "./dom.js";

/** How many rows the log keeps on screen. */
export const LOG_LIMIT = 200;

/** What the device did, in words a person reads: [label, tone]. */
export function outcomeLabel(outcome, status) {
  if (!outcome) return status === 200 ? ["—", "none"] : ["not delivered", "none"];
  switch (outcome.kind) {
    case "applied": return ["applied", "good"];
    case "started": return ["started", "good"];
    case "decodeFailure": return ["decode failure", "bad"];
    case "notDelivered": return ["not delivered", "bad"];
    case "throttled": return ["ignored (throttled)", "warn"];
    case "ignoredOlderTimestamp": return ["ignored (older timestamp)", "warn"];
    case "ignoredAfterEnd": return ["ignored (after end)", "warn"];
    case "dropped": return ["ignored (dropped)", "warn"];
    case "noDevice": return ["ignored (no device)", "warn"];
    default: return [outcome.kind, "warn"];
  }
}

function headerChips(entry) {
  const pushType = header(entry.headers, "apns-push-type");
  const priority = header(entry.headers, "apns-priority");
  const topic = header(entry.headers, "apns-topic");
  const chip = (label, value, extra = "") => h("span", { class: `chip ${extra}` }, h("span", { class: "chip-label" }, label), " ", value);
  return [
    chip("type", pushType || "—"),
    chip("priority", priority || "10 (default)", priority === "10" || !priority ? "chip-hot" : ""),
    chip("topic", topic || "—"),
  ];
}

/** One row of the log. */
export function logRow(entry) {
  const ok = entry.status === 200;
  const [label, tone] = outcomeLabel(entry.outcome, entry.status);
  const detail = entry.outcome && entry.outcome.detail;
  return h("tr", { class: `log-row ${ok ? "log-ok" : "log-rejected"}`, "data-apns-id": entry.apnsId },
    h("td", { class: "log-time" }, h("time", { datetime: entry.receivedAt }, clockTime(entry.receivedAt))),
    h("td", { class: "log-token" }, h("code", { title: "push token (shortened)" }, shortToken(entry.token))),
    h("td", { class: "log-headers" }, headerChips(entry)),
    h("td", { class: "log-status" },
      h("span", { class: `status status-${ok ? "ok" : "error"}` }, String(entry.status)),
      entry.reason ? h("span", { class: "reason" }, ` ${entry.reason}`) : null),
    h("td", { class: "log-outcome" },
      h("span", { class: `outcome outcome-${tone}`, "data-kind": entry.outcome ? entry.outcome.kind : "none" }, label),
      detail ? h("span", { class: "outcome-detail" }, detail) : null));
}

/** The log body for entries given newest first. */
export function renderLog(tbody, entriesNewestFirst) {
  if (entriesNewestFirst.length === 0) {
    tbody.replaceChildren(h("tr", { class: "empty-row" }, h("td", { colspan: 5 }, "No pushes yet.")));
    return;
  }
  tbody.replaceChildren(...entriesNewestFirst.slice(0, LOG_LIMIT).map(logRow));
}
