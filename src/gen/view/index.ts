// ../../../docs/resources/view.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface ViewConfig extends cdktf.TerraformMetaArguments {
  /**
  * The view's query (compiled by the service at plan time).
  *
  * Reference: {@link ../../../docs/resources/view.md#apl_query View#apl_query}
  */
  readonly aplQuery: string;
  /**
  * Datasets the view reads.
  *
  * Reference: {@link ../../../docs/resources/view.md#datasets View#datasets}
  */
  readonly datasets?: string[];
  /**
  * What the view shows.
  *
  * Reference: {@link ../../../docs/resources/view.md#description View#description}
  */
  readonly description?: string;
  /**
  * Unique name of the view; roles and tokens grant access to it by this name.
  *
  * Reference: {@link ../../../docs/resources/view.md#name View#name}
  */
  readonly name: string;
}

/**
* Represents a {@link ../../../docs/resources/view.md ods_view}
*/
export class View extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_view";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a View resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the View to import
  * @param importFromId The id of the existing View that should be imported. Refer to the {@link ../../../docs/resources/view.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the View to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_view", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/view.md ods_view} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options ViewConfig
  */
  public constructor(scope: Construct, id: string, config: ViewConfig) {
    super(scope, id, {
      terraformResourceType: 'ods_view',
      terraformGeneratorMetadata: {
        providerName: 'ods',
        providerVersion: '0.1.0'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    validateWithModel(this, 'resource');
    this._aplQuery = config.aplQuery;
    this._datasets = config.datasets;
    this._description = config.description;
    this._name = config.name;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // apl_query - computed: false, optional: false, required: true
  private _aplQuery?: string; 
  public get aplQuery() {
    return this.getStringAttribute('apl_query');
  }
  public set aplQuery(value: string) {
    this._aplQuery = value;
  }
  // Temporarily expose input value. Use with caution.
  public get aplQueryInput() {
    return this._aplQuery;
  }

  // datasets - computed: false, optional: true, required: false
  private _datasets?: string[]; 
  public get datasets() {
    return this.getListAttribute('datasets');
  }
  public set datasets(value: string[]) {
    this._datasets = value;
  }
  public resetDatasets() {
    this._datasets = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get datasetsInput() {
    return this._datasets;
  }

  // description - computed: false, optional: true, required: false
  private _description?: string; 
  public get description() {
    return this.getStringAttribute('description');
  }
  public set description(value: string) {
    this._description = value;
  }
  public resetDescription() {
    this._description = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get descriptionInput() {
    return this._description;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: false, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // shared_by_org - computed: true, optional: false, required: false
  public get sharedByOrg() {
    return this.getStringAttribute('shared_by_org');
  }

  // shared_by_org_name - computed: true, optional: false, required: false
  public get sharedByOrgName() {
    return this.getStringAttribute('shared_by_org_name');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      apl_query: cdktf.stringToTerraform(this._aplQuery),
      datasets: cdktf.listMapper(cdktf.stringToTerraform, false)(this._datasets),
      description: cdktf.stringToTerraform(this._description),
      name: cdktf.stringToTerraform(this._name),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      apl_query: {
        value: cdktf.stringToHclTerraform(this._aplQuery),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      datasets: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._datasets),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      description: {
        value: cdktf.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
