// ../../../docs/resources/monitor.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface MonitorConfig extends cdktf.TerraformMetaArguments {
  /**
  * Alert when the query returns no data.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#alert_on_no_data Monitor#alert_on_no_data}
  */
  readonly alertOnNoData?: boolean | cdktf.IResolvable;
  /**
  * The query run on every check. A Threshold query ends in an aggregation (summarize); a MatchEvent query only filters and reshapes events.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#apl_query Monitor#apl_query}
  */
  readonly aplQuery: string;
  /**
  * For a table result: the column whose values are compared with the threshold.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#column_name Monitor#column_name}
  */
  readonly columnName?: string;
  /**
  * AnomalyDetection: how many earlier days the values are compared with (1 to 7).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#compare_days Monitor#compare_days}
  */
  readonly compareDays?: number;
  /**
  * What the monitor watches; sent with its alerts.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#description Monitor#description}
  */
  readonly description?: string;
  /**
  * The monitor does not run.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#disabled Monitor#disabled}
  */
  readonly disabled?: boolean | cdktf.IResolvable;
  /**
  * The monitor does not run before this time (ISO 8601).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#disabled_until Monitor#disabled_until}
  */
  readonly disabledUntil?: string;
  /**
  * How often the monitor runs, in minutes (at least 1).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#interval_minutes Monitor#interval_minutes}
  */
  readonly intervalMinutes: number;
  /**
  * Name of the monitor; the title of its alerts.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#name Monitor#name}
  */
  readonly name: string;
  /**
  * Ids of the notifiers its alerts go to (references to ods_notifier ids).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#notifier_ids Monitor#notifier_ids}
  */
  readonly notifierIds?: string[];
  /**
  * Each group of the query's non-time `by` keys alerts on its own.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#notify_by_group Monitor#notify_by_group}
  */
  readonly notifyByGroup?: boolean | cdktf.IResolvable;
  /**
  * Notify on every run that is in alert, not only on entering it.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#notify_every_run Monitor#notify_every_run}
  */
  readonly notifyEveryRun?: boolean | cdktf.IResolvable;
  /**
  * How values are compared with `threshold`: "Below", "BelowOrEqual", "Above", "AboveOrEqual", "AboveOrBelow". Required for Threshold monitors.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#operator Monitor#operator}
  */
  readonly operator?: string;
  /**
  * How far back each run queries, in minutes (at least 1); the range ends at the run time.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#range_minutes Monitor#range_minutes}
  */
  readonly rangeMinutes: number;
  /**
  * Notify also when the monitor leaves the alert state (action Closed).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#resolvable Monitor#resolvable}
  */
  readonly resolvable?: boolean | cdktf.IResolvable;
  /**
  * Seconds the query range is shifted back, so that late events are counted (at most 86400).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#second_delay Monitor#second_delay}
  */
  readonly secondDelay?: number;
  /**
  * Send no notification when the monitor leaves the alert state.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#skip_resolved Monitor#skip_resolved}
  */
  readonly skipResolved?: boolean | cdktf.IResolvable;
  /**
  * The value the query's results are compared with. Required for Threshold monitors.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#threshold Monitor#threshold}
  */
  readonly threshold?: number;
  /**
  * AnomalyDetection: how far, in percent, values may deviate from earlier days (0 to 100).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#tolerance Monitor#tolerance}
  */
  readonly tolerance?: number;
  /**
  * Alert only when this many of the last `trigger_from_n_runs` runs crossed the threshold (N of M).
  *
  * Reference: {@link ../../../docs/resources/monitor.md#trigger_after_n_positive_results Monitor#trigger_after_n_positive_results}
  */
  readonly triggerAfterNPositiveResults?: number;
  /**
  * The number of recent runs N of M looks at.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#trigger_from_n_runs Monitor#trigger_from_n_runs}
  */
  readonly triggerFromNRuns?: number;
  /**
  * How the monitor alerts: "Threshold" (an aggregation crosses `threshold`), "MatchEvent" (each matching event) or "AnomalyDetection" (values deviate from the same window of earlier days). Changing it replaces the monitor.
  *
  * Reference: {@link ../../../docs/resources/monitor.md#type Monitor#type}
  */
  readonly type: string;
}

