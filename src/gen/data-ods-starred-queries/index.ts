// ../../../docs/data-sources/starred_queries.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DataOdsStarredQueriesConfig extends cdktf.TerraformMetaArguments {
  /**
  * Name of the dataset whose objects are listed.
  *
  * Reference: {@link ../../../docs/data-sources/starred_queries.md#dataset DataOdsStarredQueries#dataset}
  */
  readonly dataset: string;
  /**
  * Only the object with this exact name.
  *
  * Reference: {@link ../../../docs/data-sources/starred_queries.md#name DataOdsStarredQueries#name}
  */
  readonly name?: string;
  /**
  * Only objects whose name starts with this.
  *
  * Reference: {@link ../../../docs/data-sources/starred_queries.md#name_prefix DataOdsStarredQueries#name_prefix}
  */
  readonly namePrefix?: string;
}
export interface DataOdsStarredQueriesStarredQueriesQueryDefaultOrder {
}

export function dataOdsStarredQueriesStarredQueriesQueryDefaultOrderToTerraform(struct?: DataOdsStarredQueriesStarredQueriesQueryDefaultOrder): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsStarredQueriesStarredQueriesQueryDefaultOrderToHclTerraform(struct?: DataOdsStarredQueriesStarredQueriesQueryDefaultOrder): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsStarredQueriesStarredQueriesQueryDefaultOrderOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): DataOdsStarredQueriesStarredQueriesQueryDefaultOrder | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsStarredQueriesStarredQueriesQueryDefaultOrder | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // desc - computed: true, optional: false, required: false
  public get desc() {
    return this.getBooleanAttribute('desc');
  }

  // field - computed: true, optional: false, required: false
  public get field() {
    return this.getStringAttribute('field');
  }
}

export class DataOdsStarredQueriesStarredQueriesQueryDefaultOrderList extends cdktf.ComplexList {

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
  public get(index: number): DataOdsStarredQueriesStarredQueriesQueryDefaultOrderOutputReference {
    return new DataOdsStarredQueriesStarredQueriesQueryDefaultOrderOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface DataOdsStarredQueriesStarredQueriesQueryQueryOptions {
}

export function dataOdsStarredQueriesStarredQueriesQueryQueryOptionsToTerraform(struct?: DataOdsStarredQueriesStarredQueriesQueryQueryOptions): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsStarredQueriesStarredQueriesQueryQueryOptionsToHclTerraform(struct?: DataOdsStarredQueriesStarredQueriesQueryQueryOptions): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsStarredQueriesStarredQueriesQueryQueryOptionsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataOdsStarredQueriesStarredQueriesQueryQueryOptions | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsStarredQueriesStarredQueriesQueryQueryOptions | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // disable_cache - computed: true, optional: false, required: false
  public get disableCache() {
    return this.getBooleanAttribute('disable_cache');
  }

  // disable_stats - computed: true, optional: false, required: false
  public get disableStats() {
    return this.getBooleanAttribute('disable_stats');
  }

  // disable_trace - computed: true, optional: false, required: false
  public get disableTrace() {
    return this.getBooleanAttribute('disable_trace');
  }

  // max_data_points - computed: true, optional: false, required: false
  public get maxDataPoints() {
    return this.getNumberAttribute('max_data_points');
  }

  // max_series - computed: true, optional: false, required: false
  public get maxSeries() {
    return this.getNumberAttribute('max_series');
  }

  // no_aggregation - computed: true, optional: false, required: false
  public get noAggregation() {
    return this.getBooleanAttribute('no_aggregation');
  }

  // no_fill - computed: true, optional: false, required: false
  public get noFill() {
    return this.getBooleanAttribute('no_fill');
  }

  // no_interpolation - computed: true, optional: false, required: false
  public get noInterpolation() {
    return this.getBooleanAttribute('no_interpolation');
  }

  // priority - computed: true, optional: false, required: false
  public get priority() {
    return this.getStringAttribute('priority');
  }

  // resolution - computed: true, optional: false, required: false
  public get resolution() {
    return this.getStringAttribute('resolution');
  }
}
export interface DataOdsStarredQueriesStarredQueriesQuery {
}

export function dataOdsStarredQueriesStarredQueriesQueryToTerraform(struct?: DataOdsStarredQueriesStarredQueriesQuery): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsStarredQueriesStarredQueriesQueryToHclTerraform(struct?: DataOdsStarredQueriesStarredQueriesQuery): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsStarredQueriesStarredQueriesQueryOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataOdsStarredQueriesStarredQueriesQuery | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsStarredQueriesStarredQueriesQuery | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // apl - computed: true, optional: false, required: false
  public get apl() {
    return this.getStringAttribute('apl');
  }

