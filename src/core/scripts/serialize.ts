/**
 * Runs in the page (sent as source text, so it must not use anything from this module): a
 * JSON-safe copy of any value within a character budget. What JSON cannot hold is described:
 * elements as "[object HTMLDivElement]", functions, cycles, undefined, NaN, bigint, symbols.
 * Only own data properties are read, so no getter of the page runs.
 */
export function jsonSafeInPage(this: unknown, maxChars: number): { json: string; truncated: boolean } {
  let budget = maxChars;
  let truncated = false;
  const stack: unknown[] = [];
  const tag = (v: unknown) => Object.prototype.toString.call(v);
  const spend = (n: number) => {
    budget -= n;
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (budget <= 0) {
      truncated = true;
      return '[…]';
    }
    if (v === null) return null;
    switch (typeof v) {
      case 'string': {
        const s = v.length > budget ? `${v.slice(0, Math.max(0, budget))}…` : v;
        if (s !== v) truncated = true;
        spend(s.length + 2);
        return s;
      }
      case 'number':
        spend(8);
        return Number.isFinite(v) ? v : String(v);
      case 'boolean':
        spend(5);
        return v;
      case 'undefined':
        spend(11);
        return '[undefined]';
      case 'bigint':
        spend(8);
        return `${String(v)}n`;
      case 'symbol':
        spend(12);
        return String(v);
      case 'function':
        spend(20);
        return `[function ${(v as { name?: string }).name || 'anonymous'}]`;
    }
    const o = v as object;
    if (stack.includes(o)) return '[Circular]';
    if (typeof Node !== 'undefined' && o instanceof Node) return tag(o);
    if (typeof Window !== 'undefined' && o instanceof Window) return tag(o);
    if (o instanceof Date) return Number.isNaN(o.getTime()) ? 'Invalid Date' : o.toISOString();
    if (o instanceof RegExp) return String(o);
    if (o instanceof Error) return `${o.name}: ${o.message}`;
    if (o instanceof Promise) return '[object Promise]';
    if (depth >= 30) {
      truncated = true;
      return '[…]';
    }
    stack.push(o);
    try {
      const listLike =
        Array.isArray(o) ||
        o instanceof Set ||
        ArrayBuffer.isView(o) ||
        (typeof NodeList !== 'undefined' && o instanceof NodeList) ||
        (typeof HTMLCollection !== 'undefined' && o instanceof HTMLCollection);
      if (listLike) {
        const out: unknown[] = [];
        const items = Array.from(o as Iterable<unknown>);
        for (const item of items) {
          if (budget <= 0) {
            truncated = true;
            out.push(`[… ${items.length - out.length} more]`);
            break;
          }
          spend(1);
          out.push(walk(item, depth + 1));
        }
        return out;
      }
      if (o instanceof Map) {
        const out: unknown[] = [];
        for (const [k, val] of o) {
          if (budget <= 0) {
            truncated = true;
            break;
          }
          out.push([walk(k, depth + 1), walk(val, depth + 1)]);
        }
        return { '[Map]': out };
      }
      const out: Record<string, unknown> = {};
      const keys = Object.keys(o);
      for (const k of keys) {
        if (budget <= 0) {
          truncated = true;
          out['…'] = `${keys.length - Object.keys(out).length} more keys`;
          break;
        }
        spend(k.length + 4);
        const d = Object.getOwnPropertyDescriptor(o, k);
        out[k] = d && 'value' in d ? walk(d.value, depth + 1) : '[getter]';
      }
      const proto = Object.getPrototypeOf(o) as { constructor?: { name?: string } } | null;
      const name = proto?.constructor?.name;
      if (keys.length === 0 && name && name !== 'Object') return tag(o);
      return out;
    } finally {
      stack.pop();
    }
  };
  const value = walk(this, 0);
  return { json: JSON.stringify(value === undefined ? null : value), truncated };
}