/**
* Represents a {@link ../../../docs/resources/monitor.md ods_monitor}
*/
export class Monitor extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_monitor";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Monitor resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Monitor to import
  * @param importFromId The id of the existing Monitor that should be imported. Refer to the {@link ../../../docs/resources/monitor.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Monitor to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_monitor", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/monitor.md ods_monitor} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options MonitorConfig
  */
  public constructor(scope: Construct, id: string, config: MonitorConfig) {
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
    validateWithModel(this, 'resource');
    this._alertOnNoData = config.alertOnNoData;
    this._aplQuery = config.aplQuery;
    this._columnName = config.columnName;
    this._compareDays = config.compareDays;
    this._description = config.description;
    this._disabled = config.disabled;
    this._disabledUntil = config.disabledUntil;
    this._intervalMinutes = config.intervalMinutes;
    this._name = config.name;
    this._notifierIds = config.notifierIds;
    this._notifyByGroup = config.notifyByGroup;
    this._notifyEveryRun = config.notifyEveryRun;
    this._operator = config.operator;
    this._rangeMinutes = config.rangeMinutes;
    this._resolvable = config.resolvable;
    this._secondDelay = config.secondDelay;
    this._skipResolved = config.skipResolved;
    this._threshold = config.threshold;
    this._tolerance = config.tolerance;
    this._triggerAfterNPositiveResults = config.triggerAfterNPositiveResults;
    this._triggerFromNRuns = config.triggerFromNRuns;
    this._type = config.type;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // alert_on_no_data - computed: false, optional: true, required: false
  private _alertOnNoData?: boolean | cdktf.IResolvable; 
  public get alertOnNoData() {
    return this.getBooleanAttribute('alert_on_no_data');
  }
  public set alertOnNoData(value: boolean | cdktf.IResolvable) {
    this._alertOnNoData = value;
  }
  public resetAlertOnNoData() {
    this._alertOnNoData = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get alertOnNoDataInput() {
    return this._alertOnNoData;
  }

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

  // column_name - computed: false, optional: true, required: false
  private _columnName?: string; 
  public get columnName() {
    return this.getStringAttribute('column_name');
  }
  public set columnName(value: string) {
    this._columnName = value;
  }
  public resetColumnName() {
    this._columnName = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get columnNameInput() {
    return this._columnName;
  }

  // compare_days - computed: false, optional: true, required: false
  private _compareDays?: number; 
  public get compareDays() {
    return this.getNumberAttribute('compare_days');
  }
  public set compareDays(value: number) {
    this._compareDays = value;
  }
  public resetCompareDays() {
    this._compareDays = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get compareDaysInput() {
    return this._compareDays;
  }

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // created_by - computed: true, optional: false, required: false
  public get createdBy() {
    return this.getStringAttribute('created_by');
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

  // disabled - computed: false, optional: true, required: false
  private _disabled?: boolean | cdktf.IResolvable; 
  public get disabled() {
    return this.getBooleanAttribute('disabled');
  }
  public set disabled(value: boolean | cdktf.IResolvable) {
    this._disabled = value;
  }
  public resetDisabled() {
    this._disabled = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get disabledInput() {
    return this._disabled;
  }

  // disabled_until - computed: false, optional: true, required: false
  private _disabledUntil?: string; 
  public get disabledUntil() {
    return this.getStringAttribute('disabled_until');
  }
  public set disabledUntil(value: string) {
    this._disabledUntil = value;
  }
  public resetDisabledUntil() {
    this._disabledUntil = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get disabledUntilInput() {
    return this._disabledUntil;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // interval_minutes - computed: false, optional: false, required: true
  private _intervalMinutes?: number; 
  public get intervalMinutes() {
    return this.getNumberAttribute('interval_minutes');
  }
  public set intervalMinutes(value: number) {
    this._intervalMinutes = value;
  }
  // Temporarily expose input value. Use with caution.
  public get intervalMinutesInput() {
    return this._intervalMinutes;
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

  // notifier_ids - computed: false, optional: true, required: false
  private _notifierIds?: string[]; 
  public get notifierIds() {
    return this.getListAttribute('notifier_ids');
  }
  public set notifierIds(value: string[]) {
    this._notifierIds = value;
  }
  public resetNotifierIds() {
    this._notifierIds = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get notifierIdsInput() {
    return this._notifierIds;
  }

  // notify_by_group - computed: false, optional: true, required: false
  private _notifyByGroup?: boolean | cdktf.IResolvable; 
  public get notifyByGroup() {
    return this.getBooleanAttribute('notify_by_group');
  }
  public set notifyByGroup(value: boolean | cdktf.IResolvable) {
    this._notifyByGroup = value;
  }
  public resetNotifyByGroup() {
    this._notifyByGroup = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get notifyByGroupInput() {
    return this._notifyByGroup;
  }

  // notify_every_run - computed: false, optional: true, required: false
  private _notifyEveryRun?: boolean | cdktf.IResolvable; 
  public get notifyEveryRun() {
    return this.getBooleanAttribute('notify_every_run');
  }
  public set notifyEveryRun(value: boolean | cdktf.IResolvable) {
    this._notifyEveryRun = value;
  }
  public resetNotifyEveryRun() {
    this._notifyEveryRun = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get notifyEveryRunInput() {
    return this._notifyEveryRun;
  }

  // operator - computed: false, optional: true, required: false
  private _operator?: string; 
  public get operator() {
    return this.getStringAttribute('operator');
  }
  public set operator(value: string) {
    this._operator = value;
  }
  public resetOperator() {
    this._operator = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get operatorInput() {
    return this._operator;
  }

  // range_minutes - computed: false, optional: false, required: true
  private _rangeMinutes?: number; 
  public get rangeMinutes() {
    return this.getNumberAttribute('range_minutes');
  }
  public set rangeMinutes(value: number) {
    this._rangeMinutes = value;
  }
  // Temporarily expose input value. Use with caution.
  public get rangeMinutesInput() {
    return this._rangeMinutes;
  }

  // resolvable - computed: false, optional: true, required: false
  private _resolvable?: boolean | cdktf.IResolvable; 
  public get resolvable() {
    return this.getBooleanAttribute('resolvable');
  }
  public set resolvable(value: boolean | cdktf.IResolvable) {
    this._resolvable = value;
  }
  public resetResolvable() {
    this._resolvable = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get resolvableInput() {
    return this._resolvable;
  }

  // second_delay - computed: false, optional: true, required: false
  private _secondDelay?: number; 
  public get secondDelay() {
    return this.getNumberAttribute('second_delay');
  }
  public set secondDelay(value: number) {
    this._secondDelay = value;
  }
  public resetSecondDelay() {
    this._secondDelay = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secondDelayInput() {
    return this._secondDelay;
  }

  // skip_resolved - computed: false, optional: true, required: false
  private _skipResolved?: boolean | cdktf.IResolvable; 
  public get skipResolved() {
    return this.getBooleanAttribute('skip_resolved');
  }
  public set skipResolved(value: boolean | cdktf.IResolvable) {
    this._skipResolved = value;
  }
  public resetSkipResolved() {
    this._skipResolved = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get skipResolvedInput() {
    return this._skipResolved;
  }

  // threshold - computed: false, optional: true, required: false
  private _threshold?: number; 
  public get threshold() {
    return this.getNumberAttribute('threshold');
  }
  public set threshold(value: number) {
    this._threshold = value;
  }
  public resetThreshold() {
    this._threshold = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get thresholdInput() {
    return this._threshold;
  }

  // tolerance - computed: false, optional: true, required: false
  private _tolerance?: number; 
  public get tolerance() {
    return this.getNumberAttribute('tolerance');
  }
  public set tolerance(value: number) {
    this._tolerance = value;
  }
  public resetTolerance() {
    this._tolerance = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get toleranceInput() {
    return this._tolerance;
  }

  // trigger_after_n_positive_results - computed: false, optional: true, required: false
  private _triggerAfterNPositiveResults?: number; 
  public get triggerAfterNPositiveResults() {
    return this.getNumberAttribute('trigger_after_n_positive_results');
  }
  public set triggerAfterNPositiveResults(value: number) {
    this._triggerAfterNPositiveResults = value;
  }
  public resetTriggerAfterNPositiveResults() {
    this._triggerAfterNPositiveResults = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get triggerAfterNPositiveResultsInput() {
    return this._triggerAfterNPositiveResults;
  }

  // trigger_from_n_runs - computed: false, optional: true, required: false
  private _triggerFromNRuns?: number; 
  public get triggerFromNRuns() {
    return this.getNumberAttribute('trigger_from_n_runs');
  }
  public set triggerFromNRuns(value: number) {
    this._triggerFromNRuns = value;
  }
  public resetTriggerFromNRuns() {
    this._triggerFromNRuns = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get triggerFromNRunsInput() {
    return this._triggerFromNRuns;
  }

  // type - computed: false, optional: false, required: true
  private _type?: string; 
  public get type() {
    return this.getStringAttribute('type');
  }
  public set type(value: string) {
    this._type = value;
  }
  // Temporarily expose input value. Use with caution.
  public get typeInput() {
    return this._type;
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
      alert_on_no_data: cdktf.booleanToTerraform(this._alertOnNoData),
      apl_query: cdktf.stringToTerraform(this._aplQuery),
      column_name: cdktf.stringToTerraform(this._columnName),
      compare_days: cdktf.numberToTerraform(this._compareDays),
      description: cdktf.stringToTerraform(this._description),
      disabled: cdktf.booleanToTerraform(this._disabled),
      disabled_until: cdktf.stringToTerraform(this._disabledUntil),
      interval_minutes: cdktf.numberToTerraform(this._intervalMinutes),
      name: cdktf.stringToTerraform(this._name),
      notifier_ids: cdktf.listMapper(cdktf.stringToTerraform, false)(this._notifierIds),
      notify_by_group: cdktf.booleanToTerraform(this._notifyByGroup),
      notify_every_run: cdktf.booleanToTerraform(this._notifyEveryRun),
      operator: cdktf.stringToTerraform(this._operator),
      range_minutes: cdktf.numberToTerraform(this._rangeMinutes),
      resolvable: cdktf.booleanToTerraform(this._resolvable),
      second_delay: cdktf.numberToTerraform(this._secondDelay),
      skip_resolved: cdktf.booleanToTerraform(this._skipResolved),
      threshold: cdktf.numberToTerraform(this._threshold),
      tolerance: cdktf.numberToTerraform(this._tolerance),
      trigger_after_n_positive_results: cdktf.numberToTerraform(this._triggerAfterNPositiveResults),
      trigger_from_n_runs: cdktf.numberToTerraform(this._triggerFromNRuns),
      type: cdktf.stringToTerraform(this._type),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      alert_on_no_data: {
        value: cdktf.booleanToHclTerraform(this._alertOnNoData),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      apl_query: {
        value: cdktf.stringToHclTerraform(this._aplQuery),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      column_name: {
        value: cdktf.stringToHclTerraform(this._columnName),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      compare_days: {
        value: cdktf.numberToHclTerraform(this._compareDays),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      description: {
        value: cdktf.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      disabled: {
        value: cdktf.booleanToHclTerraform(this._disabled),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      disabled_until: {
        value: cdktf.stringToHclTerraform(this._disabledUntil),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      interval_minutes: {
        value: cdktf.numberToHclTerraform(this._intervalMinutes),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      notifier_ids: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._notifierIds),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      notify_by_group: {
        value: cdktf.booleanToHclTerraform(this._notifyByGroup),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      notify_every_run: {
        value: cdktf.booleanToHclTerraform(this._notifyEveryRun),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      operator: {
        value: cdktf.stringToHclTerraform(this._operator),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      range_minutes: {
        value: cdktf.numberToHclTerraform(this._rangeMinutes),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      resolvable: {
        value: cdktf.booleanToHclTerraform(this._resolvable),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      second_delay: {
        value: cdktf.numberToHclTerraform(this._secondDelay),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      skip_resolved: {
        value: cdktf.booleanToHclTerraform(this._skipResolved),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      threshold: {
        value: cdktf.numberToHclTerraform(this._threshold),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      tolerance: {
        value: cdktf.numberToHclTerraform(this._tolerance),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      trigger_after_n_positive_results: {
        value: cdktf.numberToHclTerraform(this._triggerAfterNPositiveResults),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      trigger_from_n_runs: {
        value: cdktf.numberToHclTerraform(this._triggerFromNRuns),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      type: {
        value: cdktf.stringToHclTerraform(this._type),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
