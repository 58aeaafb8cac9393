// ../../../docs/data-sources/roles.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DataOdsRolesConfig extends cdktf.TerraformMetaArguments {
  /**
  * Only the object with this exact name.
  *
  * Reference: {@link ../../../docs/data-sources/roles.md#name DataOdsRoles#name}
  */
  readonly name?: string;
  /**
  * Only objects whose name starts with this.
  *
  * Reference: {@link ../../../docs/data-sources/roles.md#name_prefix DataOdsRoles#name_prefix}
  */
  readonly namePrefix?: string;
}
export interface DataOdsRolesRolesDatasetCapabilities {
}

export function dataOdsRolesRolesDatasetCapabilitiesToTerraform(struct?: DataOdsRolesRolesDatasetCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRolesRolesDatasetCapabilitiesToHclTerraform(struct?: DataOdsRolesRolesDatasetCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRolesRolesDatasetCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): DataOdsRolesRolesDatasetCapabilities | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRolesRolesDatasetCapabilities | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // data - computed: true, optional: false, required: false
  public get data() {
    return this.getListAttribute('data');
  }

  // ingest - computed: true, optional: false, required: false
  public get ingest() {
    return this.getListAttribute('ingest');
  }

  // query - computed: true, optional: false, required: false
  public get query() {
    return this.getListAttribute('query');
  }

  // share - computed: true, optional: false, required: false
  public get share() {
    return this.getListAttribute('share');
  }

  // starred_queries - computed: true, optional: false, required: false
  public get starredQueries() {
    return this.getListAttribute('starred_queries');
  }

  // trim - computed: true, optional: false, required: false
  public get trim() {
    return this.getListAttribute('trim');
  }

  // vacuum - computed: true, optional: false, required: false
  public get vacuum() {
    return this.getListAttribute('vacuum');
  }

  // virtual_fields - computed: true, optional: false, required: false
  public get virtualFields() {
    return this.getListAttribute('virtual_fields');
  }
}

export class DataOdsRolesRolesDatasetCapabilitiesMap extends cdktf.ComplexMap {

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  constructor(protected terraformResource: cdktf.IInterpolatingParent, protected terraformAttribute: string) {
    super(terraformResource, terraformAttribute)
  }

