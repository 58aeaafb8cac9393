// A typed dashboard over the generated ods_dashboard class, the way aws-cdk's L2 classes
// sit over its L1 classes: charts of each documented type made by factory methods, a
// grid layout computed from the order of the charts, owner, time window and refresh. Each
// chart's id comes from the chart itself (its `id`, else its type and name), never from
// its position, so that inserting a chart reads as one chart added in a plan. It
// writes the same JSON document a user would paste from the UI into the generated
// class's `dashboard` attribute, so the engines, the comparison and the synth-time
// checks are those of ods_dashboard.
import { createHash } from "node:crypto";
import { Lazy } from "cdktf";
import { Construct } from "constructs";
import { Dashboard } from "./gen/dashboard";
import { EVERYONE, GRID_COLUMNS } from "./resources/dashboard-document";

/** The chart types a dashboard document knows. */
export enum DashboardChartType {
  TIME_SERIES = "TimeSeries",
  HEATMAP = "Heatmap",
  LOG_STREAM = "LogStream",
  PIE = "Pie",
  SCATTER = "Scatter",
  TABLE = "Table",
  TOP_K = "TopK",
  STATISTIC = "Statistic",
  NOTE = "Note",
  MONITOR_LIST = "MonitorList",
  SMART_FILTER = "SmartFilter",
  SPACER = "Spacer",
}

/** What every chart may set. */
export interface ChartProps {
  /**
   * The chart's id in the document, unique in the dashboard (layout items name it).
   *
   * Set it to keep a chart's identity across renames, or to keep the id an existing
   * dashboard already has (e.g. "chart-2").
   * @default derived from the type and the name, e.g. "timeseries-requests"
   */
  readonly id?: string;
  /** Title shown on the chart (1 to 500 characters). */
  readonly name?: string;
  /** Columns of the 12-column grid. @default 6 */
  readonly width?: number;
  /** Rows of the grid (1 to 100). @default 4 */
  readonly height?: number;
}

/** A chart drawn from a query. */
export interface QueryChartProps extends ChartProps {
  /** The query-language query. */
  readonly apl: string;
}

export interface NoteChartProps extends ChartProps {
  /** The note's text (Markdown). */
  readonly text: string;
}

export interface MonitorListChartProps extends ChartProps {
  /** Ids of the monitors to list (e.g. a monitor construct's `id`). @default every monitor */
  readonly monitorIds?: string[];
}

const DEFAULT_WIDTH = 6;
const DEFAULT_HEIGHT = 4;

/** One chart of a dashboard; made by the static methods, placed by the dashboard. */
export class DashboardChart {
  public static timeSeries(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.TIME_SERIES, props);
  }
  public static heatmap(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.HEATMAP, props);
  }
  public static logStream(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.LOG_STREAM, props);
  }
  public static pie(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.PIE, props);
  }
  public static scatter(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.SCATTER, props);
  }
  public static table(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.TABLE, props);
  }
  public static topK(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.TOP_K, props);
  }
  public static statistic(props: QueryChartProps): DashboardChart {
    return DashboardChart.query(DashboardChartType.STATISTIC, props);
  }
  /** A chart of any query type. */
  public static query(type: DashboardChartType, props: QueryChartProps): DashboardChart {
    return new DashboardChart(type, props, { query: { apl: props.apl } });
  }
  public static note(props: NoteChartProps): DashboardChart {
    return new DashboardChart(DashboardChartType.NOTE, props, { text: props.text });
  }
  public static monitorList(props: MonitorListChartProps): DashboardChart {
    return new DashboardChart(DashboardChartType.MONITOR_LIST, props, props.monitorIds ? { monitors: [...props.monitorIds] } : {});
  }
  public static smartFilter(props: ChartProps = {}): DashboardChart {
    return new DashboardChart(DashboardChartType.SMART_FILTER, props, {});
  }
  public static spacer(props: ChartProps = {}): DashboardChart {
    return new DashboardChart(DashboardChartType.SPACER, props, {});
  }

  public readonly type: DashboardChartType;
  /** Columns taken in the grid. */
  public readonly width: number;
  /** Rows taken in the grid. */
  public readonly height: number;
  private readonly props: ChartProps;
  private readonly fields: Record<string, unknown>;

  private constructor(type: DashboardChartType, props: ChartProps, fields: Record<string, unknown>) {
    this.type = type;
    this.props = props;
    this.fields = fields;
    this.width = props.width ?? DEFAULT_WIDTH;
    this.height = props.height ?? DEFAULT_HEIGHT;
  }

  /** The id the chart sets itself, if any. @internal */
  public get _explicitId(): string | undefined {
    return this.props.id;
  }

  /** The chart's title, if any. @internal */
  public get _name(): string | undefined {
    return this.props.name;
  }

  /** The chart as the document holds it. @internal */
  public _toDocument(id: string): Record<string, unknown> {
    const out: Record<string, unknown> = { id, type: this.type };
    if (this.props.name !== undefined) out.name = this.props.name;
    return { ...out, ...this.fields };
  }
}

