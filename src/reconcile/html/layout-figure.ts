// A dashboard change as a reviewer pictures it: the layout on the 12-column grid before and
// after, each chart a box with its name and type, added, removed, moved and changed charts
// marked. The marks come from the document diff itself (path-diff.ts, charts matched by
// id), so that the picture and the listed changes cannot tell two stories.
import type { Attribute } from "../../resources";
import { documentChanges, documentOf, type PathChange } from "../path-diff";
import { layoutSvg, type LayoutTile } from "./charts";
import { figure, table } from "./page";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The array and item id a path starts with: `charts[errors].name` → ["charts", "errors"]. */
function itemOf(path: string): [string, string] | undefined {
  const m = /^(charts|layout)\[("(?:[^"\\]|\\.)*"|[^\]]+)\]/.exec(path);
  if (!m) return undefined;
  return [m[1], m[2].startsWith('"') ? (JSON.parse(m[2]) as string) : m[2]];
}

/** What the change does to each chart id, on each side. */
function marksOf(changes: readonly PathChange[]): { before: Map<string, LayoutTile["mark"]>; after: Map<string, LayoutTile["mark"]> } {
  const before = new Map<string, LayoutTile["mark"]>();
  const after = new Map<string, LayoutTile["mark"]>();
  const set = (side: Map<string, LayoutTile["mark"]>, id: string, mark: LayoutTile["mark"]) => {
    // A chart added or removed stays so; moved outranks an edit of its content.
    const rank = { unchanged: 0, changed: 1, moved: 2, added: 3, removed: 3 };
    if (rank[mark] > rank[side.get(id) ?? "unchanged"]) side.set(id, mark);
  };
  for (const c of changes) {
    const item = itemOf(c.path);
    if (!item) continue;
    const [, id] = item;
    if (c.item === "added") set(after, id, "added");
    else if (c.item === "removed") set(before, id, "removed");
    else if (c.item === "moved") {
      set(before, id, "moved");
      set(after, id, "moved");
    } else {
      set(before, id, "changed");
      set(after, id, "changed");
    }
  }
  return { before, after };
}

function tiles(doc: Json | undefined, marks: Map<string, LayoutTile["mark"]>): LayoutTile[] {
  if (!doc || !Array.isArray(doc.layout)) return [];
  const charts = new Map<string, Json>();
  for (const c of Array.isArray(doc.charts) ? doc.charts : []) if (isObject(c) && typeof c.id === "string") charts.set(c.id, c);
  return doc.layout.filter(isObject).map((l) => {
    const id = String(l.i);
    const chart = charts.get(id);
    const name = typeof chart?.name === "string" && chart.name !== "" ? chart.name : id;
    return { id, name, type: typeof chart?.type === "string" ? chart.type : "?", x: Number(l.x) || 0, y: Number(l.y) || 0, w: Number(l.w) || 1, h: Number(l.h) || 1, mark: marks.get(id) ?? "unchanged" };
  });
}

function describe(t: LayoutTile): string[] {
  return [t.id, t.name, t.type, `x ${t.x}, y ${t.y}, ${t.w}×${t.h}`, t.mark];
}

const LEGEND = `<div class="legend">${[
  ["added", "#2ca02c", "#e3f6e5"],
  ["removed", "#d62728", "#fde8e8"],
  ["moved", "#e08a00", "#fff4e0"],
  ["changed", "#3366cc", "#e8f0fe"],
  ["unchanged", "#9aa5b1", "#eef1f5"],
]
  .map(([label, stroke, fill]) => `<span><i style="border-color:${stroke};background:${fill}"></i>${label}</span>`)
  .join("")}</div>`;

/**
 * The layout preview of a dashboard's change, or undefined when there is none to draw: not
 * a document on either side, or a document that holds a sensitive value (never drawn).
 */
export function layoutFigure(address: string, attr: Attribute | undefined, before: unknown, after: unknown, hidden: boolean): string | undefined {
  if (hidden) return undefined;
  const changes = documentChanges(attr, before, after);
  if (!changes) return undefined;
  const absent = (v: unknown) => v === undefined || v === null;
  const beforeDoc = absent(before) ? undefined : documentOf(attr, before);
  const afterDoc = absent(after) ? undefined : documentOf(attr, after);
  const marks = marksOf(changes);
  const sides = [
    ...(beforeDoc ? [{ which: "before", tiles: tiles(beforeDoc, marks.before) }] : []),
    ...(afterDoc ? [{ which: "after", tiles: tiles(afterDoc, marks.after) }] : []),
  ].filter((s) => s.tiles.length > 0);
  if (sides.length === 0) return undefined;
  const count = (mark: LayoutTile["mark"]) => new Set(sides.flatMap((s) => s.tiles.filter((t) => t.mark === mark).map((t) => t.id))).size;
  const summary = (["added", "removed", "moved", "changed"] as const).map((m) => `${count(m)} ${m}`).join(", ");
  return figure({
    chart: "dashboard-layout",
    address,
    panels: sides.map((s) => ({
      label: `Layout of ${address} ${s.which} the change, 12 columns: ${s.tiles.map((t) => `${t.name} (${t.type}${t.mark === "unchanged" ? "" : `, ${t.mark}`})`).join("; ")}`,
      svg: layoutSvg(`${s.which}: ${s.tiles.length} chart${s.tiles.length === 1 ? "" : "s"}`, s.tiles),
    })),
    legend: LEGEND,
    caption: `Layout on the 12-column grid: ${summary}`,
    details: sides.map((s) => `<p>${s.which}</p>${table(["id", "name", "type", "place", "change"], s.tiles.map(describe))}`).join("\n"),
  });
}
