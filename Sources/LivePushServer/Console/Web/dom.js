// Builds elements whose content is text only: no user value is ever parsed as HTML.
export function el(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined && options.text !== null) node.textContent = String(options.text);
  for (const [key, value] of Object.entries(options.data ?? {})) node.dataset[key] = String(value);
  for (const child of children) node.append(child);
  return node;
}

export function row(cells, options = {}) {
  return el('tr', options, cells.map((cell) => (cell instanceof Node ? el('td', {}, [cell]) : el('td', { text: cell ?? '' }))));
}

export function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

export function facts(dl, pairs) {
  dl.replaceChildren(...pairs.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', { text: value ?? '—' })]));
}

export function age(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return '—';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

export function since(iso) {
  return iso ? age((Date.now() - Date.parse(iso)) / 1000) : '—';
}
