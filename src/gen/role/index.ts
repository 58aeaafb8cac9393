// ../../../docs/resources/role.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface RoleConfig extends cdktf.TerraformMetaArguments {
  /**
  * Capabilities per dataset, keyed by dataset name.
  *
  * Reference: {@link ../../../docs/resources/role.md#dataset_capabilities Role#dataset_capabilities}
  */
  readonly datasetCapabilities?: { [key: string]: RoleDatasetCapabilities } | cdktf.IResolvable;
  /**
  * What the role is for.
  *
  * Reference: {@link ../../../docs/resources/role.md#description Role#description}
  */
  readonly description?: string;
  /**
  * User ids of the members.
  *
  * Reference: {@link ../../../docs/resources/role.md#members Role#members}
  */
  readonly members?: string[];
  /**
  * Unique name of the role.
  *
  * Reference: {@link ../../../docs/resources/role.md#name Role#name}
  */
  readonly name: string;
  /**
  * Organization-wide capabilities: actions per area.
  *
  * Reference: {@link ../../../docs/resources/role.md#org_capabilities Role#org_capabilities}
  */
  readonly orgCapabilities?: RoleOrgCapabilities;
  /**
  * Capabilities per view, keyed by view name.
  *
  * Reference: {@link ../../../docs/resources/role.md#view_capabilities Role#view_capabilities}
  */
  readonly viewCapabilities?: { [key: string]: RoleViewCapabilities } | cdktf.IResolvable;
}
export interface RoleDatasetCapabilities {
  /**
  * Actions granted on the dataset's data: delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#data Role#data}
  */
  readonly data?: string[];
  /**
  * Actions granted on the dataset's ingest: create.
  *
  * Reference: {@link ../../../docs/resources/role.md#ingest Role#ingest}
  */
  readonly ingest?: string[];
  /**
  * Actions granted on the dataset's query: read.
  *
  * Reference: {@link ../../../docs/resources/role.md#query Role#query}
  */
  readonly query?: string[];
  /**
  * Actions granted on the dataset's share: create, read, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#share Role#share}
  */
  readonly share?: string[];
  /**
  * Actions granted on the dataset's starred_queries: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#starred_queries Role#starred_queries}
  */
  readonly starredQueries?: string[];
  /**
  * Actions granted on the dataset's trim: update.
  *
  * Reference: {@link ../../../docs/resources/role.md#trim Role#trim}
  */
  readonly trim?: string[];
  /**
  * Actions granted on the dataset's vacuum: update.
  *
  * Reference: {@link ../../../docs/resources/role.md#vacuum Role#vacuum}
  */
  readonly vacuum?: string[];
  /**
  * Actions granted on the dataset's virtual_fields: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#virtual_fields Role#virtual_fields}
  */
  readonly virtualFields?: string[];
}

export function roleDatasetCapabilitiesToTerraform(struct?: RoleDatasetCapabilities | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    data: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.data),
    ingest: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.ingest),
    query: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.query),
    share: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.share),
    starred_queries: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.starredQueries),
    trim: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.trim),
    vacuum: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.vacuum),
    virtual_fields: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.virtualFields),
  }
}


