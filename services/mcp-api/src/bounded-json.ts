/**
 * JSON text of a value, cut after a bound, with work proportional to the bound rather than to
 * the value: a text projection of a result whose output holds millions of numbers must not
 * serialize all of them to show the first few thousand characters.
 */

/** Whether a member of this value is written by JSON.stringify (functions, symbols and undefined are not). */
function written(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/**
 * The first `limit` characters of `JSON.stringify(value)` (all of it when shorter), and whether
 * it was cut. Values are plain JSON data (what crosses the result contract): no `toJSON`, no cycles.
 */
export function boundedJson(value: unknown, limit: number): { text: string; cut: boolean } {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length <= limit;
  };
  const walk = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object') return push(written(node) ? (JSON.stringify(node) ?? 'null') : 'null');
    if (Array.isArray(node)) {
      if (!push('[')) return false;
      for (let i = 0; i < node.length; i++) {
        if (i > 0 && !push(',')) return false;
        const member: unknown = node[i];
        if (!walk(written(member) ? member : null)) return false;
      }
      return push(']');
    }
    if (!push('{')) return false;
    let first = true;
    for (const [key, member] of Object.entries(node)) {
      if (!written(member)) continue;
      if (!push(`${first ? '' : ','}${JSON.stringify(key)}:`)) return false;
      first = false;
      if (!walk(member)) return false;
    }
    return push('}');
  };
  const complete = walk(value);
  const text = parts.join('');
  return complete && text.length <= limit ? { text, cut: false } : { text: text.slice(0, limit), cut: true };
}
