// ../../../docs/data-sources/organization.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface DataOdsOrganizationConfig extends cdktf.TerraformMetaArguments {
  /**
  * Organization id; the configured one (or the first) when unset.
  *
  * Reference: {@link ../../../docs/data-sources/organization.md#id DataOdsOrganization#id}
  *
  * Please be aware that the id field is automatically added to all resources in Terraform providers using a Terraform provider SDK version below 2.
  * If you experience problems setting this value it might not be settable. Please take a look at the provider documentation to ensure it should be settable.
  */
  readonly id?: string;
}
export interface DataOdsOrganizationLicense {
}

export function dataOdsOrganizationLicenseToTerraform(struct?: DataOdsOrganizationLicense): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataOdsOrganizationLicenseToHclTerraform(struct?: DataOdsOrganizationLicense): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataOdsOrganizationLicenseOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataOdsOrganizationLicense | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataOdsOrganizationLicense | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // api_rate_limit_per_second - computed: true, optional: false, required: false
  public get apiRateLimitPerSecond() {
    return this.getNumberAttribute('api_rate_limit_per_second');
  }

  // expires_at - computed: true, optional: false, required: false
  public get expiresAt() {
    return this.getStringAttribute('expires_at');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // issued_at - computed: true, optional: false, required: false
  public get issuedAt() {
    return this.getStringAttribute('issued_at');
  }

  // issued_to - computed: true, optional: false, required: false
  public get issuedTo() {
    return this.getStringAttribute('issued_to');
  }

  // issuer - computed: true, optional: false, required: false
  public get issuer() {
    return this.getStringAttribute('issuer');
  }

  // max_audit_window_seconds - computed: true, optional: false, required: false
  public get maxAuditWindowSeconds() {
    return this.getNumberAttribute('max_audit_window_seconds');
  }

  // max_datasets - computed: true, optional: false, required: false
  public get maxDatasets() {
    return this.getNumberAttribute('max_datasets');
  }

  // max_endpoints - computed: true, optional: false, required: false
  public get maxEndpoints() {
    return this.getNumberAttribute('max_endpoints');
  }

  // max_fields - computed: true, optional: false, required: false
  public get maxFields() {
    return this.getNumberAttribute('max_fields');
  }

  // max_monitors - computed: true, optional: false, required: false
  public get maxMonitors() {
    return this.getNumberAttribute('max_monitors');
  }

  // max_query_window_seconds - computed: true, optional: false, required: false
  public get maxQueryWindowSeconds() {
    return this.getNumberAttribute('max_query_window_seconds');
  }

  // max_users - computed: true, optional: false, required: false
  public get maxUsers() {
    return this.getNumberAttribute('max_users');
  }

  // monthly_ingest_gb - computed: true, optional: false, required: false
  public get monthlyIngestGb() {
    return this.getNumberAttribute('monthly_ingest_gb');
  }

  // monthly_query_gb_hours - computed: true, optional: false, required: false
  public get monthlyQueryGbHours() {
    return this.getNumberAttribute('monthly_query_gb_hours');
  }

  // storage_allowance_gb - computed: true, optional: false, required: false
  public get storageAllowanceGb() {
    return this.getNumberAttribute('storage_allowance_gb');
  }

  // tier - computed: true, optional: false, required: false
  public get tier() {
    return this.getStringAttribute('tier');
  }

  // valid_from - computed: true, optional: false, required: false
  public get validFrom() {
    return this.getStringAttribute('valid_from');
  }

  // with_auths - computed: true, optional: false, required: false
  public get withAuths() {
    return this.getListAttribute('with_auths');
  }
}

/**
* Represents a {@link ../../../docs/data-sources/organization.md ods_organization}
*/
export class DataOdsOrganization extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_organization";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataOdsOrganization resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataOdsOrganization to import
  * @param importFromId The id of the existing DataOdsOrganization that should be imported. Refer to the {@link ../../../docs/data-sources/organization.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataOdsOrganization to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_organization", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/data-sources/organization.md ods_organization} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataOdsOrganizationConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataOdsOrganizationConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'ods_organization',
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
  }

  // ==========
  // ATTRIBUTES
  // ==========

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

  // license - computed: true, optional: false, required: false
  private _license = new DataOdsOrganizationLicenseOutputReference(this, "license");
  public get license() {
    return this._license;
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // payment_status - computed: true, optional: false, required: false
  public get paymentStatus() {
    return this.getStringAttribute('payment_status');
  }

  // plan - computed: true, optional: false, required: false
  public get plan() {
    return this.getStringAttribute('plan');
  }

  // primary_email - computed: true, optional: false, required: false
  public get primaryEmail() {
    return this.getStringAttribute('primary_email');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      id: cdktf.stringToTerraform(this._id),
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
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
