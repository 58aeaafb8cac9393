// A synth-time look at an APL predicate, before any service sees it: the mistakes that make
// a filter unreadable (an unclosed quote or bracket, a pipe, an operator with nothing on one
// side). The service still compiles every generated query at plan time; this only makes the
// common slips fail at synth, naming the construct and the attribute.

const SYMBOLIC = ["==", "!=", ">=", "<=", "=~", "!~", ">", "<", "+", "*", "/", "%"];

/** Why `text` is not a readable predicate, or undefined. */
export function filterProblem(text: string): string | undefined {
  if (text.trim() === "") return "expected a predicate, got an empty string";
  const closing: Record<string, string> = { "(": ")", "[": "]" };
  const stack: string[] = [];
  const tokens: string[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) return `the quote at column ${i + 1} is not closed`;
      tokens.push("value");
      i = j + 1;
      continue;
    }
    if (c === "(" || c === "[") {
      stack.push(c);
      tokens.push(c);
      i++;
      continue;
    }
    if (c === ")" || c === "]") {
      const open = stack.pop();
      if (!open || closing[open] !== c) return `"${c}" at column ${i + 1} closes nothing`;
      if (tokens[tokens.length - 1] === "op") return `an operator has nothing on its right before column ${i + 1}`;
      tokens.push(")");
      i++;
      continue;
    }
    if (c === "|" || c === ";") return `"${c}" at column ${i + 1}: a filter is one predicate, not a query`;
    const op = SYMBOLIC.find((s) => text.startsWith(s, i));
    if (op) {
      const prev = tokens[tokens.length - 1];
      if (prev === undefined || prev === "op" || prev === "(" || prev === ",") return `"${op}" at column ${i + 1} has nothing on its left`;
      tokens.push("op");
      i += op.length;
      continue;
    }
    if (c === ",") {
      tokens.push(",");
      i++;
      continue;
    }
    const word = /^[A-Za-z0-9_.!@$-]+/.exec(text.slice(i));
    if (!word) return `unexpected "${c}" at column ${i + 1}`;
    tokens.push("value");
    i += word[0].length;
  }
  if (stack.length > 0) return `"${stack[stack.length - 1]}" is not closed`;
  if (tokens[tokens.length - 1] === "op") return "the last operator has nothing on its right";
  return undefined;
}
