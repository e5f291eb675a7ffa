// The overview's charts, drawn as SVG elements by this script (no library): pushes per minute by outcome
// as stacked bars, and the acceptance-to-outcome latency (p50, p99) as lines on a logarithmic scale. Every
// label is text (textContent); colours come from console.css through class names.

const svgNS = 'http://www.w3.org/2000/svg';
export const outcomes = ['accepted', 'rejected', 'failed', 'expired', 'coalesced'];
const size = { width: 720, height: 200, left: 56, right: 12, top: 10, bottom: 26 };

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(svgNS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function clock(iso) {
  const date = new Date(iso);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

export function milliseconds(value) {
  if (value === undefined || value === null) return '—';
  if (value < 1) return `${value.toFixed(2)} ms`;
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60000) return `${(value / 1000).toFixed(value < 10000 ? 2 : 1)} s`;
  return `${(value / 60000).toFixed(1)} min`;
}

// 1, 2 or 5 times a power of ten, at least `value`.
function niceCeiling(value) {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value);
}

// The frame: the plot's area, the horizontal grid with its labels, and a time label every 10 minutes.
function frame(node, minutes, ticks) {
  const plot = { x: size.left, y: size.top, width: size.width - size.left - size.right, height: size.height - size.top - size.bottom };
  node.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
  node.replaceChildren();
  const grid = svg('g', { class: 'grid' });
  for (const tick of ticks) {
    grid.append(svg('line', { x1: plot.x, x2: plot.x + plot.width, y1: tick.y, y2: tick.y }));
    grid.append(svg('text', { x: plot.x - 6, y: tick.y + 4, 'text-anchor': 'end' }, tick.label));
  }
  const step = plot.width / minutes.length;
  minutes.forEach((minute, index) => {
    if ((minutes.length - 1 - index) % 10 === 0) {
      grid.append(svg('text', { x: plot.x + index * step + step / 2, y: size.height - 8, 'text-anchor': 'middle' }, clock(minute.start)));
    }
  });
  node.append(grid);
  return { plot, step };
}

// Stacked bars of pushes per minute by outcome; returns the hour's totals by outcome.
export function drawOutcomes(node, minutes) {
  const totals = Object.fromEntries(outcomes.map((outcome) => [outcome, 0]));
  let highest = 0;
  for (const minute of minutes) {
    let sum = 0;
    for (const outcome of outcomes) {
      totals[outcome] += minute.counts[outcome];
      sum += minute.counts[outcome];
    }
    highest = Math.max(highest, sum);
  }
  const top = niceCeiling(highest);
  const area = { y: size.top, height: size.height - size.top - size.bottom };
  const ticks = [0, 0.5, 1].map((fraction) => ({ y: area.y + area.height * (1 - fraction), label: String(Math.round(top * fraction)) }));
  const { plot, step } = frame(node, minutes, ticks);
  const bars = svg('g', { class: 'bars' });
  minutes.forEach((minute, index) => {
    let base = plot.y + plot.height;
    const parts = outcomes.filter((outcome) => minute.counts[outcome] > 0);
    for (const outcome of parts) {
      const height = (minute.counts[outcome] / top) * plot.height;
      base -= height;
      const bar = svg('rect', {
        class: `bar outcome-${outcome}`, x: plot.x + index * step + 1, y: base, width: Math.max(1, step - 2), height: Math.max(height, 0.5),
      });
      bar.dataset.outcome = outcome;
      bar.append(svg('title', {}, `${clock(minute.start)}: ${parts.map((name) => `${name} ${minute.counts[name]}`).join(', ')}`));
      bars.append(bar);
    }
  });
  node.append(bars);
  return totals;
}

// The p50 and p99 latency lines (gaps where a minute has no sample), on a log scale spanning whole decades.
export function drawLatency(node, minutes) {
  const values = minutes.flatMap((minute) => [minute.latencyP50Ms, minute.latencyP99Ms]).filter((value) => value > 0);
  const low = Math.floor(Math.log10(Math.min(...values, 10)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...values, 100))));
  const area = { y: size.top, height: size.height - size.top - size.bottom };
  const scale = (value) => area.y + area.height * (1 - (Math.log10(Math.max(value, 10 ** low)) - low) / (high - low));
  const ticks = [];
  const decade = (power) => (power < 3 ? `${10 ** power} ms` : `${10 ** (power - 3)} s`);
  for (let power = low; power <= high; power += 1) ticks.push({ y: scale(10 ** power), label: decade(power) });
  const { plot, step } = frame(node, minutes, ticks);
  for (const [key, name] of [['latencyP99Ms', 'p99'], ['latencyP50Ms', 'p50']]) {
    const line = svg('g', { class: `latency latency-${name}` });
    line.dataset.line = name;
    let path = '';
    let previous = false;
    minutes.forEach((minute, index) => {
      const value = minute[key];
      if (value === undefined || value === null) {
        previous = false;
        return;
      }
      const x = plot.x + index * step + step / 2;
      const y = scale(value);
      path += `${previous ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)} `;
      previous = true;
      const dot = svg('circle', { cx: x, cy: y, r: 2.2 });
      dot.append(svg('title', {}, `${clock(minute.start)}: ${name} ${milliseconds(value)} (${minute.latencySamples} pushes)`));
      line.append(dot);
    });
    line.prepend(svg('path', { d: path.trim() || 'M0,0' }));
    node.append(line);
  }
}
