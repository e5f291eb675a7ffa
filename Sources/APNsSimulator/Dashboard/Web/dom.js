// Small DOM and formatting helpers shared by the dashboard's views. Text always goes in through
// textContent, never as HTML.

/** Creates an element: h("p", {class: "x"}, "text", child). Attributes with null/false are skipped. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "style" && typeof value === "object") {
      Object.assign(element.style, value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A token shortened for display, never shown whole (first and last 4 digits, as the logs do). */
export function shortToken(token) {
  if (!token) return "—";
  if (token.length <= 12) return "*".repeat(token.length);
  return `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/** "14:03:27" in the viewer's time zone. */
export function clockTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** A JSON value as short text for key/value views. */
export function describeValue(value) {
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** The value of a header from a list of {name, value}. */
export function header(headers, name) {
  const found = (headers || []).find((field) => field.name.toLowerCase() === name);
  return found ? found.value : null;
}
