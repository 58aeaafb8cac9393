// Moves: an object keeps its id while its address changes. Two sources, one effect on
// the state (the entry is renamed; nothing is called on the service):
//   - `moved` blocks, evaluated as Terraform evaluates them: `from` and `to` are resource
//     addresses of one type; chains (a -> b, b -> c) end at their last address; a `from`
//     not in state does nothing; a move onto an address that holds an object is refused;
//     a `from` still declared is refused (the configuration would hold the object twice);
//   - a natural key (see plan.ts): a delete of A and a create of B with one key become a
//     move of A to B, when B's configuration can be applied to A's object by an update.
import { TYPE_PREFIX } from "../resources";
import type { StateFile } from "./state";

/** One `moved { from = ..., to = ... }` block, as cdktf's moveTo / moveToId / moveFromId synthesize it. */
export interface MoveStatement {
  from: string;
  to: string;
}

/** A move the plan makes: the state entry at `from` is the object declared at `to`. */
export interface PlannedMove {
  from: string;
  to: string;
  /** A `moved` block said so, or the natural key showed it. */
  foundBy: "moved block" | "natural key";
}

const RESOURCE_ADDRESS = /^([a-z][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_-]*)$/;

function typeOf(address: string): string {
  return address.slice(0, address.indexOf("."));
}

/**
 * Reads the `moved` section of a synthesized stack (a list of blocks, or one block).
 * Addresses inside modules or with an index are Terraform's alone: ods plans single
 * objects of the root module.
 */
export function parseMovedSection(section: unknown): { statements: MoveStatement[]; problems: string[] } {
  const statements: MoveStatement[] = [];
  const problems: string[] = [];
  if (section === undefined || section === null) return { statements, problems };
  const blocks = Array.isArray(section) ? section : [section];
  for (const [i, raw] of blocks.entries()) {
    const where = `at $.moved[${i}]`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      problems.push(`${where}: expected an object with "from" and "to"`);
      continue;
    }
    const block = raw as Record<string, unknown>;
    const ends: string[] = [];
    for (const end of ["from", "to"] as const) {
      const v = typeof block[end] === "string" ? (block[end] as string).replace(/^\$\{(.*)\}$/, "$1").trim() : undefined;
      if (v === undefined || v === "") {
        problems.push(`${where}: "${end}" must be a resource address such as ods_user.name`);
      } else if (!RESOURCE_ADDRESS.test(v)) {
        problems.push(`${where}: ${end} = "${v}" is not a resource address of the root module (TYPE.NAME); moves into modules or between instances are evaluated by the Terraform path only (cdktf deploy or terraform apply)`);
      } else if (!v.startsWith(TYPE_PREFIX)) {
        problems.push(`${where}: ${end} = "${v}" is not an ods resource; ods plan/apply moves ods resources only`);
      } else {
        ends.push(v);
      }
    }
    if (ends.length !== 2) continue;
    const [from, to] = ends;
    if (typeOf(from) !== typeOf(to)) {
      problems.push(`${where}: cannot move ${from} to ${to}: a move keeps the object, so both addresses must be of one resource type`);
      continue;
    }
    if (from === to) {
      problems.push(`${where}: from and to are both ${from}`);
      continue;
    }
    statements.push({ from, to });
  }
  return { statements, problems };
}

/**
 * The moves `moved` blocks make on a state, as Terraform evaluates them; throws nothing,
 * answers the problems (each names the block and what to do). `declared`: the
 * addresses the configuration declares.
 */
