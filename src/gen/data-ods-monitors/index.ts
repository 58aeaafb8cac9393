// ../../../docs/data-sources/monitors.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DataOdsMonitorsConfig extends cdktf.TerraformMetaArguments {
  /**
  * Only the object with this exact name.
  *
  * Reference: {@link ../../../docs/data-sources/monitors.md#name DataOdsMonitors#name}
  */
  readonly name?: string;
  /**
  * Only objects whose name starts with this.
  *
  * Reference: {@link ../../../docs/data-sources/monitors.md#name_prefix DataOdsMonitors#name_prefix}
  */
  readonly namePrefix?: string;
}
export interface DataOdsMonitorsMonitors {
}

export function dataOdsMonitorsMonitorsToTerraform(struct?: DataOdsMonitorsMonitors): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsMonitorsMonitorsToHclTerraform(struct?: DataOdsMonitorsMonitors): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsMonitorsMonitorsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataOdsMonitorsMonitors | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsMonitorsMonitors | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

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

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // interval_minutes - computed: true, optional: false, required: false
  public get intervalMinutes() {
    return this.getNumberAttribute('interval_minutes');
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
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
}

export class DataOdsMonitorsMonitorsList extends cdktf.ComplexList {

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(protected terraformResource: cdktf.IInterpolatingParent, protected terraformAttribute: string, protected wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet)
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): DataOdsMonitorsMonitorsOutputReference {
    return new DataOdsMonitorsMonitorsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link ../../../docs/data-sources/monitors.md ods_monitors}
*/
export class DataOdsMonitors extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_monitors";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataOdsMonitors resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataOdsMonitors to import
  * @param importFromId The id of the existing DataOdsMonitors that should be imported. Refer to the {@link ../../../docs/data-sources/monitors.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataOdsMonitors to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_monitors", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/data-sources/monitors.md ods_monitors} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataOdsMonitorsConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataOdsMonitorsConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'ods_monitors',
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
    this._name = config.name;
    this._namePrefix = config.namePrefix;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // monitors - computed: true, optional: false, required: false
  private _monitors = new DataOdsMonitorsMonitorsList(this, "monitors", false);
  public get monitors() {
    return this._monitors;
  }

  // name - computed: false, optional: true, required: false
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

  // name_prefix - computed: false, optional: true, required: false
  private _namePrefix?: string; 
  public get namePrefix() {
    return this.getStringAttribute('name_prefix');
  }
  public set namePrefix(value: string) {
    this._namePrefix = value;
  }
  public resetNamePrefix() {
    this._namePrefix = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get namePrefixInput() {
    return this._namePrefix;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      name: cdktf.stringToTerraform(this._name),
      name_prefix: cdktf.stringToTerraform(this._namePrefix),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      name_prefix: {
        value: cdktf.stringToHclTerraform(this._namePrefix),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
