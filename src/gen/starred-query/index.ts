// ../../../docs/resources/starred_query.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface StarredQueryConfig extends cdktf.TerraformMetaArguments {
  /**
  * Name of the dataset the query belongs to.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#dataset StarredQuery#dataset}
  */
  readonly dataset: string;
  /**
  * Kind of query.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#kind StarredQuery#kind}
  */
  readonly kind?: string;
  /**
  * Free-form labels.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#metadata StarredQuery#metadata}
  */
  readonly metadata?: { [key: string]: string };
  /**
  * Name shown in the list of starred queries.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#name StarredQuery#name}
  */
  readonly name: string;
  /**
  * The query.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#query StarredQuery#query}
  */
  readonly query: StarredQueryQuery;
  /**
  * Whose query it is: a user id, "team" or "all"; the caller's when unset.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#who StarredQuery#who}
  */
  readonly who?: string;
}
export interface StarredQueryQueryDefaultOrder {
  /**
  * Descending.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#desc StarredQuery#desc}
  */
  readonly desc?: boolean | cdktf.IResolvable;
  /**
  * Field to order by.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#field StarredQuery#field}
  */
  readonly field: string;
}

export function starredQueryQueryDefaultOrderToTerraform(struct?: StarredQueryQueryDefaultOrder | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    desc: cdktf.booleanToTerraform(struct!.desc),
    field: cdktf.stringToTerraform(struct!.field),
  }
}


export function starredQueryQueryDefaultOrderToHclTerraform(struct?: StarredQueryQueryDefaultOrder | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    desc: {
      value: cdktf.booleanToHclTerraform(struct!.desc),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    field: {
      value: cdktf.stringToHclTerraform(struct!.field),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class StarredQueryQueryDefaultOrderOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): StarredQueryQueryDefaultOrder | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._desc !== undefined) {
      hasAnyValues = true;
      internalValueResult.desc = this._desc;
    }
    if (this._field !== undefined) {
      hasAnyValues = true;
      internalValueResult.field = this._field;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: StarredQueryQueryDefaultOrder | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._desc = undefined;
      this._field = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._desc = value.desc;
      this._field = value.field;
    }
  }

  // desc - computed: false, optional: true, required: false
  private _desc?: boolean | cdktf.IResolvable; 
  public get desc() {
    return this.getBooleanAttribute('desc');
  }
  public set desc(value: boolean | cdktf.IResolvable) {
    this._desc = value;
  }
  public resetDesc() {
    this._desc = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get descInput() {
    return this._desc;
  }

  // field - computed: false, optional: false, required: true
  private _field?: string; 
  public get field() {
    return this.getStringAttribute('field');
  }
  public set field(value: string) {
    this._field = value;
  }
  // Temporarily expose input value. Use with caution.
  public get fieldInput() {
    return this._field;
  }
}