// A derived id stays readable: the name's letters and digits, at most this many characters.
const MAX_NAME_SLUG = 40;

/** A name as lower-case ASCII words joined by "-"; a long or letterless name ends in a hash of itself. */
function nameSlug(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (words !== "" && words.length <= MAX_NAME_SLUG) return words;
  // Cutting alone would make two long names alike; the hash keeps them apart, deterministically.
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  const kept = words.slice(0, MAX_NAME_SLUG - hash.length - 1).replace(/-+$/, "");
  return kept === "" ? hash : `${kept}-${hash}`;
}

/**
 * Each chart's id: its own `id`, else "<type>-<name>" (`timeseries-requests`); a chart
 * without a name takes its type, numbered among the unnamed charts of that type
 * (`spacer`, `spacer-2`).
 */
function chartIds(charts: readonly DashboardChart[]): string[] {
  const unnamed = new Map<string, number>();
  return charts.map((chart) => {
    if (chart._explicitId !== undefined) return chart._explicitId;
    const type = chart.type.toLowerCase();
    if (chart._name !== undefined && chart._name !== "") return `${type}-${nameSlug(chart._name)}`;
    const n = (unnamed.get(type) ?? 0) + 1;
    unnamed.set(type, n);
    return n === 1 ? type : `${type}-${n}`;
  });
}

function describeChart(chart: DashboardChart, position: number): string {
  return `chart ${position} (${chart.type}${chart._name !== undefined ? ` ${JSON.stringify(chart._name)}` : ""})`;
}

/** Two charts with one id, each pair named by position, type and name, with how to fix it. */
function idClashes(charts: readonly DashboardChart[], ids: readonly string[]): string[] {
  const first = new Map<string, number>();
  const out: string[] = [];
  ids.forEach((id, index) => {
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, index);
      return;
    }
    const both = `${describeChart(charts[earlier], earlier + 1)} and ${describeChart(charts[index], index + 1)}`;
    const how = [charts[earlier], charts[index]].map((c) => (c._explicitId !== undefined ? "set explicitly" : "derived from type and name"));
    out.push(`${both} both have the chart id ${JSON.stringify(id)} (${how[0]}, ${how[1]}); chart ids must be unique: give one of them its own \`id\` option`);
  });
  return out;
}

/** The dashboard-wide settings of a document. */
export interface DashboardBuilderProps {
  /** Name shown in the list of dashboards (1 to 100 characters). */
  readonly name: string;
  /** A user id, or everyone. @default "X-AXIOM-EVERYONE" (everyone in the organization) */
  readonly owner?: string;
  readonly description?: string;
  /** Start of the time window: "qr-now-<duration>" or epoch milliseconds. @default "qr-now-1h" */
  readonly timeWindowStart?: string;
  /** End of the time window. @default "qr-now" */
  readonly timeWindowEnd?: string;
  /** Seconds between refreshes: 15, 60 or 300. @default 60 */
  readonly refreshSeconds?: number;
  /** Compare with an earlier window, from "-1h" to "-90d". */
  readonly compareAgainst?: string;
  /** Charts in reading order: the layout fills rows of 12 columns left to right. */
  readonly charts?: DashboardChart[];
}

