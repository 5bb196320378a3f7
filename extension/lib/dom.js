// Pieces of the popup and options pages. Everything from a document or from
// the server goes in as text nodes, never as HTML.
export function textElement(tag, content, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = content;
  return el;
}

// The snippet with its highlights in <mark>: the spans are byte offsets into
// the UTF-8 snippet, so the bytes are sliced, not the string.
export function snippetElement(snippet, highlights) {
  const p = document.createElement('p');
  p.className = 'snippet';
  const bytes = new TextEncoder().encode(snippet);
  const decode = (a, b) => new TextDecoder().decode(bytes.subarray(a, b));
  let at = 0;
  for (const [begin, end] of highlights) {
    if (begin < at || end > bytes.length || begin >= end) continue;
    p.appendChild(document.createTextNode(decode(at, begin)));
    p.appendChild(textElement('mark', decode(begin, end)));
    at = end;
  }
  p.appendChild(document.createTextNode(decode(at, bytes.length)));
  return p;
}

// The query with a caret under the character holding byte `position` (the
// server counts bytes of the UTF-8 query).
export function caretLines(query, position) {
  const bytes = new TextEncoder().encode(query);
  const prefix = new TextDecoder().decode(bytes.subarray(0, Math.min(position, bytes.length)));
  return query + '\n' + ' '.repeat([...prefix].length) + '^';
}