export class StarredQueryQueryDefaultOrderList extends cdktf.ComplexList {
  public internalValue? : StarredQueryQueryDefaultOrder[] | cdktf.IResolvable

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
  public get(index: number): StarredQueryQueryDefaultOrderOutputReference {
    return new StarredQueryQueryDefaultOrderOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface StarredQueryQueryQueryOptions {
  /**
  * Bypass the result cache.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#disable_cache StarredQuery#disable_cache}
  */
  readonly disableCache?: boolean | cdktf.IResolvable;
  /**
  * Do not collect statistics.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#disable_stats StarredQuery#disable_stats}
  */
  readonly disableStats?: boolean | cdktf.IResolvable;
  /**
  * Do not trace the run.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#disable_trace StarredQuery#disable_trace}
  */
  readonly disableTrace?: boolean | cdktf.IResolvable;
  /**
  * Most data points per series.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#max_data_points StarredQuery#max_data_points}
  */
  readonly maxDataPoints?: number;
  /**
  * Most series.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#max_series StarredQuery#max_series}
  */
  readonly maxSeries?: number;
  /**
  * Return events, not aggregations.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#no_aggregation StarredQuery#no_aggregation}
  */
  readonly noAggregation?: boolean | cdktf.IResolvable;
  /**
  * Do not fill empty time buckets.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#no_fill StarredQuery#no_fill}
  */
  readonly noFill?: boolean | cdktf.IResolvable;
  /**
  * Do not interpolate missing values.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#no_interpolation StarredQuery#no_interpolation}
  */
  readonly noInterpolation?: boolean | cdktf.IResolvable;
  /**
  * Scheduling priority, e.g. "low".
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#priority StarredQuery#priority}
  */
  readonly priority?: string;
  /**
  * Time bucket width, e.g. "1m" or "auto".
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#resolution StarredQuery#resolution}
  */
  readonly resolution?: string;
}

export function starredQueryQueryQueryOptionsToTerraform(struct?: StarredQueryQueryQueryOptions | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    disable_cache: cdktf.booleanToTerraform(struct!.disableCache),
    disable_stats: cdktf.booleanToTerraform(struct!.disableStats),
    disable_trace: cdktf.booleanToTerraform(struct!.disableTrace),
    max_data_points: cdktf.numberToTerraform(struct!.maxDataPoints),
    max_series: cdktf.numberToTerraform(struct!.maxSeries),
    no_aggregation: cdktf.booleanToTerraform(struct!.noAggregation),
    no_fill: cdktf.booleanToTerraform(struct!.noFill),
    no_interpolation: cdktf.booleanToTerraform(struct!.noInterpolation),
    priority: cdktf.stringToTerraform(struct!.priority),
    resolution: cdktf.stringToTerraform(struct!.resolution),
  }
}


export function starredQueryQueryQueryOptionsToHclTerraform(struct?: StarredQueryQueryQueryOptions | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    disable_cache: {
      value: cdktf.booleanToHclTerraform(struct!.disableCache),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    disable_stats: {
      value: cdktf.booleanToHclTerraform(struct!.disableStats),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    disable_trace: {
      value: cdktf.booleanToHclTerraform(struct!.disableTrace),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    max_data_points: {
      value: cdktf.numberToHclTerraform(struct!.maxDataPoints),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    max_series: {
      value: cdktf.numberToHclTerraform(struct!.maxSeries),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    no_aggregation: {
      value: cdktf.booleanToHclTerraform(struct!.noAggregation),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    no_fill: {
      value: cdktf.booleanToHclTerraform(struct!.noFill),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    no_interpolation: {
      value: cdktf.booleanToHclTerraform(struct!.noInterpolation),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    priority: {
      value: cdktf.stringToHclTerraform(struct!.priority),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    resolution: {
      value: cdktf.stringToHclTerraform(struct!.resolution),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class StarredQueryQueryQueryOptionsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): StarredQueryQueryQueryOptions | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._disableCache !== undefined) {
      hasAnyValues = true;
      internalValueResult.disableCache = this._disableCache;
    }
    if (this._disableStats !== undefined) {
      hasAnyValues = true;
      internalValueResult.disableStats = this._disableStats;
    }
    if (this._disableTrace !== undefined) {
      hasAnyValues = true;
      internalValueResult.disableTrace = this._disableTrace;
    }
    if (this._maxDataPoints !== undefined) {
      hasAnyValues = true;
      internalValueResult.maxDataPoints = this._maxDataPoints;
    }
    if (this._maxSeries !== undefined) {
      hasAnyValues = true;
      internalValueResult.maxSeries = this._maxSeries;
    }
    if (this._noAggregation !== undefined) {
      hasAnyValues = true;
      internalValueResult.noAggregation = this._noAggregation;
    }
    if (this._noFill !== undefined) {
      hasAnyValues = true;
      internalValueResult.noFill = this._noFill;
    }
    if (this._noInterpolation !== undefined) {
      hasAnyValues = true;
      internalValueResult.noInterpolation = this._noInterpolation;
    }
    if (this._priority !== undefined) {
      hasAnyValues = true;
      internalValueResult.priority = this._priority;
    }
    if (this._resolution !== undefined) {
      hasAnyValues = true;
      internalValueResult.resolution = this._resolution;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: StarredQueryQueryQueryOptions | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._disableCache = undefined;
      this._disableStats = undefined;
      this._disableTrace = undefined;
      this._maxDataPoints = undefined;
      this._maxSeries = undefined;
      this._noAggregation = undefined;
      this._noFill = undefined;
      this._noInterpolation = undefined;
      this._priority = undefined;
      this._resolution = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._disableCache = value.disableCache;
      this._disableStats = value.disableStats;
      this._disableTrace = value.disableTrace;
      this._maxDataPoints = value.maxDataPoints;
      this._maxSeries = value.maxSeries;
      this._noAggregation = value.noAggregation;
      this._noFill = value.noFill;
      this._noInterpolation = value.noInterpolation;
      this._priority = value.priority;
      this._resolution = value.resolution;
    }
  }

  // disable_cache - computed: false, optional: true, required: false
  private _disableCache?: boolean | cdktf.IResolvable; 
  public get disableCache() {
    return this.getBooleanAttribute('disable_cache');
  }
  public set disableCache(value: boolean | cdktf.IResolvable) {
    this._disableCache = value;
  }
  public resetDisableCache() {
    this._disableCache = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get disableCacheInput() {
    return this._disableCache;
  }

  // disable_stats - computed: false, optional: true, required: false
  private _disableStats?: boolean | cdktf.IResolvable; 
  public get disableStats() {
    return this.getBooleanAttribute('disable_stats');
  }
  public set disableStats(value: boolean | cdktf.IResolvable) {
    this._disableStats = value;
  }
  public resetDisableStats() {
    this._disableStats = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get disableStatsInput() {
    return this._disableStats;
  }

  // disable_trace - computed: false, optional: true, required: false
  private _disableTrace?: boolean | cdktf.IResolvable; 
  public get disableTrace() {
    return this.getBooleanAttribute('disable_trace');
  }
  public set disableTrace(value: boolean | cdktf.IResolvable) {
    this._disableTrace = value;
  }
  public resetDisableTrace() {
    this._disableTrace = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get disableTraceInput() {
    return this._disableTrace;
  }

  // max_data_points - computed: false, optional: true, required: false
  private _maxDataPoints?: number; 
  public get maxDataPoints() {
    return this.getNumberAttribute('max_data_points');
  }
  public set maxDataPoints(value: number) {
    this._maxDataPoints = value;
  }
  public resetMaxDataPoints() {
    this._maxDataPoints = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxDataPointsInput() {
    return this._maxDataPoints;
  }

  // max_series - computed: false, optional: true, required: false
  private _maxSeries?: number; 
  public get maxSeries() {
    return this.getNumberAttribute('max_series');
  }
  public set maxSeries(value: number) {
    this._maxSeries = value;
  }
  public resetMaxSeries() {
    this._maxSeries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxSeriesInput() {
    return this._maxSeries;
  }

  // no_aggregation - computed: false, optional: true, required: false
  private _noAggregation?: boolean | cdktf.IResolvable; 
  public get noAggregation() {
    return this.getBooleanAttribute('no_aggregation');
  }
  public set noAggregation(value: boolean | cdktf.IResolvable) {
    this._noAggregation = value;
  }
  public resetNoAggregation() {
    this._noAggregation = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get noAggregationInput() {
    return this._noAggregation;
  }

  // no_fill - computed: false, optional: true, required: false
  private _noFill?: boolean | cdktf.IResolvable; 
  public get noFill() {
    return this.getBooleanAttribute('no_fill');
  }
  public set noFill(value: boolean | cdktf.IResolvable) {
    this._noFill = value;
  }
  public resetNoFill() {
    this._noFill = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get noFillInput() {
    return this._noFill;
  }

  // no_interpolation - computed: false, optional: true, required: false
  private _noInterpolation?: boolean | cdktf.IResolvable; 
  public get noInterpolation() {
    return this.getBooleanAttribute('no_interpolation');
  }
  public set noInterpolation(value: boolean | cdktf.IResolvable) {
    this._noInterpolation = value;
  }
  public resetNoInterpolation() {
    this._noInterpolation = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get noInterpolationInput() {
    return this._noInterpolation;
  }

  // priority - computed: false, optional: true, required: false
  private _priority?: string; 
  public get priority() {
    return this.getStringAttribute('priority');
  }
  public set priority(value: string) {
    this._priority = value;
  }
  public resetPriority() {
    this._priority = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get priorityInput() {
    return this._priority;
  }

  // resolution - computed: false, optional: true, required: false
  private _resolution?: string; 
  public get resolution() {
    return this.getStringAttribute('resolution');
  }
  public set resolution(value: string) {
    this._resolution = value;
  }
  public resetResolution() {
    this._resolution = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get resolutionInput() {
    return this._resolution;
  }
}
export interface StarredQueryQuery {
  /**
  * The query text.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#apl StarredQuery#apl}
  */
  readonly apl: string;
  /**
  * Row cursor to continue from.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#cursor StarredQuery#cursor}
  */
  readonly cursor?: string;
  /**
  * Rows returned when the query sets no limit.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#default_limit StarredQuery#default_limit}
  */
  readonly defaultLimit?: number;
  /**
  * Order when the query sets none.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#default_order StarredQuery#default_order}
  */
  readonly defaultOrder?: StarredQueryQueryDefaultOrder[] | cdktf.IResolvable;
  /**
  * End of the time range.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#end_time StarredQuery#end_time}
  */
  readonly endTime?: string;
  /**
  * Include the cursor row.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#include_cursor StarredQuery#include_cursor}
  */
  readonly includeCursor?: boolean | cdktf.IResolvable;
  /**
  * Return the cursor field.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#include_cursor_field StarredQuery#include_cursor_field}
  */
  readonly includeCursorField?: boolean | cdktf.IResolvable;
  /**
  * Query libraries to load.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#libraries StarredQuery#libraries}
  */
  readonly libraries?: string[];
  /**
  * Options of the run.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#query_options StarredQuery#query_options}
  */
  readonly queryOptions?: StarredQueryQueryQueryOptions;
  /**
  * Start of the time range, e.g. "qr-now-1h" or an ISO 8601 time.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#start_time StarredQuery#start_time}
  */
  readonly startTime?: string;
  /**
  * Values for the query's variables.
  *
  * Reference: {@link ../../../docs/resources/starred_query.md#variables StarredQuery#variables}
  */
  readonly variables?: { [key: string]: string };
}

export function starredQueryQueryToTerraform(struct?: StarredQueryQuery | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    apl: cdktf.stringToTerraform(struct!.apl),
    cursor: cdktf.stringToTerraform(struct!.cursor),
    default_limit: cdktf.numberToTerraform(struct!.defaultLimit),
    default_order: cdktf.listMapper(starredQueryQueryDefaultOrderToTerraform, false)(struct!.defaultOrder),
    end_time: cdktf.stringToTerraform(struct!.endTime),
    include_cursor: cdktf.booleanToTerraform(struct!.includeCursor),
    include_cursor_field: cdktf.booleanToTerraform(struct!.includeCursorField),
    libraries: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.libraries),
    query_options: starredQueryQueryQueryOptionsToTerraform(struct!.queryOptions),
    start_time: cdktf.stringToTerraform(struct!.startTime),
    variables: cdktf.hashMapper(cdktf.stringToTerraform)(struct!.variables),
  }
}


export function starredQueryQueryToHclTerraform(struct?: StarredQueryQuery | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    apl: {
      value: cdktf.stringToHclTerraform(struct!.apl),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    cursor: {
      value: cdktf.stringToHclTerraform(struct!.cursor),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    default_limit: {
      value: cdktf.numberToHclTerraform(struct!.defaultLimit),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    default_order: {
      value: cdktf.listMapperHcl(starredQueryQueryDefaultOrderToHclTerraform, false)(struct!.defaultOrder),
      isBlock: true,
      type: "list",
      storageClassType: "StarredQueryQueryDefaultOrderList",
    },
    end_time: {
      value: cdktf.stringToHclTerraform(struct!.endTime),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    include_cursor: {
      value: cdktf.booleanToHclTerraform(struct!.includeCursor),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    include_cursor_field: {
      value: cdktf.booleanToHclTerraform(struct!.includeCursorField),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    libraries: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.libraries),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    query_options: {
      value: starredQueryQueryQueryOptionsToHclTerraform(struct!.queryOptions),
      isBlock: true,
      type: "struct",
      storageClassType: "StarredQueryQueryQueryOptions",
    },
    start_time: {
      value: cdktf.stringToHclTerraform(struct!.startTime),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    variables: {
      value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(struct!.variables),
      isBlock: false,
      type: "map",
      storageClassType: "stringMap",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class StarredQueryQueryOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): StarredQueryQuery | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._apl !== undefined) {
      hasAnyValues = true;
      internalValueResult.apl = this._apl;
    }
    if (this._cursor !== undefined) {
      hasAnyValues = true;
      internalValueResult.cursor = this._cursor;
    }
    if (this._defaultLimit !== undefined) {
      hasAnyValues = true;
      internalValueResult.defaultLimit = this._defaultLimit;
    }
    if (this._defaultOrder?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.defaultOrder = this._defaultOrder?.internalValue;
    }
    if (this._endTime !== undefined) {
      hasAnyValues = true;
      internalValueResult.endTime = this._endTime;
    }
    if (this._includeCursor !== undefined) {
      hasAnyValues = true;
      internalValueResult.includeCursor = this._includeCursor;
    }
    if (this._includeCursorField !== undefined) {
      hasAnyValues = true;
      internalValueResult.includeCursorField = this._includeCursorField;
    }
    if (this._libraries !== undefined) {
      hasAnyValues = true;
      internalValueResult.libraries = this._libraries;
    }
    if (this._queryOptions?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.queryOptions = this._queryOptions?.internalValue;
    }
    if (this._startTime !== undefined) {
      hasAnyValues = true;
      internalValueResult.startTime = this._startTime;
    }
    if (this._variables !== undefined) {
      hasAnyValues = true;
      internalValueResult.variables = this._variables;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: StarredQueryQuery | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._apl = undefined;
      this._cursor = undefined;
      this._defaultLimit = undefined;
      this._defaultOrder.internalValue = undefined;
      this._endTime = undefined;
      this._includeCursor = undefined;
      this._includeCursorField = undefined;
      this._libraries = undefined;
      this._queryOptions.internalValue = undefined;
      this._startTime = undefined;
      this._variables = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._apl = value.apl;
      this._cursor = value.cursor;
      this._defaultLimit = value.defaultLimit;
      this._defaultOrder.internalValue = value.defaultOrder;
      this._endTime = value.endTime;
      this._includeCursor = value.includeCursor;
      this._includeCursorField = value.includeCursorField;
      this._libraries = value.libraries;
      this._queryOptions.internalValue = value.queryOptions;
      this._startTime = value.startTime;
      this._variables = value.variables;
    }
  }

  // apl - computed: false, optional: false, required: true
  private _apl?: string; 
  public get apl() {
    return this.getStringAttribute('apl');
  }
  public set apl(value: string) {
    this._apl = value;
  }
  // Temporarily expose input value. Use with caution.
  public get aplInput() {
    return this._apl;
  }

  // cursor - computed: false, optional: true, required: false
  private _cursor?: string; 
  public get cursor() {
    return this.getStringAttribute('cursor');
  }
  public set cursor(value: string) {
    this._cursor = value;
  }
  public resetCursor() {
    this._cursor = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get cursorInput() {
    return this._cursor;
  }

  // default_limit - computed: false, optional: true, required: false
  private _defaultLimit?: number; 
  public get defaultLimit() {
    return this.getNumberAttribute('default_limit');
  }
  public set defaultLimit(value: number) {
    this._defaultLimit = value;
  }
  public resetDefaultLimit() {
    this._defaultLimit = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get defaultLimitInput() {
    return this._defaultLimit;
  }

  // default_order - computed: false, optional: true, required: false
  private _defaultOrder = new StarredQueryQueryDefaultOrderList(this, "default_order", false);
  public get defaultOrder() {
    return this._defaultOrder;
  }
  public putDefaultOrder(value: StarredQueryQueryDefaultOrder[] | cdktf.IResolvable) {
    this._defaultOrder.internalValue = value;
  }
  public resetDefaultOrder() {
    this._defaultOrder.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get defaultOrderInput() {
    return this._defaultOrder.internalValue;
  }

  // end_time - computed: false, optional: true, required: false
  private _endTime?: string; 
  public get endTime() {
    return this.getStringAttribute('end_time');
  }
  public set endTime(value: string) {
    this._endTime = value;
  }
  public resetEndTime() {
    this._endTime = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get endTimeInput() {
    return this._endTime;
  }

  // include_cursor - computed: false, optional: true, required: false
  private _includeCursor?: boolean | cdktf.IResolvable; 
  public get includeCursor() {
    return this.getBooleanAttribute('include_cursor');
  }
  public set includeCursor(value: boolean | cdktf.IResolvable) {
    this._includeCursor = value;
  }
  public resetIncludeCursor() {
    this._includeCursor = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get includeCursorInput() {
    return this._includeCursor;
  }

  // include_cursor_field - computed: false, optional: true, required: false
  private _includeCursorField?: boolean | cdktf.IResolvable; 
  public get includeCursorField() {
    return this.getBooleanAttribute('include_cursor_field');
  }
  public set includeCursorField(value: boolean | cdktf.IResolvable) {
    this._includeCursorField = value;
  }
  public resetIncludeCursorField() {
    this._includeCursorField = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get includeCursorFieldInput() {
    return this._includeCursorField;
  }

  // libraries - computed: false, optional: true, required: false
  private _libraries?: string[]; 
  public get libraries() {
    return this.getListAttribute('libraries');
  }
  public set libraries(value: string[]) {
    this._libraries = value;
  }
  public resetLibraries() {
    this._libraries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get librariesInput() {
    return this._libraries;
  }

  // query_options - computed: false, optional: true, required: false
  private _queryOptions = new StarredQueryQueryQueryOptionsOutputReference(this, "query_options");
  public get queryOptions() {
    return this._queryOptions;
  }
  public putQueryOptions(value: StarredQueryQueryQueryOptions) {
    this._queryOptions.internalValue = value;
  }
  public resetQueryOptions() {
    this._queryOptions.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get queryOptionsInput() {
    return this._queryOptions.internalValue;
  }

  // start_time - computed: false, optional: true, required: false
  private _startTime?: string; 
  public get startTime() {
    return this.getStringAttribute('start_time');
  }
  public set startTime(value: string) {
    this._startTime = value;
  }
  public resetStartTime() {
    this._startTime = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get startTimeInput() {
    return this._startTime;
  }

  // variables - computed: false, optional: true, required: false
  private _variables?: { [key: string]: string }; 
  public get variables() {
    return this.getStringMapAttribute('variables');
  }
  public set variables(value: { [key: string]: string }) {
    this._variables = value;
  }
  public resetVariables() {
    this._variables = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get variablesInput() {
    return this._variables;
  }
}

/**
* Represents a {@link ../../../docs/resources/starred_query.md ods_starred_query}
*/
export class StarredQuery extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_starred_query";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a StarredQuery resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the StarredQuery to import
  * @param importFromId The id of the existing StarredQuery that should be imported. Refer to the {@link ../../../docs/resources/starred_query.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the StarredQuery to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_starred_query", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/starred_query.md ods_starred_query} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options StarredQueryConfig
  */
  public constructor(scope: Construct, id: string, config: StarredQueryConfig) {
    super(scope, id, {
      terraformResourceType: 'ods_starred_query',
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
    this._kind = config.kind;
    this._metadata = config.metadata;
    this._name = config.name;
    this._query.internalValue = config.query;
    this._who = config.who;
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

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // kind - computed: true, optional: true, required: false
  private _kind?: string; 
  public get kind() {
    return this.getStringAttribute('kind');
  }
  public set kind(value: string) {
    this._kind = value;
  }
  public resetKind() {
    this._kind = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get kindInput() {
    return this._kind;
  }

  // metadata - computed: true, optional: true, required: false
  private _metadata?: { [key: string]: string }; 
  public get metadata() {
    return this.getStringMapAttribute('metadata');
  }
  public set metadata(value: { [key: string]: string }) {
    this._metadata = value;
  }
  public resetMetadata() {
    this._metadata = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get metadataInput() {
    return this._metadata;
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

  // query - computed: false, optional: false, required: true
  private _query = new StarredQueryQueryOutputReference(this, "query");
  public get query() {
    return this._query;
  }
  public putQuery(value: StarredQueryQuery) {
    this._query.internalValue = value;
  }
  // Temporarily expose input value. Use with caution.
  public get queryInput() {
    return this._query.internalValue;
  }

  // who - computed: true, optional: true, required: false
  private _who?: string; 
  public get who() {
    return this.getStringAttribute('who');
  }
  public set who(value: string) {
    this._who = value;
  }
  public resetWho() {
    this._who = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get whoInput() {
    return this._who;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      dataset: cdktf.stringToTerraform(this._dataset),
      kind: cdktf.stringToTerraform(this._kind),
      metadata: cdktf.hashMapper(cdktf.stringToTerraform)(this._metadata),
      name: cdktf.stringToTerraform(this._name),
      query: starredQueryQueryToTerraform(this._query.internalValue),
      who: cdktf.stringToTerraform(this._who),
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
      kind: {
        value: cdktf.stringToHclTerraform(this._kind),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      metadata: {
        value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(this._metadata),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      query: {
        value: starredQueryQueryToHclTerraform(this._query.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "StarredQueryQuery",
      },
      who: {
        value: cdktf.stringToHclTerraform(this._who),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