/** Builds a dashboard document: charts in order, laid out on the grid. */
export class DashboardBuilder {
  private readonly props: DashboardBuilderProps;
  private readonly charts: DashboardChart[];

  constructor(props: DashboardBuilderProps) {
    this.props = props;
    this.charts = [...(props.charts ?? [])];
  }

  /** Appends charts after those already added. */
  public addCharts(...charts: DashboardChart[]): DashboardBuilder {
    this.charts.push(...charts);
    return this;
  }

  /**
   * The document as JSON text, the value of ods_dashboard's `dashboard` attribute.
   * Throws when two charts have the same id.
   */
  public toJson(): string {
    const clashes = this._idClashes();
    if (clashes.length > 0) throw new Error(`DashboardBuilder "${this.props.name}": ${clashes.join("; ")}`);
    return this._documentJson();
  }

  /** What is wrong with the charts' ids: one sentence per clash. @internal */
  public _idClashes(): string[] {
    return idClashes(this.charts, chartIds(this.charts));
  }

  /** The document, even when ids clash (the synth-time check reports that). @internal */
  public _documentJson(): string {
    const ids = chartIds(this.charts);
    const charts: Record<string, unknown>[] = [];
    const layout: Record<string, unknown>[] = [];
    let x = 0;
    let y = 0;
    let rowHeight = 0;
    this.charts.forEach((chart, index) => {
      const id = ids[index];
      // A chart that does not fit the rest of the row starts the next one.
      if (x > 0 && x + chart.width > GRID_COLUMNS) {
        x = 0;
        y += rowHeight;
        rowHeight = 0;
      }
      charts.push(chart._toDocument(id));
      layout.push({ i: id, x, y, w: chart.width, h: chart.height });
      x += chart.width;
      rowHeight = Math.max(rowHeight, chart.height);
    });
    const p = this.props;
    const doc: Record<string, unknown> = {
      name: p.name,
      owner: p.owner ?? EVERYONE,
      ...(p.description !== undefined ? { description: p.description } : {}),
      charts,
      layout,
      refreshTime: p.refreshSeconds ?? 60,
      schemaVersion: 2,
      timeWindowStart: p.timeWindowStart ?? "qr-now-1h",
      timeWindowEnd: p.timeWindowEnd ?? "qr-now",
      ...(p.compareAgainst !== undefined ? { against: p.compareAgainst } : {}),
    };
    return JSON.stringify(doc, null, 2);
  }
}

export interface OdsDashboardProps extends DashboardBuilderProps {
  /** Unique id of the dashboard, used in its URL. */
  readonly uid: string;
  /** Replace the dashboard even when someone changed it since this configuration last wrote it. @default false */
  readonly overwrite?: boolean;
}

/**
 * A dashboard: an ods_dashboard resource whose document is built from typed charts. The
 * document is written when the stack is synthesized, so charts added after construction
 * are in it.
 */
export class OdsDashboard extends Construct {
  /** The generated resource underneath. */
  public readonly resource: Dashboard;
  /** The document builder; `addCharts` adds to it. */
  public readonly builder: DashboardBuilder;

  constructor(scope: Construct, id: string, props: OdsDashboardProps) {
    super(scope, id);
    this.builder = new DashboardBuilder(props);
    this.resource = new Dashboard(this, "Resource", {
      uid: props.uid,
      overwrite: props.overwrite,
      dashboard: Lazy.stringValue({ produce: () => this.builder._documentJson() }),
    });
    // A clash is reported at synth with this construct's path, and nothing is written.
    this.node.addValidation({ validate: () => this.builder._idClashes() });
  }

  /** Appends charts after those already added. */
  public addCharts(...charts: DashboardChart[]): OdsDashboard {
    this.builder.addCharts(...charts);
    return this;
  }

  /** The dashboard's uid (a reference to the resource's). */
  public get uid(): string {
    return this.resource.uid;
  }
}
