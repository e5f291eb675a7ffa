// The broadcast channels panel: every channel with its storage policy, subscriber count and what its
// last broadcast did. Read from GET /v1/channels; re-read (at most every 250 ms) on channel events.
import { h, clockTime } from "./dom.js";

export const CHANNEL_EVENT_KINDS = ["channelCreated", "channelDeleted", "channelSubscribed", "broadcastApplied"];

const REFRESH_DELAY_MS = 250;

function outcomesText(summary) {
  if (!summary) return "—";
  const parts = Object.entries(summary.outcomes || {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, count]) => `${count} ${kind}`);
  return `${clockTime(summary.receivedAt)}: ${parts.join(", ") || "no subscribers"}`;
}

function channelRow(channel) {
  return h("tr", { "data-channel-id": channel.channelId },
    h("td", { class: "channel-id" }, h("code", {}, channel.channelId)),
    h("td", {}, channel.bundleId, h("span", { class: "hint" }, ` ${channel.environment}`)),
    h("td", {}, channel.messageStoragePolicy === 1 ? "1 (most recent)" : "0 (no storage)"),
    h("td", { class: "subscriber-count" }, String(channel.subscriberCount)),
    h("td", { class: "broadcast-count" }, String(channel.broadcastCount)),
    h("td", { class: "last-broadcast" }, outcomesText(channel.lastBroadcast)));
}

/** Renders the channels into the table body. */
export function renderChannels(body, channels) {
  if (channels.length === 0) {
    body.replaceChildren(h("tr", { class: "empty-row" }, h("td", { colspan: 6 },
      "No channels. Create one with ", h("code", {}, "livepush channels create"), " or POST /v1/channels.")));
    return;
  }
  body.replaceChildren(...channels.map(channelRow));
}

/**
 * A refresher that coalesces bursts of channel events (a bulk subscription sends one per activity).
 * Loads may overlap (an event during a load starts the next one) and finish out of order: an answer
 * older than the one on screen is dropped, so the table never goes back to an earlier state.
 */
export function channelRefresher(load, body, onError) {
  let pending = null;
  let issued = 0;
  let shown = 0;
  return () => {
    if (pending) return;
    pending = setTimeout(async () => {
      pending = null;
      const ticket = ++issued;
      try {
        const channels = (await load()).channels;
        if (ticket < shown) return;
        shown = ticket;
        renderChannels(body, channels);
      } catch (error) {
        onError(error);
      }
    }, REFRESH_DELAY_MS);
  };
}
