// ../../../docs/index.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface OdsProviderConfig {
  /**
  * terraform plan replays each created or changed monitor over this many past days and shows the result as a warning (unset: no backtest; ods plan backtests 7 days unless --no-backtest).
  *
  * Reference: {@link ../../../docs/index.md#backtest_days OdsProvider#backtest_days}
  */
  readonly backtestDays?: number;
  /**
  * Organization id; falls back to ODS_ORG_ID.
  *
  * Reference: {@link ../../../docs/index.md#org_id OdsProvider#org_id}
  */
  readonly orgId?: string;
  /**
  * Client-side request rate limit; defaults to the organization's apiRateLimitPerSecond.
  *
  * Reference: {@link ../../../docs/index.md#rate_limit_per_second OdsProvider#rate_limit_per_second}
  */
  readonly rateLimitPerSecond?: number;
  /**
  * Timeout of one request, e.g. "30s".
  *
  * Reference: {@link ../../../docs/index.md#timeout OdsProvider#timeout}
  */
  readonly timeout?: string;
  /**
  * API token; falls back to ODS_TOKEN.
  *
  * Reference: {@link ../../../docs/index.md#token OdsProvider#token}
  */
  readonly token?: string;
  /**
  * Base URL of the service; falls back to ODS_URL.
  *
  * Reference: {@link ../../../docs/index.md#url OdsProvider#url}
  */
  readonly url?: string;
  /**
  * Alias name
  *
  * Reference: {@link ../../../docs/index.md#alias OdsProvider#alias}
  */
  readonly alias?: string;
}

/**
* Represents a {@link ../../../docs/index.md ods}
*/
export class OdsProvider extends cdktf.TerraformProvider {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a OdsProvider resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the OdsProvider to import
  * @param importFromId The id of the existing OdsProvider that should be imported. Refer to the {@link ../../../docs/index.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the OdsProvider to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/index.md ods} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options OdsProviderConfig = {}
  */
  public constructor(scope: Construct, id: string, config: OdsProviderConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'ods',
      terraformGeneratorMetadata: {
        providerName: 'ods',
        providerVersion: '0.1.0'
      },
      terraformProviderSource: 'registry.terraform.io/ods/ods'
    });
    this._backtestDays = config.backtestDays;
    this._orgId = config.orgId;
    this._rateLimitPerSecond = config.rateLimitPerSecond;
    this._timeout = config.timeout;
    this._token = config.token;
    this._url = config.url;
    this._alias = config.alias;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // backtest_days - computed: false, optional: true, required: false
  private _backtestDays?: number; 
  public get backtestDays() {
    return this._backtestDays;
  }
  public set backtestDays(value: number | undefined) {
    this._backtestDays = value;
  }
  public resetBacktestDays() {
    this._backtestDays = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get backtestDaysInput() {
    return this._backtestDays;
  }

  // org_id - computed: false, optional: true, required: false
  private _orgId?: string; 
  public get orgId() {
    return this._orgId;
  }
  public set orgId(value: string | undefined) {
    this._orgId = value;
  }
  public resetOrgId() {
    this._orgId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get orgIdInput() {
    return this._orgId;
  }

  // rate_limit_per_second - computed: false, optional: true, required: false
  private _rateLimitPerSecond?: number; 
  public get rateLimitPerSecond() {
    return this._rateLimitPerSecond;
  }
  public set rateLimitPerSecond(value: number | undefined) {
    this._rateLimitPerSecond = value;
  }
  public resetRateLimitPerSecond() {
    this._rateLimitPerSecond = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get rateLimitPerSecondInput() {
    return this._rateLimitPerSecond;
  }

  // timeout - computed: false, optional: true, required: false
  private _timeout?: string; 
  public get timeout() {
    return this._timeout;
  }
  public set timeout(value: string | undefined) {
    this._timeout = value;
  }
  public resetTimeout() {
    this._timeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutInput() {
    return this._timeout;
  }

  // token - computed: false, optional: true, required: false
  private _token?: string; 
  public get token() {
    return this._token;
  }
  public set token(value: string | undefined) {
    this._token = value;
  }
  public resetToken() {
    this._token = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenInput() {
    return this._token;
  }

  // url - computed: false, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this._url;
  }
  public set url(value: string | undefined) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // alias - computed: false, optional: true, required: false
  private _alias?: string; 
  public get alias() {
    return this._alias;
  }
  public set alias(value: string | undefined) {
    this._alias = value;
  }
  public resetAlias() {
    this._alias = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get aliasInput() {
    return this._alias;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      backtest_days: cdktf.numberToTerraform(this._backtestDays),
      org_id: cdktf.stringToTerraform(this._orgId),
      rate_limit_per_second: cdktf.numberToTerraform(this._rateLimitPerSecond),
      timeout: cdktf.stringToTerraform(this._timeout),
      token: cdktf.stringToTerraform(this._token),
      url: cdktf.stringToTerraform(this._url),
      alias: cdktf.stringToTerraform(this._alias),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      backtest_days: {
        value: cdktf.numberToHclTerraform(this._backtestDays),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      org_id: {
        value: cdktf.stringToHclTerraform(this._orgId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      rate_limit_per_second: {
        value: cdktf.numberToHclTerraform(this._rateLimitPerSecond),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      timeout: {
        value: cdktf.stringToHclTerraform(this._timeout),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      token: {
        value: cdktf.stringToHclTerraform(this._token),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      url: {
        value: cdktf.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      alias: {
        value: cdktf.stringToHclTerraform(this._alias),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