  // cursor - computed: true, optional: false, required: false
  public get cursor() {
    return this.getStringAttribute('cursor');
  }

  // default_limit - computed: true, optional: false, required: false
  public get defaultLimit() {
    return this.getNumberAttribute('default_limit');
  }

  // default_order - computed: true, optional: false, required: false
  private _defaultOrder = new DataOdsStarredQueriesStarredQueriesQueryDefaultOrderList(this, "default_order", false);
  public get defaultOrder() {
    return this._defaultOrder;
  }

  // end_time - computed: true, optional: false, required: false
  public get endTime() {
    return this.getStringAttribute('end_time');
  }

  // include_cursor - computed: true, optional: false, required: false
  public get includeCursor() {
    return this.getBooleanAttribute('include_cursor');
  }

  // include_cursor_field - computed: true, optional: false, required: false
  public get includeCursorField() {
    return this.getBooleanAttribute('include_cursor_field');
  }

  // libraries - computed: true, optional: false, required: false
  public get libraries() {
    return this.getListAttribute('libraries');
  }

  // query_options - computed: true, optional: false, required: false
  private _queryOptions = new DataOdsStarredQueriesStarredQueriesQueryQueryOptionsOutputReference(this, "query_options");
  public get queryOptions() {
    return this._queryOptions;
  }

  // start_time - computed: true, optional: false, required: false
  public get startTime() {
    return this.getStringAttribute('start_time');
  }

  // variables - computed: true, optional: false, required: false
  private _variables = new cdktf.StringMap(this, "variables");
  public get variables() {
    return this._variables;
  }
}
export interface DataOdsStarredQueriesStarredQueries {
}

export function dataOdsStarredQueriesStarredQueriesToTerraform(struct?: DataOdsStarredQueriesStarredQueries): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsStarredQueriesStarredQueriesToHclTerraform(struct?: DataOdsStarredQueriesStarredQueries): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsStarredQueriesStarredQueriesOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): DataOdsStarredQueriesStarredQueries | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsStarredQueriesStarredQueries | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // dataset - computed: true, optional: false, required: false
  public get dataset() {
    return this.getStringAttribute('dataset');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // kind - computed: true, optional: false, required: false
  public get kind() {
    return this.getStringAttribute('kind');
  }

  // metadata - computed: true, optional: false, required: false
  private _metadata = new cdktf.StringMap(this, "metadata");
  public get metadata() {
    return this._metadata;
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // query - computed: true, optional: false, required: false
  private _query = new DataOdsStarredQueriesStarredQueriesQueryOutputReference(this, "query");
  public get query() {
    return this._query;
  }

  // who - computed: true, optional: false, required: false
  public get who() {
    return this.getStringAttribute('who');
  }
}

export class DataOdsStarredQueriesStarredQueriesList extends cdktf.ComplexList {

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
  public get(index: number): DataOdsStarredQueriesStarredQueriesOutputReference {
    return new DataOdsStarredQueriesStarredQueriesOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link ../../../docs/data-sources/starred_queries.md ods_starred_queries}
*/
export class DataOdsStarredQueries extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_starred_queries";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataOdsStarredQueries resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataOdsStarredQueries to import
  * @param importFromId The id of the existing DataOdsStarredQueries that should be imported. Refer to the {@link ../../../docs/data-sources/starred_queries.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataOdsStarredQueries to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_starred_queries", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/data-sources/starred_queries.md ods_starred_queries} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataOdsStarredQueriesConfig
  */
  public constructor(scope: Construct, id: string, config: DataOdsStarredQueriesConfig) {
    super(scope, id, {
      terraformResourceType: 'ods_starred_queries',
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
    this._dataset = config.dataset;
    this._name = config.name;
    this._namePrefix = config.namePrefix;
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

  // starred_queries - computed: true, optional: false, required: false
  private _starredQueries = new DataOdsStarredQueriesStarredQueriesList(this, "starred_queries", false);
  public get starredQueries() {
    return this._starredQueries;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      dataset: cdktf.stringToTerraform(this._dataset),
      name: cdktf.stringToTerraform(this._name),
      name_prefix: cdktf.stringToTerraform(this._namePrefix),
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
