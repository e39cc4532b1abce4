/**
 * Just enough GraphQL to answer the raw queries real clients send to Twitch: one anonymous/named query with
 * field selections, aliases and literal or variable arguments. Unknown fields fail validation the way a real
 * GraphQL server does, so a client that asks for something Twitch would reject is caught by tests too.
 */

export type GqlValue = string | number | boolean | null | GqlValue[] | { [key: string]: GqlValue };

export interface Field {
  alias: string;
  name: string;
  args: Record<string, GqlValue>;
  selections: Field[] | null;
}

type Token = { kind: "punct" | "name" | "string" | "number"; value: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/[\s,]/.test(c)) {
      i++;
    } else if (c === "#") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if ("{}():[]$!=@".includes(c)) {
      tokens.push({ kind: "punct", value: c });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === "\\" ? 2 : 1;
      if (j >= source.length) throw new SyntaxError("Unterminated string");
      tokens.push({ kind: "string", value: JSON.parse(source.slice(i, j + 1)) as string });
      i = j + 1;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(source.slice(i));
      if (!m) throw new SyntaxError(`Unexpected character "${c}"`);
      tokens.push({ kind: "number", value: m[0] });
      i += m[0].length;
    } else if (/[_A-Za-z]/.test(c)) {
      const m = /^[_A-Za-z][_0-9A-Za-z]*/.exec(source.slice(i))!;
      tokens.push({ kind: "name", value: m[0] });
      i += m[0].length;
    } else {
      throw new SyntaxError(`Unexpected character "${c}"`);
    }
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly variables: Record<string, unknown>,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }
  private next(): Token {
    const t = this.tokens[this.pos++];
    if (!t) throw new SyntaxError("Unexpected end of document");
    return t;
  }
  private expect(value: string): void {
    const t = this.next();
    if (t.value !== value || (t.kind !== "punct" && t.kind !== "name")) {
      throw new SyntaxError(`Expected "${value}", found "${t.value}"`);
    }
  }
  private isPunct(value: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === "punct" && t.value === value;
  }

  document(): Field[] {
    const first = this.peek();
    if (first?.kind === "name") {
      if (first.value !== "query") throw new SyntaxError(`Only queries are supported, not "${first.value}"`);
      this.next();
      if (this.peek()?.kind === "name") this.next();
      if (this.isPunct("(")) this.skipBalanced("(", ")");
    }
    const selections = this.selectionSet();
    if (this.pos !== this.tokens.length) throw new SyntaxError("Only one operation per document is supported");
    return selections;
  }

  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      const t = this.next();
      if (t.kind === "punct" && t.value === open) depth++;
      if (t.kind === "punct" && t.value === close) depth--;
    } while (depth > 0);
  }

  private selectionSet(): Field[] {
    this.expect("{");
    const fields: Field[] = [];
    while (!this.isPunct("}")) fields.push(this.field());
    this.expect("}");
    if (fields.length === 0) throw new SyntaxError("Empty selection set");
    return fields;
  }

  private field(): Field {
    const t = this.next();
    if (t.kind !== "name") throw new SyntaxError(`Expected a field name, found "${t.value}"`);
    let alias = t.value;
    let name = t.value;
    if (this.isPunct(":")) {
      this.next();
      const real = this.next();
      if (real.kind !== "name") throw new SyntaxError(`Expected a field name, found "${real.value}"`);
      name = real.value;
    }
    const args: Record<string, GqlValue> = {};
    if (this.isPunct("(")) {
      this.next();
      while (!this.isPunct(")")) {
        const key = this.next();
        if (key.kind !== "name") throw new SyntaxError(`Expected an argument name, found "${key.value}"`);
        this.expect(":");
        args[key.value] = this.value();
      }
      this.expect(")");
    }
    const selections = this.isPunct("{") ? this.selectionSet() : null;
    return { alias, name, args, selections };
  }

  private value(): GqlValue {
    const t = this.next();
    if (t.kind === "string") return t.value;
    if (t.kind === "number") return Number(t.value);
    if (t.kind === "name") {
      if (t.value === "true") return true;
      if (t.value === "false") return false;
      if (t.value === "null") return null;
      return t.value; // enum value
    }
    if (t.value === "$") {
      const name = this.next().value;
      return (this.variables[name] ?? null) as GqlValue;
    }
    if (t.value === "[") {
      const list: GqlValue[] = [];
      while (!this.isPunct("]")) list.push(this.value());
      this.expect("]");
      return list;
    }
    if (t.value === "{") {
      const obj: Record<string, GqlValue> = {};
      while (!this.isPunct("}")) {
        const key = this.next().value;
        this.expect(":");
        obj[key] = this.value();
      }
      this.expect("}");
      return obj;
    }
    throw new SyntaxError(`Unexpected "${t.value}"`);
  }
}

export function parseQuery(source: string, variables: Record<string, unknown> = {}): Field[] {
  return new Parser(tokenize(source), variables).document();
}

/** Field name -> type name; types not in the schema map are scalars. */
export type Schema = Record<string, Record<string, string>>;

export function validate(schema: Schema, typeName: string, fields: Field[]): string[] {
  const errors: string[] = [];
  const type = schema[typeName]!;
  for (const f of fields) {
    const fieldType = type[f.name];
    if (fieldType === undefined) {
      errors.push(`Cannot query field "${f.name}" on type "${typeName}".`);
      continue;
    }
    const isObject = fieldType in schema;
    if (isObject && !f.selections) {
      errors.push(`Field "${f.name}" of type "${fieldType}" must have a selection of subfields.`);
    } else if (!isObject && f.selections) {
      errors.push(`Field "${f.name}" must not have a selection since type "${fieldType}" has no subfields.`);
    } else if (isObject && f.selections) {
      errors.push(...validate(schema, fieldType, f.selections));
    }
  }
  return errors;
}

/** Copies only the selected fields out of plain data, recursing through objects and lists. */
export function project(value: unknown, selections: Field[] | null): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => project(v, selections));
  if (!selections) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of selections) out[f.alias] = project(source[f.name], f.selections);
  return out;
}
