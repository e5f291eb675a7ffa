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

// The sentence shown instead of a table that has no rows (never bare headers): a <p class="empty"> right
// after the table, made on first use.
function emptyNote(table) {
  let note = table.nextElementSibling;
  if (!note || !note.classList.contains('empty')) {
    note = el('p', { className: 'empty', data: { for: table.id } });
    table.after(note);
  }
  return note;
}

// Puts `rows` in the table's body; with none, hides the table and says `empty` in words.
export function fill(tbody, rows, empty = 'Nothing to show.') {
  tbody.replaceChildren(...rows);
  const table = tbody.closest('table');
  const note = emptyNote(table);
  table.hidden = rows.length === 0;
  note.hidden = rows.length !== 0;
  note.textContent = rows.length === 0 ? empty : '';
}

// A table shown `size` rows at a time, with "Newer"/"Older" buttons and "1–10 of 29" after it. The page
// is kept across refreshes (the poller refills the table every 2 s), and moved back when rows go.
export class Pager {
  constructor(tbody, { size = 10, empty, previous = 'Newer', next = 'Older' } = {}) {
    this.tbody = tbody;
    this.size = size;
    this.empty = empty;
    this.index = 0;
    this.rows = [];
    const table = tbody.closest('table');
    this.previous = el('button', { text: previous, data: { pager: 'previous' } });
    this.next = el('button', { text: next, data: { pager: 'next' } });
    this.position = el('span', { className: 'position' });
    for (const button of [this.previous, this.next]) button.type = 'button';
    this.nav = el('nav', { className: 'pager', data: { for: table.id } }, [this.previous, this.position, this.next]);
    table.after(this.nav);
    this.previous.addEventListener('click', () => this.go(this.index - 1));
    this.next.addEventListener('click', () => this.go(this.index + 1));
  }

  get pages() {
    return Math.max(1, Math.ceil(this.rows.length / this.size));
  }

  reset() {
    this.index = 0;
  }

  show(rows) {
    this.rows = rows;
    this.go(this.index);
  }

  go(index) {
    this.index = Math.min(Math.max(index, 0), this.pages - 1);
    const start = this.index * this.size;
    fill(this.tbody, this.rows.slice(start, start + this.size), this.empty);
    this.nav.hidden = this.rows.length <= this.size;
    this.previous.disabled = this.index === 0;
    this.next.disabled = this.index === this.pages - 1;
    this.position.textContent = `${start + 1}–${Math.min(start + this.size, this.rows.length)} of ${this.rows.length}`;
  }
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
