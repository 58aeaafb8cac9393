// ../../../docs/data-sources/monitor.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DataOdsMonitorConfig extends cdktf.TerraformMetaArguments {
  /**
  * The monitor's id.
  *
  * Reference: {@link ../../../docs/data-sources/monitor.md#id DataOdsMonitor#id}
  *
  * Please be aware that the id field is automatically added to all resources in Terraform providers using a Terraform provider SDK version below 2.
  * If you experience problems setting this value it might not be settable. Please take a look at the provider documentation to ensure it should be settable.
  */
  readonly id?: string;
  /**
  * The monitor's name.
  *
  * Reference: {@link ../../../docs/data-sources/monitor.md#name DataOdsMonitor#name}
  */
  readonly name?: string;
}

/**
* Represents a {@link ../../../docs/data-sources/monitor.md ods_monitor}
*/
export class DataOdsMonitor extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_monitor";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataOdsMonitor resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataOdsMonitor to import
  * @param importFromId The id of the existing DataOdsMonitor that should be imported. Refer to the {@link ../../../docs/data-sources/monitor.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataOdsMonitor to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_monitor", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/data-sources/monitor.md ods_monitor} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataOdsMonitorConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataOdsMonitorConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'ods_monitor',
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
    validateWithModel(this, 'data');
    this._id = config.id;
    this._name = config.name;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // alert_on_no_data - computed: true, optional: false, required: false
  public get alertOnNoData() {
    return this.getBooleanAttribute('alert_on_no_data');
  }

  // apl_query - computed: true, optional: false, required: false
  public get aplQuery() {
    return this.getStringAttribute('apl_query');
  }

  // column_name - computed: true, optional: false, required: false
  public get columnName() {
    return this.getStringAttribute('column_name');
  }

  // compare_days - computed: true, optional: false, required: false
  public get compareDays() {
    return this.getNumberAttribute('compare_days');
  }

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // created_by - computed: true, optional: false, required: false
  public get createdBy() {
    return this.getStringAttribute('created_by');
  }

  // description - computed: true, optional: false, required: false
  public get description() {
    return this.getStringAttribute('description');
  }

  // disabled - computed: true, optional: false, required: false
  public get disabled() {
    return this.getBooleanAttribute('disabled');
  }

  // disabled_until - computed: true, optional: false, required: false
  public get disabledUntil() {
    return this.getStringAttribute('disabled_until');
  }

  // id - computed: true, optional: true, required: false
  private _id?: string; 
  public get id() {
    return this.getStringAttribute('id');
  }
  public set id(value: string) {
    this._id = value;
  }
  public resetId() {
    this._id = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get idInput() {
    return this._id;
  }

  // interval_minutes - computed: true, optional: false, required: false
  public get intervalMinutes() {
    return this.getNumberAttribute('interval_minutes');
  }

  // name - computed: true, optional: true, required: false
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  public resetName() {
    this._name = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // notifier_ids - computed: true, optional: false, required: false
  public get notifierIds() {
    return this.getListAttribute('notifier_ids');
  }

  // notify_by_group - computed: true, optional: false, required: false
  public get notifyByGroup() {
    return this.getBooleanAttribute('notify_by_group');
  }

  // notify_every_run - computed: true, optional: false, required: false
  public get notifyEveryRun() {
    return this.getBooleanAttribute('notify_every_run');
  }

  // operator - computed: true, optional: false, required: false
  public get operator() {
    return this.getStringAttribute('operator');
  }

  // range_minutes - computed: true, optional: false, required: false
  public get rangeMinutes() {
    return this.getNumberAttribute('range_minutes');
  }

  // resolvable - computed: true, optional: false, required: false
  public get resolvable() {
    return this.getBooleanAttribute('resolvable');
  }

  // second_delay - computed: true, optional: false, required: false
  public get secondDelay() {
    return this.getNumberAttribute('second_delay');
  }

  // skip_resolved - computed: true, optional: false, required: false
  public get skipResolved() {
    return this.getBooleanAttribute('skip_resolved');
  }

  // threshold - computed: true, optional: false, required: false
  public get threshold() {
    return this.getNumberAttribute('threshold');
  }

  // tolerance - computed: true, optional: false, required: false
  public get tolerance() {
    return this.getNumberAttribute('tolerance');
  }

  // trigger_after_n_positive_results - computed: true, optional: false, required: false
  public get triggerAfterNPositiveResults() {
    return this.getNumberAttribute('trigger_after_n_positive_results');
  }

  // trigger_from_n_runs - computed: true, optional: false, required: false
  public get triggerFromNRuns() {
    return this.getNumberAttribute('trigger_from_n_runs');
  }

  // type - computed: true, optional: false, required: false
  public get type() {
    return this.getStringAttribute('type');
  }

  // updated_at - computed: true, optional: false, required: false
  public get updatedAt() {
    return this.getStringAttribute('updated_at');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      id: cdktf.stringToTerraform(this._id),
      name: cdktf.stringToTerraform(this._name),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      id: {
        value: cdktf.stringToHclTerraform(this._id),
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
