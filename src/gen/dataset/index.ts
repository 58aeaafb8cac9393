// ../../../docs/resources/dataset.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DatasetConfig extends cdktf.TerraformMetaArguments {
  /**
  * Allow deleting the dataset and all of its events.
  *
  * Reference: {@link ../../../docs/resources/dataset.md#allow_destroy Dataset#allow_destroy}
  */
  readonly allowDestroy?: boolean | cdktf.IResolvable;
  /**
  * What the dataset holds.
  *
  * Reference: {@link ../../../docs/resources/dataset.md#description Dataset#description}
  */
  readonly description?: string;
  /**
  * Unique name: letters, digits, "-", "_" and ".".
  *
  * Reference: {@link ../../../docs/resources/dataset.md#name Dataset#name}
  */
  readonly name: string;
}

/**
* Represents a {@link ../../../docs/resources/dataset.md ods_dataset}
*/
export class Dataset extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_dataset";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Dataset resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Dataset to import
  * @param importFromId The id of the existing Dataset that should be imported. Refer to the {@link ../../../docs/resources/dataset.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Dataset to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_dataset", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/dataset.md ods_dataset} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DatasetConfig
  */
  public constructor(scope: Construct, id: string, config: DatasetConfig) {
    super(scope, id, {
      terraformResourceType: 'ods_dataset',
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
    this._allowDestroy = config.allowDestroy;
    this._description = config.description;
    this._name = config.name;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // allow_destroy - computed: true, optional: true, required: false
  private _allowDestroy?: boolean | cdktf.IResolvable; 
  public get allowDestroy() {
    return this.getBooleanAttribute('allow_destroy');
  }
  public set allowDestroy(value: boolean | cdktf.IResolvable) {
    this._allowDestroy = value;
  }
  public resetAllowDestroy() {
    this._allowDestroy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get allowDestroyInput() {
    return this._allowDestroy;
  }

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getStringAttribute('created');
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

  // who - computed: true, optional: false, required: false
  public get who() {
    return this.getStringAttribute('who');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      allow_destroy: cdktf.booleanToTerraform(this._allowDestroy),
      description: cdktf.stringToTerraform(this._description),
      name: cdktf.stringToTerraform(this._name),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      allow_destroy: {
        value: cdktf.booleanToHclTerraform(this._allowDestroy),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
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