export function roleDatasetCapabilitiesToHclTerraform(struct?: RoleDatasetCapabilities | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    data: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.data),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    ingest: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.ingest),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    query: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.query),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    share: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.share),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    starred_queries: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.starredQueries),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    trim: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.trim),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    vacuum: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.vacuum),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    virtual_fields: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.virtualFields),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class RoleDatasetCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): RoleDatasetCapabilities | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._data !== undefined) {
      hasAnyValues = true;
      internalValueResult.data = this._data;
    }
    if (this._ingest !== undefined) {
      hasAnyValues = true;
      internalValueResult.ingest = this._ingest;
    }
    if (this._query !== undefined) {
      hasAnyValues = true;
      internalValueResult.query = this._query;
    }
    if (this._share !== undefined) {
      hasAnyValues = true;
      internalValueResult.share = this._share;
    }
    if (this._starredQueries !== undefined) {
      hasAnyValues = true;
      internalValueResult.starredQueries = this._starredQueries;
    }
    if (this._trim !== undefined) {
      hasAnyValues = true;
      internalValueResult.trim = this._trim;
    }
    if (this._vacuum !== undefined) {
      hasAnyValues = true;
      internalValueResult.vacuum = this._vacuum;
    }
    if (this._virtualFields !== undefined) {
      hasAnyValues = true;
      internalValueResult.virtualFields = this._virtualFields;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: RoleDatasetCapabilities | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._data = undefined;
      this._ingest = undefined;
      this._query = undefined;
      this._share = undefined;
      this._starredQueries = undefined;
      this._trim = undefined;
      this._vacuum = undefined;
      this._virtualFields = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._data = value.data;
      this._ingest = value.ingest;
      this._query = value.query;
      this._share = value.share;
      this._starredQueries = value.starredQueries;
      this._trim = value.trim;
      this._vacuum = value.vacuum;
      this._virtualFields = value.virtualFields;
    }
  }

  // data - computed: false, optional: true, required: false
  private _data?: string[]; 
  public get data() {
    return this.getListAttribute('data');
  }
  public set data(value: string[]) {
    this._data = value;
  }
  public resetData() {
    this._data = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dataInput() {
    return this._data;
  }

  // ingest - computed: false, optional: true, required: false
  private _ingest?: string[]; 
  public get ingest() {
    return this.getListAttribute('ingest');
  }
  public set ingest(value: string[]) {
    this._ingest = value;
  }
  public resetIngest() {
    this._ingest = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get ingestInput() {
    return this._ingest;
  }

  // query - computed: false, optional: true, required: false
  private _query?: string[]; 
  public get query() {
    return this.getListAttribute('query');
  }
  public set query(value: string[]) {
    this._query = value;
  }
  public resetQuery() {
    this._query = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get queryInput() {
    return this._query;
  }

  // share - computed: false, optional: true, required: false
  private _share?: string[]; 
  public get share() {
    return this.getListAttribute('share');
  }
  public set share(value: string[]) {
    this._share = value;
  }
  public resetShare() {
    this._share = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get shareInput() {
    return this._share;
  }

  // starred_queries - computed: false, optional: true, required: false
  private _starredQueries?: string[]; 
  public get starredQueries() {
    return this.getListAttribute('starred_queries');
  }
  public set starredQueries(value: string[]) {
    this._starredQueries = value;
  }
  public resetStarredQueries() {
    this._starredQueries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get starredQueriesInput() {
    return this._starredQueries;
  }

  // trim - computed: false, optional: true, required: false
  private _trim?: string[]; 
  public get trim() {
    return this.getListAttribute('trim');
  }
  public set trim(value: string[]) {
    this._trim = value;
  }
  public resetTrim() {
    this._trim = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get trimInput() {
    return this._trim;
  }

  // vacuum - computed: false, optional: true, required: false
  private _vacuum?: string[]; 
  public get vacuum() {
    return this.getListAttribute('vacuum');
  }
  public set vacuum(value: string[]) {
    this._vacuum = value;
  }
  public resetVacuum() {
    this._vacuum = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get vacuumInput() {
    return this._vacuum;
  }

  // virtual_fields - computed: false, optional: true, required: false
  private _virtualFields?: string[]; 
  public get virtualFields() {
    return this.getListAttribute('virtual_fields');
  }
  public set virtualFields(value: string[]) {
    this._virtualFields = value;
  }
  public resetVirtualFields() {
    this._virtualFields = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get virtualFieldsInput() {
    return this._virtualFields;
  }
}

export class RoleDatasetCapabilitiesMap extends cdktf.ComplexMap {
  public internalValue? : { [key: string]: RoleDatasetCapabilities } | cdktf.IResolvable

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
  public get(key: string): RoleDatasetCapabilitiesOutputReference {
    return new RoleDatasetCapabilitiesOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}
export interface RoleOrgCapabilities {
  /**
  * Actions granted on the organization's annotations: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#annotations Role#annotations}
  */
  readonly annotations?: string[];
  /**
  * Actions granted on the organization's api_tokens: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#api_tokens Role#api_tokens}
  */
  readonly apiTokens?: string[];
  /**
  * Actions granted on the organization's audit_log: read.
  *
  * Reference: {@link ../../../docs/resources/role.md#audit_log Role#audit_log}
  */
  readonly auditLog?: string[];
  /**
  * Actions granted on the organization's billing: read, update.
  *
  * Reference: {@link ../../../docs/resources/role.md#billing Role#billing}
  */
  readonly billing?: string[];
  /**
  * Actions granted on the organization's dashboards: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#dashboards Role#dashboards}
  */
  readonly dashboards?: string[];
  /**
  * Actions granted on the organization's datasets: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#datasets Role#datasets}
  */
  readonly datasets?: string[];
  /**
  * Actions granted on the organization's endpoints: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#endpoints Role#endpoints}
  */
  readonly endpoints?: string[];
  /**
  * Actions granted on the organization's flows: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#flows Role#flows}
  */
  readonly flows?: string[];
  /**
  * Actions granted on the organization's integrations: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#integrations Role#integrations}
  */
  readonly integrations?: string[];
  /**
  * Actions granted on the organization's monitors: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#monitors Role#monitors}
  */
  readonly monitors?: string[];
  /**
  * Actions granted on the organization's notifiers: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#notifiers Role#notifiers}
  */
  readonly notifiers?: string[];
  /**
  * Actions granted on the organization's rbac: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#rbac Role#rbac}
  */
  readonly rbac?: string[];
  /**
  * Actions granted on the organization's shared_access_keys: read, update.
  *
  * Reference: {@link ../../../docs/resources/role.md#shared_access_keys Role#shared_access_keys}
  */
  readonly sharedAccessKeys?: string[];
  /**
  * Actions granted on the organization's users: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#users Role#users}
  */
  readonly users?: string[];
  /**
  * Actions granted on the organization's views: create, read, update, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#views Role#views}
  */
  readonly views?: string[];
}

export function roleOrgCapabilitiesToTerraform(struct?: RoleOrgCapabilities | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    annotations: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.annotations),
    api_tokens: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.apiTokens),
    audit_log: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.auditLog),
    billing: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.billing),
    dashboards: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.dashboards),
    datasets: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.datasets),
    endpoints: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.endpoints),
    flows: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.flows),
    integrations: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.integrations),
    monitors: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.monitors),
    notifiers: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.notifiers),
    rbac: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.rbac),
    shared_access_keys: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.sharedAccessKeys),
    users: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.users),
    views: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.views),
  }
}


