// ../../../docs/data-sources/role.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DataOdsRoleConfig extends cdktf.TerraformMetaArguments {
  /**
  * The role's id.
  *
  * Reference: {@link ../../../docs/data-sources/role.md#id DataOdsRole#id}
  *
  * Please be aware that the id field is automatically added to all resources in Terraform providers using a Terraform provider SDK version below 2.
  * If you experience problems setting this value it might not be settable. Please take a look at the provider documentation to ensure it should be settable.
  */
  readonly id?: string;
  /**
  * The role's name.
  *
  * Reference: {@link ../../../docs/data-sources/role.md#name DataOdsRole#name}
  */
  readonly name?: string;
}
export interface DataOdsRoleDatasetCapabilities {
}

export function dataOdsRoleDatasetCapabilitiesToTerraform(struct?: DataOdsRoleDatasetCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRoleDatasetCapabilitiesToHclTerraform(struct?: DataOdsRoleDatasetCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRoleDatasetCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): DataOdsRoleDatasetCapabilities | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRoleDatasetCapabilities | undefined) {
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

export class DataOdsRoleDatasetCapabilitiesMap extends cdktf.ComplexMap {

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
  public get(key: string): DataOdsRoleDatasetCapabilitiesOutputReference {
    return new DataOdsRoleDatasetCapabilitiesOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}
export interface DataOdsRoleOrgCapabilities {
}

export function dataOdsRoleOrgCapabilitiesToTerraform(struct?: DataOdsRoleOrgCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRoleOrgCapabilitiesToHclTerraform(struct?: DataOdsRoleOrgCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRoleOrgCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataOdsRoleOrgCapabilities | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRoleOrgCapabilities | undefined) {
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
export interface DataOdsRoleViewCapabilities {
}

export function dataOdsRoleViewCapabilitiesToTerraform(struct?: DataOdsRoleViewCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsRoleViewCapabilitiesToHclTerraform(struct?: DataOdsRoleViewCapabilities): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsRoleViewCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): DataOdsRoleViewCapabilities | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsRoleViewCapabilities | undefined) {
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

export class DataOdsRoleViewCapabilitiesMap extends cdktf.ComplexMap {

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
  public get(key: string): DataOdsRoleViewCapabilitiesOutputReference {
    return new DataOdsRoleViewCapabilitiesOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}

/**
* Represents a {@link ../../../docs/data-sources/role.md ods_role}
*/
export class DataOdsRole extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_role";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataOdsRole resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataOdsRole to import
  * @param importFromId The id of the existing DataOdsRole that should be imported. Refer to the {@link ../../../docs/data-sources/role.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataOdsRole to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_role", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/data-sources/role.md ods_role} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataOdsRoleConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataOdsRoleConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'ods_role',
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

  // dataset_capabilities - computed: true, optional: false, required: false
  private _datasetCapabilities = new DataOdsRoleDatasetCapabilitiesMap(this, "dataset_capabilities");
  public get datasetCapabilities() {
    return this._datasetCapabilities;
  }

  // description - computed: true, optional: false, required: false
  public get description() {
    return this.getStringAttribute('description');
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

  // members - computed: true, optional: false, required: false
  public get members() {
    return this.getListAttribute('members');
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

  // org_capabilities - computed: true, optional: false, required: false
  private _orgCapabilities = new DataOdsRoleOrgCapabilitiesOutputReference(this, "org_capabilities");
  public get orgCapabilities() {
    return this._orgCapabilities;
  }

  // view_capabilities - computed: true, optional: false, required: false
  private _viewCapabilities = new DataOdsRoleViewCapabilitiesMap(this, "view_capabilities");
  public get viewCapabilities() {
    return this._viewCapabilities;
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
