// Follows the simulator's event stream (GET /v1/events, Server-Sent Events) and reconnects with
// exponential backoff when it drops, keeping the connection indicator current.

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;

/**
 * Connects and calls `onEvent(envelope)` for every event ({sequence, kind, at, data}) and `onOpen()` after
 * every (re)connection (the caller re-reads the state it may have missed).
 */
export function followEvents({ url, kinds, onEvent, onOpen, indicator }) {
  let attempt = 0;
  let source = null;

  const show = (state, text) => {
    indicator.dataset.state = state;
    indicator.querySelector(".connection-text").textContent = text;
  };

  const connect = () => {
    show(attempt === 0 ? "connecting" : "reconnecting", attempt === 0 ? "Connecting to the event stream…" : "Reconnecting…");
    source = new EventSource(url);
    source.onopen = () => {
      attempt = 0;
      show("live", "Live: following the event stream");
      onOpen();
    };
    for (const kind of kinds) {
      source.addEventListener(kind, (message) => {
        try {
          onEvent(JSON.parse(message.data));
        } catch (error) {
          console.error("dashboard: unreadable event", kind, error);
        }
      });
    }
    source.onerror = () => {
      source.close();
      attempt += 1;
      const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1));
      const jittered = Math.round(delay * (0.8 + Math.random() * 0.4));
      show("reconnecting", `Disconnected: reconnecting in ${Math.ceil(jittered / 1000)} s (attempt ${attempt})`);
      setTimeout(connect, jittered);
    };
  };

  connect();
}
