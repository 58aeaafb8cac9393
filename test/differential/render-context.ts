// What a kind's generator may use while it renders one resource of a generated stack:
// the names it may take, the objects declared before it (the only ones it may refer to,
// so that no generated stack has a cycle) and the stack's fixed variables.
import type { Values } from "../../src/resources";

/** How a value that names another object is written: CDKTF users write all three. */
export type RefStyle = "ref" | "literal" | "var";

/** A choice of one earlier object: `pick` is taken modulo the candidates. */
export interface RefChoice {
  style: RefStyle;
  pick: number;
}

/** A resource rendered before the current one. */
export interface Rendered {
  address: string;
  typeName: string;
  values: Values;
  /** Through the second provider configuration (`ods.b`). */
  alias: boolean;
}

/** The variables every generated stack declares (test/differential/stack-model.ts). */
export const VARIABLES = {
  /** A plain string with a default: used inside interpolations. */
  team: "team",
  /** Sensitive, given through TF_VAR_: the value of write-only secrets. */
  secret: "notifier_secret",
  /** The fixture dataset's name, given through TF_VAR_. */
  fixtureDataset: "fixture_dataset",
} as const;

export class RenderContext {
  /** Addresses this resource must wait for that no reference in its values names. */
  readonly dependsOn = new Set<string>();

  constructor(
    /** Unique in the seed: starts every name, so that seeds share emulators. */
    readonly prefix: string,
    /** Unique among the resources of the stack: a name made from it is unique too. */
    readonly uid: number,
    private readonly earlier: readonly Rendered[],
    /** A dataset outside the stack, with ingested fields f0..f{FIXTURE_FIELDS-1}. */
    readonly fixtureDataset: string,
    /** Whether this resource is through `ods.b`. */
    private readonly alias: boolean,
  ) {}

  /** A name unique in the seed, e.g. `s3r0-ds7`. */
  name(stem: string): string {
    return `${this.prefix}-${stem}${this.uid}`;
  }

  /** Earlier resources of a type (undefined: of any type) this one may refer to. */
  candidates(typeName?: string): readonly Rendered[] {
    // References between provider configurations go one way (ods.b to ods): ods applies one
    // configuration after the other and refuses references both ways, which Terraform allows.
    return this.earlier.filter((r) => (typeName === undefined || r.typeName === typeName) && (this.alias || !r.alias));
  }

  /** `${TYPE.NAME.ATTR}` of an earlier resource of the type, or undefined when there is none. */
  reference(typeName: string, attribute: string, pick: number): string | undefined {
    const all = this.candidates(typeName);
    if (all.length === 0) return undefined;
    return `\${${all[pick % all.length].address}.${attribute}}`;
  }

  /**
   * A dataset name: an earlier dataset of the stack by reference, or by its literal name
   * with depends_on (the order must still be right), or the fixture dataset through its
   * variable or literally.
   */
  datasetName(choice: RefChoice): string {
    const target = this.datasetTarget(choice);
    if (!target) return choice.style === "var" ? `\${var.${VARIABLES.fixtureDataset}}` : this.fixtureDataset;
    if (choice.style === "ref") return `\${${target.address}.name}`;
    this.dependsOn.add(target.address);
    return String(target.values.name);
  }

  /** The name datasetName(choice) evaluates to (two keys of a map must not). */
  resolvedDatasetName(choice: RefChoice): string {
    return String(this.datasetTarget(choice)?.values.name ?? this.fixtureDataset);
  }

  /** The stack's dataset a choice names; undefined for the fixture dataset. */
  private datasetTarget(choice: RefChoice): Rendered | undefined {
    const all = this.candidates("ods_dataset");
    return choice.style === "var" || all.length === 0 ? undefined : all[choice.pick % all.length];
  }
}