export function movesOfStatements(statements: readonly MoveStatement[], state: StateFile, declared: ReadonlySet<string>): { moves: PlannedMove[]; problems: string[] } {
  const problems: string[] = [];
  const next = new Map<string, string>();
  for (const s of statements) {
    const other = next.get(s.from);
    if (other !== undefined && other !== s.to) {
      problems.push(`moved blocks disagree: ${s.from} is moved to ${other} and to ${s.to}; keep one of them`);
      continue;
    }
    next.set(s.from, s.to);
    if (declared.has(s.from)) {
      problems.push(`the moved block from ${s.from} to ${s.to} names ${s.from}, which the configuration still declares: an object cannot live at both addresses; remove the declaration of ${s.from} (or the moved block)`);
    }
  }
  // Chains end at their last address; a cycle has none.
  const finalOf = (start: string): string | undefined => {
    let at = start;
    for (let steps = 0; steps <= next.size; steps++) {
      const to = next.get(at);
      if (to === undefined) return at;
      at = to;
    }
    return undefined;
  };
  const moves: PlannedMove[] = [];
  const arriving = new Map<string, string>();
  for (const from of next.keys()) {
    if (!state.resources[from]) continue; // nothing at `from`: the block does nothing
    const to = finalOf(from);
    if (to === undefined) {
      problems.push(`moved blocks form a cycle through ${from}; a chain of moves must end at one address`);
      continue;
    }
    const earlier = arriving.get(to);
    if (earlier !== undefined) {
      problems.push(`moved blocks move both ${earlier} and ${from} (each in state) to ${to}; one address holds one object: remove one of these moves`);
      continue;
    }
    // The destination holds an object that stays there (it is not itself moving away).
    if (state.resources[to] && !next.has(to)) {
      problems.push(`the moved block to ${to} is refused: ${to} already manages the object ${state.resources[to].id}, and ${from} manages ${state.resources[from].id}; remove the moved block, or "ods state rm" one of them first`);
      continue;
    }
    arriving.set(to, from);
    moves.push({ from, to, foundBy: "moved block" });
  }
  return { moves, problems };
}

/** Renames the state entries of `moves`, all at once (a chain or a swap reads the entries before any is renamed). */
export function applyMoves(state: StateFile, moves: readonly { from: string; to: string }[]): void {
  const entries = moves.map((m) => [m.to, state.resources[m.from]] as const);
  for (const m of moves) delete state.resources[m.from];
  for (const [to, entry] of entries) if (entry) state.resources[to] = entry;
  // What depended on a moved address depends on its new one.
  const renamed = new Map(moves.map((m) => [m.from, m.to]));
  for (const r of Object.values(state.resources)) {
    if (r.dependsOn.some((d) => renamed.has(d))) r.dependsOn = r.dependsOn.map((d) => renamed.get(d) ?? d);
  }
}

/**
 * The lines that make a move explicit, for a plan or an error: the cdktf call on the new
 * construct (cdktf's moveFromId synthesizes the moved block) and the HCL block.
 */
export function explicitMoveLines(from: string, to: string, constructPath?: string): string[] {
  return [
    `cdktf: call .moveFromId("${from}") on the construct ${constructPath ? `at ${constructPath}` : `of ${to}`}`,
    "HCL:   moved {",
    `         from = ${from}`,
    `         to   = ${to}`,
    "       }",
  ];
}

/**
 * The move `ods state mv SOURCE DESTINATION` makes, checked as Terraform's state mv checks
 * it: the source is in state, the destination is a free address of the same type.
 */
export function stateMove(state: StateFile, source: string, destination: string): { from: string; to: string; id: string } {
  for (const [name, address] of [["source", source], ["destination", destination]] as const) {
    if (!RESOURCE_ADDRESS.test(address)) throw new Error(`the ${name} "${address}" is not a resource address (TYPE.NAME, such as ods_user.alice)`);
  }
  const entry = state.resources[source];
  if (!entry) throw new Error(`${source} is not in the state; "ods state list" shows what is`);
  if (typeOf(source) !== typeOf(destination)) throw new Error(`cannot move ${source} to ${destination}: the object is a ${typeOf(source)}, so its new address must be of that type`);
  if (source === destination) throw new Error(`${source} and ${destination} are the same address`);
  const taken = state.resources[destination];
  if (taken) throw new Error(`${destination} already manages the object ${taken.id}; "ods state rm ${destination}" first if that is no longer wanted`);
  return { from: source, to: destination, id: entry.id };
}
