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
 * Within every bound but time: 1,024 rows made by a doubling `let` (under the expansion
 * limit), each running a regex over a 3.7 MB string. The engine looks at its clock every
 * 256 rows, seconds apart here, so the query runs past a short limit and its grace (408).
 */
export function stuckQuery(tail = "count"): string {
  const s0 = "a".repeat(900);
  let q = `let s0 = '${s0}'; let s1 = strcat(s0, s0, s0, s0, s0, s0, s0, s0); let s2 = strcat(s1, s1, s1, s1, s1, s1, s1, s1); let s3 = strcat(s2, s2, s2, s2, s2, s2, s2, s2); let s4 = strcat(s3, s3, s3, s3, s3, s3, s3, s3);`;
  q += " let t0 = print x = 1;";
  for (let i = 1; i <= 10; i++) q += ` let t${i} = union t${i - 1}, t${i - 1};`;
  return `${q} t10 | extend n = strlen(replace_regex(s4, 'a', 'b')) | ${tail}`;
}