  /**
  * @param key the key of the item to return
  */
  public get(key: string): DataOdsRolesRolesDatasetCapabilitiesOutputReference {
    return new DataOdsRolesRolesDatasetCapabilitiesOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}
export interface DataOdsRolesRolesOrgCapabilities {
}

export function dataOdsRolesRolesOrgCapabilitiesToTerraform(struct?: DataOdsRolesRolesOrgCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRolesRolesOrgCapabilitiesToHclTerraform(struct?: DataOdsRolesRolesOrgCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRolesRolesOrgCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataOdsRolesRolesOrgCapabilities | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRolesRolesOrgCapabilities | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // annotations - computed: true, optional: false, required: false
  public get annotations() {
    return this.getListAttribute('annotations');
  }

  // api_tokens - computed: true, optional: false, required: false
  public get apiTokens() {
    return this.getListAttribute('api_tokens');
  }

  // audit_log - computed: true, optional: false, required: false
  public get auditLog() {
    return this.getListAttribute('audit_log');
  }

  // billing - computed: true, optional: false, required: false
  public get billing() {
    return this.getListAttribute('billing');
  }

  // dashboards - computed: true, optional: false, required: false
  public get dashboards() {
    return this.getListAttribute('dashboards');
  }

  // datasets - computed: true, optional: false, required: false
  public get datasets() {
    return this.getListAttribute('datasets');
  }

  // endpoints - computed: true, optional: false, required: false
  public get endpoints() {
    return this.getListAttribute('endpoints');
  }

  // flows - computed: true, optional: false, required: false
  public get flows() {
    return this.getListAttribute('flows');
  }

  // integrations - computed: true, optional: false, required: false
  public get integrations() {
    return this.getListAttribute('integrations');
  }

  // monitors - computed: true, optional: false, required: false
  public get monitors() {
    return this.getListAttribute('monitors');
  }

  // notifiers - computed: true, optional: false, required: false
  public get notifiers() {
    return this.getListAttribute('notifiers');
  }

  // rbac - computed: true, optional: false, required: false
  public get rbac() {
    return this.getListAttribute('rbac');
  }

  // shared_access_keys - computed: true, optional: false, required: false
  public get sharedAccessKeys() {
    return this.getListAttribute('shared_access_keys');
  }

  // users - computed: true, optional: false, required: false
  public get users() {
    return this.getListAttribute('users');
  }

  // views - computed: true, optional: false, required: false
  public get views() {
    return this.getListAttribute('views');
  }
}
export interface DataOdsRolesRolesViewCapabilities {
}

export function dataOdsRolesRolesViewCapabilitiesToTerraform(struct?: DataOdsRolesRolesViewCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRolesRolesViewCapabilitiesToHclTerraform(struct?: DataOdsRolesRolesViewCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRolesRolesViewCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): DataOdsRolesRolesViewCapabilities | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRolesRolesViewCapabilities | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // query - computed: true, optional: false, required: false
  public get query() {
    return this.getListAttribute('query');
  }

  // share - computed: true, optional: false, required: false
  public get share() {
    return this.getListAttribute('share');
  }
}

export class DataOdsRolesRolesViewCapabilitiesMap extends cdktf.ComplexMap {

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  constructor(protected terraformResource: cdktf.IInterpolatingParent, protected terraformAttribute: string) {
    super(terraformResource, terraformAttribute)
  }

  /**
  * @param key the key of the item to return
  */
  public get(key: string): DataOdsRolesRolesViewCapabilitiesOutputReference {
    return new DataOdsRolesRolesViewCapabilitiesOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}
export interface DataOdsRolesRoles {
}

export function dataOdsRolesRolesToTerraform(struct?: DataOdsRolesRoles): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRolesRolesToHclTerraform(struct?: DataOdsRolesRoles): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRolesRolesOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): DataOdsRolesRoles | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRolesRoles | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // dataset_capabilities - computed: true, optional: false, required: false
  private _datasetCapabilities = new DataOdsRolesRolesDatasetCapabilitiesMap(this, "dataset_capabilities");
  public get datasetCapabilities() {
    return this._datasetCapabilities;
  }

  // description - computed: true, optional: false, required: false
  public get description() {
    return this.getStringAttribute('description');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // members - computed: true, optional: false, required: false
  public get members() {
    return this.getListAttribute('members');
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // org_capabilities - computed: true, optional: false, required: false
  private _orgCapabilities = new DataOdsRolesRolesOrgCapabilitiesOutputReference(this, "org_capabilities");
  public get orgCapabilities() {
    return this._orgCapabilities;
  }

  // view_capabilities - computed: true, optional: false, required: false
  private _viewCapabilities = new DataOdsRolesRolesViewCapabilitiesMap(this, "view_capabilities");
  public get viewCapabilities() {
    return this._viewCapabilities;
  }
}

export class DataOdsRolesRolesList extends cdktf.ComplexList {

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
  public get(index: number): DataOdsRolesRolesOutputReference {
    return new DataOdsRolesRolesOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link ../../../docs/data-sources/roles.md ods_roles}
*/
export class DataOdsRoles extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_roles";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataOdsRoles resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataOdsRoles to import
  * @param importFromId The id of the existing DataOdsRoles that should be imported. Refer to the {@link ../../../docs/data-sources/roles.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataOdsRoles to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_roles", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/data-sources/roles.md ods_roles} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataOdsRolesConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataOdsRolesConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'ods_roles',
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

  // roles - computed: true, optional: false, required: false
  private _roles = new DataOdsRolesRolesList(this, "roles", false);
  public get roles() {
    return this._roles;
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