export function roleOrgCapabilitiesToHclTerraform(struct?: RoleOrgCapabilities | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    annotations: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.annotations),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    api_tokens: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.apiTokens),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    audit_log: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.auditLog),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    billing: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.billing),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    dashboards: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.dashboards),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    datasets: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.datasets),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    endpoints: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.endpoints),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    flows: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.flows),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    integrations: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.integrations),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    monitors: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.monitors),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    notifiers: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.notifiers),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    rbac: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.rbac),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    shared_access_keys: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.sharedAccessKeys),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    users: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.users),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    views: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.views),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class RoleOrgCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): RoleOrgCapabilities | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._annotations !== undefined) {
      hasAnyValues = true;
      internalValueResult.annotations = this._annotations;
    }
    if (this._apiTokens !== undefined) {
      hasAnyValues = true;
      internalValueResult.apiTokens = this._apiTokens;
    }
    if (this._auditLog !== undefined) {
      hasAnyValues = true;
      internalValueResult.auditLog = this._auditLog;
    }
    if (this._billing !== undefined) {
      hasAnyValues = true;
      internalValueResult.billing = this._billing;
    }
    if (this._dashboards !== undefined) {
      hasAnyValues = true;
      internalValueResult.dashboards = this._dashboards;
    }
    if (this._datasets !== undefined) {
      hasAnyValues = true;
      internalValueResult.datasets = this._datasets;
    }
    if (this._endpoints !== undefined) {
      hasAnyValues = true;
      internalValueResult.endpoints = this._endpoints;
    }
    if (this._flows !== undefined) {
      hasAnyValues = true;
      internalValueResult.flows = this._flows;
    }
    if (this._integrations !== undefined) {
      hasAnyValues = true;
      internalValueResult.integrations = this._integrations;
    }
    if (this._monitors !== undefined) {
      hasAnyValues = true;
      internalValueResult.monitors = this._monitors;
    }
    if (this._notifiers !== undefined) {
      hasAnyValues = true;
      internalValueResult.notifiers = this._notifiers;
    }
    if (this._rbac !== undefined) {
      hasAnyValues = true;
      internalValueResult.rbac = this._rbac;
    }
    if (this._sharedAccessKeys !== undefined) {
      hasAnyValues = true;
      internalValueResult.sharedAccessKeys = this._sharedAccessKeys;
    }
    if (this._users !== undefined) {
      hasAnyValues = true;
      internalValueResult.users = this._users;
    }
    if (this._views !== undefined) {
      hasAnyValues = true;
      internalValueResult.views = this._views;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: RoleOrgCapabilities | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._annotations = undefined;
      this._apiTokens = undefined;
      this._auditLog = undefined;
      this._billing = undefined;
      this._dashboards = undefined;
      this._datasets = undefined;
      this._endpoints = undefined;
      this._flows = undefined;
      this._integrations = undefined;
      this._monitors = undefined;
      this._notifiers = undefined;
      this._rbac = undefined;
      this._sharedAccessKeys = undefined;
      this._users = undefined;
      this._views = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._annotations = value.annotations;
      this._apiTokens = value.apiTokens;
      this._auditLog = value.auditLog;
      this._billing = value.billing;
      this._dashboards = value.dashboards;
      this._datasets = value.datasets;
      this._endpoints = value.endpoints;
      this._flows = value.flows;
      this._integrations = value.integrations;
      this._monitors = value.monitors;
      this._notifiers = value.notifiers;
      this._rbac = value.rbac;
      this._sharedAccessKeys = value.sharedAccessKeys;
      this._users = value.users;
      this._views = value.views;
    }
  }

  // annotations - computed: false, optional: true, required: false
  private _annotations?: string[]; 
  public get annotations() {
    return this.getListAttribute('annotations');
  }
  public set annotations(value: string[]) {
    this._annotations = value;
  }
  public resetAnnotations() {
    this._annotations = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get annotationsInput() {
    return this._annotations;
  }

  // api_tokens - computed: false, optional: true, required: false
  private _apiTokens?: string[]; 
  public get apiTokens() {
    return this.getListAttribute('api_tokens');
  }
  public set apiTokens(value: string[]) {
    this._apiTokens = value;
  }
  public resetApiTokens() {
    this._apiTokens = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get apiTokensInput() {
    return this._apiTokens;
  }

  // audit_log - computed: false, optional: true, required: false
  private _auditLog?: string[]; 
  public get auditLog() {
    return this.getListAttribute('audit_log');
  }
  public set auditLog(value: string[]) {
    this._auditLog = value;
  }
  public resetAuditLog() {
    this._auditLog = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get auditLogInput() {
    return this._auditLog;
  }

  // billing - computed: false, optional: true, required: false
  private _billing?: string[]; 
  public get billing() {
    return this.getListAttribute('billing');
  }
  public set billing(value: string[]) {
    this._billing = value;
  }
  public resetBilling() {
    this._billing = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get billingInput() {
    return this._billing;
  }

  // dashboards - computed: false, optional: true, required: false
  private _dashboards?: string[]; 
  public get dashboards() {
    return this.getListAttribute('dashboards');
  }
  public set dashboards(value: string[]) {
    this._dashboards = value;
  }
  public resetDashboards() {
    this._dashboards = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dashboardsInput() {
    return this._dashboards;
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

  // endpoints - computed: false, optional: true, required: false
  private _endpoints?: string[]; 
  public get endpoints() {
    return this.getListAttribute('endpoints');
  }
  public set endpoints(value: string[]) {
    this._endpoints = value;
  }
  public resetEndpoints() {
    this._endpoints = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get endpointsInput() {
    return this._endpoints;
  }

  // flows - computed: false, optional: true, required: false
  private _flows?: string[]; 
  public get flows() {
    return this.getListAttribute('flows');
  }
  public set flows(value: string[]) {
    this._flows = value;
  }
  public resetFlows() {
    this._flows = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get flowsInput() {
    return this._flows;
  }

  // integrations - computed: false, optional: true, required: false
  private _integrations?: string[]; 
  public get integrations() {
    return this.getListAttribute('integrations');
  }
  public set integrations(value: string[]) {
    this._integrations = value;
  }
  public resetIntegrations() {
    this._integrations = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get integrationsInput() {
    return this._integrations;
  }

  // monitors - computed: false, optional: true, required: false
  private _monitors?: string[]; 
  public get monitors() {
    return this.getListAttribute('monitors');
  }
  public set monitors(value: string[]) {
    this._monitors = value;
  }
  public resetMonitors() {
    this._monitors = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get monitorsInput() {
    return this._monitors;
  }

  // notifiers - computed: false, optional: true, required: false
  private _notifiers?: string[]; 
  public get notifiers() {
    return this.getListAttribute('notifiers');
  }
  public set notifiers(value: string[]) {
    this._notifiers = value;
  }
  public resetNotifiers() {
    this._notifiers = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get notifiersInput() {
    return this._notifiers;
  }

  // rbac - computed: false, optional: true, required: false
  private _rbac?: string[]; 
  public get rbac() {
    return this.getListAttribute('rbac');
  }
  public set rbac(value: string[]) {
    this._rbac = value;
  }
  public resetRbac() {
    this._rbac = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get rbacInput() {
    return this._rbac;
  }

  // shared_access_keys - computed: false, optional: true, required: false
  private _sharedAccessKeys?: string[]; 
  public get sharedAccessKeys() {
    return this.getListAttribute('shared_access_keys');
  }
  public set sharedAccessKeys(value: string[]) {
    this._sharedAccessKeys = value;
  }
  public resetSharedAccessKeys() {
    this._sharedAccessKeys = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get sharedAccessKeysInput() {
    return this._sharedAccessKeys;
  }

  // users - computed: false, optional: true, required: false
  private _users?: string[]; 
  public get users() {
    return this.getListAttribute('users');
  }
  public set users(value: string[]) {
    this._users = value;
  }
  public resetUsers() {
    this._users = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get usersInput() {
    return this._users;
  }

  // views - computed: false, optional: true, required: false
  private _views?: string[]; 
  public get views() {
    return this.getListAttribute('views');
  }
  public set views(value: string[]) {
    this._views = value;
  }
  public resetViews() {
    this._views = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get viewsInput() {
    return this._views;
  }
}
export interface RoleViewCapabilities {
  /**
  * Actions granted on the view's query: read.
  *
  * Reference: {@link ../../../docs/resources/role.md#query Role#query}
  */
  readonly query?: string[];
  /**
  * Actions granted on the view's share: create, read, delete.
  *
  * Reference: {@link ../../../docs/resources/role.md#share Role#share}
  */
  readonly share?: string[];
}

export function roleViewCapabilitiesToTerraform(struct?: RoleViewCapabilities | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    query: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.query),
    share: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.share),
  }
}


export function roleViewCapabilitiesToHclTerraform(struct?: RoleViewCapabilities | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    query: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.query),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    share: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.share),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class RoleViewCapabilitiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): RoleViewCapabilities | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._query !== undefined) {
      hasAnyValues = true;
      internalValueResult.query = this._query;
    }
    if (this._share !== undefined) {
      hasAnyValues = true;
      internalValueResult.share = this._share;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: RoleViewCapabilities | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._query = undefined;
      this._share = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._query = value.query;
      this._share = value.share;
    }
  }

  // query - computed: false, optional: true, required: false
  private _query?: string[]; 
  public get query() {
    return this.getListAttribute('query');
  }
  public set query(value: string[]) {
    this._query = value;
  }
  public resetQuery() {
    this._query = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get queryInput() {
    return this._query;
  }

  // share - computed: false, optional: true, required: false
  private _share?: string[]; 
  public get share() {
    return this.getListAttribute('share');
  }
  public set share(value: string[]) {
    this._share = value;
  }
  public resetShare() {
    this._share = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get shareInput() {
    return this._share;
  }
}

export class RoleViewCapabilitiesMap extends cdktf.ComplexMap {
  public internalValue? : { [key: string]: RoleViewCapabilities } | cdktf.IResolvable

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
  public get(key: string): RoleViewCapabilitiesOutputReference {
    return new RoleViewCapabilitiesOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}

/**
* Represents a {@link ../../../docs/resources/role.md ods_role}
*/
export class Role extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_role";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Role resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Role to import
  * @param importFromId The id of the existing Role that should be imported. Refer to the {@link ../../../docs/resources/role.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Role to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_role", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/role.md ods_role} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options RoleConfig
  */
  public constructor(scope: Construct, id: string, config: RoleConfig) {
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
    validateWithModel(this, 'resource');
    this._datasetCapabilities.internalValue = config.datasetCapabilities;
    this._description = config.description;
    this._members = config.members;
    this._name = config.name;
    this._orgCapabilities.internalValue = config.orgCapabilities;
    this._viewCapabilities.internalValue = config.viewCapabilities;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // dataset_capabilities - computed: false, optional: true, required: false
  private _datasetCapabilities = new RoleDatasetCapabilitiesMap(this, "dataset_capabilities");
  public get datasetCapabilities() {
    return this._datasetCapabilities;
  }
  public putDatasetCapabilities(value: { [key: string]: RoleDatasetCapabilities } | cdktf.IResolvable) {
    this._datasetCapabilities.internalValue = value;
  }
  public resetDatasetCapabilities() {
    this._datasetCapabilities.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get datasetCapabilitiesInput() {
    return this._datasetCapabilities.internalValue;
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

  // members - computed: false, optional: true, required: false
  private _members?: string[]; 
  public get members() {
    return this.getListAttribute('members');
  }
  public set members(value: string[]) {
    this._members = value;
  }
  public resetMembers() {
    this._members = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get membersInput() {
    return this._members;
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

  // org_capabilities - computed: false, optional: true, required: false
  private _orgCapabilities = new RoleOrgCapabilitiesOutputReference(this, "org_capabilities");
  public get orgCapabilities() {
    return this._orgCapabilities;
  }
  public putOrgCapabilities(value: RoleOrgCapabilities) {
    this._orgCapabilities.internalValue = value;
  }
  public resetOrgCapabilities() {
    this._orgCapabilities.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get orgCapabilitiesInput() {
    return this._orgCapabilities.internalValue;
  }

  // view_capabilities - computed: false, optional: true, required: false
  private _viewCapabilities = new RoleViewCapabilitiesMap(this, "view_capabilities");
  public get viewCapabilities() {
    return this._viewCapabilities;
  }
  public putViewCapabilities(value: { [key: string]: RoleViewCapabilities } | cdktf.IResolvable) {
    this._viewCapabilities.internalValue = value;
  }
  public resetViewCapabilities() {
    this._viewCapabilities.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get viewCapabilitiesInput() {
    return this._viewCapabilities.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      dataset_capabilities: cdktf.hashMapper(roleDatasetCapabilitiesToTerraform)(this._datasetCapabilities.internalValue),
      description: cdktf.stringToTerraform(this._description),
      members: cdktf.listMapper(cdktf.stringToTerraform, false)(this._members),
      name: cdktf.stringToTerraform(this._name),
      org_capabilities: roleOrgCapabilitiesToTerraform(this._orgCapabilities.internalValue),
      view_capabilities: cdktf.hashMapper(roleViewCapabilitiesToTerraform)(this._viewCapabilities.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      dataset_capabilities: {
        value: cdktf.hashMapperHcl(roleDatasetCapabilitiesToHclTerraform)(this._datasetCapabilities.internalValue),
        isBlock: true,
        type: "map",
        storageClassType: "RoleDatasetCapabilitiesMap",
      },
      description: {
        value: cdktf.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      members: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._members),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      org_capabilities: {
        value: roleOrgCapabilitiesToHclTerraform(this._orgCapabilities.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "RoleOrgCapabilities",
      },
      view_capabilities: {
        value: cdktf.hashMapperHcl(roleViewCapabilitiesToHclTerraform)(this._viewCapabilities.internalValue),
        isBlock: true,
        type: "map",
        storageClassType: "RoleViewCapabilitiesMap",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
