// ../../../docs/resources/dataset_field.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DatasetFieldConfig extends cdktf.TerraformMetaArguments {
  /**
  * Name of the dataset.
  *
  * Reference: {@link ../../../docs/resources/dataset_field.md#dataset DatasetField#dataset}
  */
  readonly dataset: string;
  /**
  * What the field means.
  *
  * Reference: {@link ../../../docs/resources/dataset_field.md#description DatasetField#description}
  */
  readonly description?: string;
  /**
  * Hide the field in the query builder.
  *
  * Reference: {@link ../../../docs/resources/dataset_field.md#hidden DatasetField#hidden}
  */
  readonly hidden?: boolean | cdktf.IResolvable;
  /**
  * Name of the field.
  *
  * Reference: {@link ../../../docs/resources/dataset_field.md#name DatasetField#name}
  */
  readonly name: string;
  /**
  * Unit, e.g. "ms" or "decbytes".
  *
  * Reference: {@link ../../../docs/resources/dataset_field.md#unit DatasetField#unit}
  */
  readonly unit?: string;
}

/**
* Represents a {@link ../../../docs/resources/dataset_field.md ods_dataset_field}
*/
export class DatasetField extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_dataset_field";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DatasetField resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DatasetField to import
  * @param importFromId The id of the existing DatasetField that should be imported. Refer to the {@link ../../../docs/resources/dataset_field.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DatasetField to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_dataset_field", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/dataset_field.md ods_dataset_field} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DatasetFieldConfig
  */
  public constructor(scope: Construct, id: string, config: DatasetFieldConfig) {
    super(scope, id, {
      terraformResourceType: 'ods_dataset_field',
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
    this._dataset = config.dataset;
    this._description = config.description;
    this._hidden = config.hidden;
    this._name = config.name;
    this._unit = config.unit;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // dataset - computed: false, optional: false, required: true
  private _dataset?: string; 
  public get dataset() {
    return this.getStringAttribute('dataset');
  }
  public set dataset(value: string) {
    this._dataset = value;
  }
  // Temporarily expose input value. Use with caution.
  public get datasetInput() {
    return this._dataset;
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

  // hidden - computed: false, optional: true, required: false
  private _hidden?: boolean | cdktf.IResolvable; 
  public get hidden() {
    return this.getBooleanAttribute('hidden');
  }
  public set hidden(value: boolean | cdktf.IResolvable) {
    this._hidden = value;
  }
  public resetHidden() {
    this._hidden = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get hiddenInput() {
    return this._hidden;
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

  // type - computed: true, optional: false, required: false
  public get type() {
    return this.getStringAttribute('type');
  }

  // unit - computed: false, optional: true, required: false
  private _unit?: string; 
  public get unit() {
    return this.getStringAttribute('unit');
  }
  public set unit(value: string) {
    this._unit = value;
  }
  public resetUnit() {
    this._unit = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get unitInput() {
    return this._unit;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      dataset: cdktf.stringToTerraform(this._dataset),
      description: cdktf.stringToTerraform(this._description),
      hidden: cdktf.booleanToTerraform(this._hidden),
      name: cdktf.stringToTerraform(this._name),
      unit: cdktf.stringToTerraform(this._unit),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      dataset: {
        value: cdktf.stringToHclTerraform(this._dataset),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      description: {
        value: cdktf.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      hidden: {
        value: cdktf.booleanToHclTerraform(this._hidden),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      unit: {
        value: cdktf.stringToHclTerraform(this._unit),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
