// Hostile queries shared by the hostile suite and the tests of the query pool.

/**
 * `let` bindings that double at each level: compiling it would take 2^depth steps, which
 * no scan bound sees; past 13 levels the emulator refuses it (400) before it runs.
 */
export function exponentialQuery(depth: number, tail = "count"): string {
  let q = "let t0 = print x = 1;";
  for (let i = 1; i <= depth; i++) q += ` let t${i} = union t${i - 1}, t${i - 1};`;
  return `${q} t${depth} | ${tail}`;
}

/** Text that makes a backtracking engine try 2^n ways before failing `(a+)+$`. */
export const CATASTROPHIC_TEXT = `${"a".repeat(28)}!`;

/** Every place the query language takes a regular expression, each with the catastrophic pattern. */
export function catastrophicForms(dataset: string): string[] {
  const d = `['${dataset}']`;
  return [
    `${d} | where s matches regex '(a+)+$' | count`,
    `${d} | extend x = extract('(a+)+$', 0, s) | where isnotnull(x) | count`,
    `${d} | extend x = extract_all('((a+)+)$', s) | count`,
    `${d} | extend x = replace_regex(s, '(a+)+$', 'b') | count`,
    `${d} | extend x = trim('(a|a)+', s) | count`,
    `${d} | parse kind=regex s with '(a+)+' x '$' | count`,
    `${d} | parse-kv s as (k: string) with (regex = '((?:a+)+)(!)') | count`,
  ];
}

/**
 * Within every bound but time: one row whose single expression runs a regex replace over
 * a 29 MB string (built by `strcat`, under the expansion limit). The engine looks at its
 * clock between rows, and this one row alone takes far longer than a short limit and its
 * grace (over 30 s measured), so the query is stopped (408) however warm the worker is.
 * (Many rows over a smaller constant string were not enough: the constant is computed
 * once, so a warm worker answered within the limit.)
 */
export function stuckQuery(tail = "count"): string {
  const s0 = "a".repeat(900);
  const eight = (s: string): string => Array.from({ length: 8 }, () => s).join(", ");
  let q = `let s0 = '${s0}';`;
  for (let i = 1; i <= 5; i++) q += ` let s${i} = strcat(${eight(`s${i - 1}`)});`;
  return `${q} print x = 1 | extend n = strlen(replace_regex(s5, 'a', 'b')) | ${tail}`;
}
