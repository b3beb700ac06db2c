// A small evaluator of Make's IML, limited to what Plink's Make app uses: `{{ }}` holding a path (`body.lead.id`),
// a string, number, `null`/`true`/`false`, or a call of `replace(text; pattern; replacement)` (pattern `/re/flags`
// or plain text) or `ifempty(a; b)`. As in Make, a string that is exactly one `{{ }}` keeps the value's type (a
// number, an object, undefined), and anything else is text. Anything outside that subset throws, so a definition
// using more than this evaluator knows fails its test instead of being half run.

export type Scope = Record<string, unknown>;

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  replace(text, pattern, replacement) {
    const source = String(text ?? '');
    const regex = /^\/(.*)\/([gimsuy]*)$/s.exec(String(pattern));
    return regex ? source.replace(new RegExp(regex[1], regex[2]), String(replacement)) : source.split(String(pattern)).join(String(replacement));
  },
  ifempty(value, fallback) {
    return value === undefined || value === null || value === '' ? fallback : value;
  },
};

/** Evaluates every string of a definition (objects and arrays recursively). */
export function evaluate(template: unknown, scope: Scope): unknown {
  if (typeof template === 'string') return evaluateString(template, scope);
  if (Array.isArray(template)) return template.map((item) => evaluate(item, scope));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, evaluate(value, scope)]));
  }
  return template;
}

function evaluateString(text: string, scope: Scope): unknown {
  const whole = /^\{\{([\s\S]*)\}\}$/.exec(text);
  if (whole && !whole[1].includes('}}')) return expression(whole[1], scope);
  return text.replace(/\{\{([\s\S]*?)\}\}/g, (_m, inner: string) => {
    const value = expression(inner, scope);
    return value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

function expression(source: string, scope: Scope): unknown {
  const parser = new Parser(source, scope);
  const value = parser.value();
  parser.end();
  return value;
}

class Parser {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly scope: Scope,
  ) {}

  end(): void {
    this.space();
    if (this.at !== this.source.length) this.fail('unexpected text');
  }

  value(): unknown {
    this.space();
    const c = this.source[this.at];
    if (c === '"' || c === "'") return this.string(c);
    const number = /^-?\d+(\.\d+)?/.exec(this.source.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    const name = this.name();
    this.space();
    if (this.source[this.at] === '(') return this.call(name);
    if (name === 'null') return null;
    if (name === 'true') return true;
    if (name === 'false') return false;
    return this.path(name);
  }

  private call(name: string): unknown {
    const fn = FUNCTIONS[name];
    if (!fn) this.fail(`function ${name}() is not supported`);
    this.at += 1;
    const args: unknown[] = [];
    for (;;) {
      args.push(this.value());
      this.space();
      const c = this.source[this.at++];
      if (c === ')') break;
      if (c !== ';') this.fail('expected ; or )');
    }
    return fn(...args);
  }

  private path(first: string): unknown {
    let value: unknown = this.scope[first];
    while (this.source[this.at] === '.') {
      this.at += 1;
      const key = this.name();
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
    return value;
  }

  private name(): string {
    if (this.source[this.at] === '`') {
      const close = this.source.indexOf('`', this.at + 1);
      if (close < 0) this.fail('unclosed `');
      const name = this.source.slice(this.at + 1, close);
      this.at = close + 1;
      return name;
    }
    const match = /^[A-Za-z_$][\w$-]*/.exec(this.source.slice(this.at));
    if (!match) this.fail('expected a name');
    this.at += match![0].length;
    return match![0];
  }

  private string(quote: string): string {
    let out = '';
    this.at += 1;
    while (this.at < this.source.length && this.source[this.at] !== quote) {
      if (this.source[this.at] === '\\') this.at += 1;
      out += this.source[this.at++];
    }
    if (this.source[this.at] !== quote) this.fail('unclosed string');
    this.at += 1;
    return out;
  }

  private space(): void {
    while (/\s/.test(this.source[this.at] ?? '')) this.at += 1;
  }

  private fail(why: string): never {
    throw new Error(`IML: ${why} at ${this.at} in {{${this.source}}}`);
  }
}
