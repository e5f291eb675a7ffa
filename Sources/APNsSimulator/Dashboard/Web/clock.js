// The simulator's clock as the page follows it. The devices' time may run faster than real time
// (`livepush simulator --clock-rate 600`) or be moved forward (POST /v1/clock): every date the page
// compares (stale, the 8-hour end, dismissal) and the lock-screen clocks use this time, not the browser's.
import { clockTime } from "./dom.js";

let reading = { now: Date.now(), rate: 1, readAt: Date.now() };

/** The simulated time now, in milliseconds since 1970. */
export function clockNow() {
  return reading.now + (Date.now() - reading.readAt) * reading.rate;
}

/** Takes a `GET /v1/clock` answer (or a `clockChanged` event's data). */
export function setClock(answer) {
  const now = Date.parse(answer.now);
  if (Number.isNaN(now) || typeof answer.rate !== "number") return;
  reading = { now, rate: answer.rate, readAt: Date.now() };
}

/** Shows the simulated time in the top bar when it is not real time (rate ≠ 1 or moved forward). */
export function renderClock(element) {
  const skew = Math.abs(clockNow() - Date.now());
  const simulated = reading.rate !== 1 || skew > 60_000;
  element.hidden = !simulated;
  element.dataset.rate = String(reading.rate);
  if (simulated) {
    element.textContent = `Simulated time ${clockTime(new Date(clockNow()).toISOString())} · ×${reading.rate}`;
  }
}
