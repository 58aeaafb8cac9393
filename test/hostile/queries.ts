// Hostile queries shared by the hostile suite and the tests of the query pool.

/** `let` bindings that double at each level: compiling it takes 2^depth steps, which no scan bound sees. */
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
