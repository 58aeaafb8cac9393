// ../../../docs/resources/notifier.md
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';
import { validateWithModel } from '../../validation';

// Configuration

export interface NotifierConfig extends cdktf.TerraformMetaArguments {
  /**
  * Alerts are not delivered before this time (ISO 8601).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#disabled_until Notifier#disabled_until}
  */
  readonly disabledUntil?: string;
  /**
  * Unique name of the notifier.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#name Notifier#name}
  */
  readonly name: string;
  /**
  * Channel configurations; at least one.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#properties Notifier#properties}
  */
  readonly properties: NotifierProperties;
}
export interface NotifierPropertiesChatA {
  /**
  * Incoming-webhook URL of the chat A workspace; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_a_url Notifier#chat_a_url}
  */
  readonly chatAUrl: string;
}

export function notifierPropertiesChatAToTerraform(struct?: NotifierPropertiesChatA | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_a_url: cdktf.stringToTerraform(struct!.chatAUrl),
  }
}


export function notifierPropertiesChatAToHclTerraform(struct?: NotifierPropertiesChatA | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    chat_a_url: {
      value: cdktf.stringToHclTerraform(struct!.chatAUrl),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesChatAOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesChatA | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._chatAUrl !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatAUrl = this._chatAUrl;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatA | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatAUrl = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatAUrl = value.chatAUrl;
    }
  }

  // chat_a_url - computed: false, optional: false, required: true
  private _chatAUrl?: string; 
  public get chatAUrl() {
    return this.getStringAttribute('chat_a_url');
  }
  public set chatAUrl(value: string) {
    this._chatAUrl = value;
  }
  // Temporarily expose input value. Use with caution.
  public get chatAUrlInput() {
    return this._chatAUrl;
  }
}
export interface NotifierPropertiesChatB {
  /**
  * Channel name.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_channel Notifier#chat_b_channel}
  */
  readonly chatBChannel: string;
  /**
  * Bot token (secret).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_token Notifier#chat_b_token}
  */
  readonly chatBToken: string;
}

export function notifierPropertiesChatBToTerraform(struct?: NotifierPropertiesChatB | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_b_channel: cdktf.stringToTerraform(struct!.chatBChannel),
    chat_b_token: cdktf.stringToTerraform(struct!.chatBToken),
  }
}


export function notifierPropertiesChatBToHclTerraform(struct?: NotifierPropertiesChatB | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    chat_b_channel: {
      value: cdktf.stringToHclTerraform(struct!.chatBChannel),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    chat_b_token: {
      value: cdktf.stringToHclTerraform(struct!.chatBToken),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesChatBOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesChatB | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._chatBChannel !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBChannel = this._chatBChannel;
    }
    if (this._chatBToken !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBToken = this._chatBToken;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatB | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatBChannel = undefined;
      this._chatBToken = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatBChannel = value.chatBChannel;
      this._chatBToken = value.chatBToken;
    }
  }

  // chat_b_channel - computed: false, optional: false, required: true
  private _chatBChannel?: string; 
  public get chatBChannel() {
    return this.getStringAttribute('chat_b_channel');
  }
  public set chatBChannel(value: string) {
    this._chatBChannel = value;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBChannelInput() {
    return this._chatBChannel;
  }

  // chat_b_token - computed: false, optional: false, required: true
  private _chatBToken?: string; 
  public get chatBToken() {
    return this.getStringAttribute('chat_b_token');
  }
  public set chatBToken(value: string) {
    this._chatBToken = value;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBTokenInput() {
    return this._chatBToken;
  }
}
export interface NotifierPropertiesChatBWebhook {
  /**
  * Incoming-webhook URL; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_webhook_url Notifier#chat_b_webhook_url}
  */
  readonly chatBWebhookUrl: string;
}

export function notifierPropertiesChatBWebhookToTerraform(struct?: NotifierPropertiesChatBWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_b_webhook_url: cdktf.stringToTerraform(struct!.chatBWebhookUrl),
  }
}


export function notifierPropertiesChatBWebhookToHclTerraform(struct?: NotifierPropertiesChatBWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    chat_b_webhook_url: {
      value: cdktf.stringToHclTerraform(struct!.chatBWebhookUrl),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesChatBWebhookOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesChatBWebhook | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._chatBWebhookUrl !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBWebhookUrl = this._chatBWebhookUrl;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatBWebhook | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatBWebhookUrl = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatBWebhookUrl = value.chatBWebhookUrl;
    }
  }

  // chat_b_webhook_url - computed: false, optional: false, required: true
  private _chatBWebhookUrl?: string; 
  public get chatBWebhookUrl() {
    return this.getStringAttribute('chat_b_webhook_url');
  }
  public set chatBWebhookUrl(value: string) {
    this._chatBWebhookUrl = value;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBWebhookUrlInput() {
    return this._chatBWebhookUrl;
  }
}
export interface NotifierPropertiesChatC {
  /**
  * Webhook URL; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_c_url Notifier#chat_c_url}
  */
  readonly chatCUrl: string;
}

export function notifierPropertiesChatCToTerraform(struct?: NotifierPropertiesChatC | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_c_url: cdktf.stringToTerraform(struct!.chatCUrl),
  }
}


export function notifierPropertiesChatCToHclTerraform(struct?: NotifierPropertiesChatC | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    chat_c_url: {
      value: cdktf.stringToHclTerraform(struct!.chatCUrl),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesChatCOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesChatC | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._chatCUrl !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatCUrl = this._chatCUrl;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatC | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatCUrl = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatCUrl = value.chatCUrl;
    }
  }

  // chat_c_url - computed: false, optional: false, required: true
  private _chatCUrl?: string; 
  public get chatCUrl() {
    return this.getStringAttribute('chat_c_url');
  }
  public set chatCUrl(value: string) {
    this._chatCUrl = value;
  }
  // Temporarily expose input value. Use with caution.
  public get chatCUrlInput() {
    return this._chatCUrl;
  }
}
export interface NotifierPropertiesCustomWebhook {
  /**
  * Request body template; may use placeholders such as {{.AlertName}}, {{.Severity}}, {{.Message}}.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#body Notifier#body}
  */
  readonly body?: string;
  /**
  * Request headers.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#headers Notifier#headers}
  */
  readonly headers?: { [key: string]: string };
  /**
  * Request headers whose values are secret (never read back).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#secret_headers Notifier#secret_headers}
  */
  readonly secretHeaders?: { [key: string]: string };
  /**
  * Where the request is sent; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url Notifier#url}
  */
  readonly url: string;
}

export function notifierPropertiesCustomWebhookToTerraform(struct?: NotifierPropertiesCustomWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    body: cdktf.stringToTerraform(struct!.body),
    headers: cdktf.hashMapper(cdktf.stringToTerraform)(struct!.headers),
    secret_headers: cdktf.hashMapper(cdktf.stringToTerraform)(struct!.secretHeaders),
    url: cdktf.stringToTerraform(struct!.url),
  }
}


export function notifierPropertiesCustomWebhookToHclTerraform(struct?: NotifierPropertiesCustomWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    body: {
      value: cdktf.stringToHclTerraform(struct!.body),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    headers: {
      value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(struct!.headers),
      isBlock: false,
      type: "map",
      storageClassType: "stringMap",
    },
    secret_headers: {
      value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(struct!.secretHeaders),
      isBlock: false,
      type: "map",
      storageClassType: "stringMap",
    },
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesCustomWebhookOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesCustomWebhook | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._body !== undefined) {
      hasAnyValues = true;
      internalValueResult.body = this._body;
    }
    if (this._headers !== undefined) {
      hasAnyValues = true;
      internalValueResult.headers = this._headers;
    }
    if (this._secretHeaders !== undefined) {
      hasAnyValues = true;
      internalValueResult.secretHeaders = this._secretHeaders;
    }
    if (this._url !== undefined) {
      hasAnyValues = true;
      internalValueResult.url = this._url;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesCustomWebhook | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._body = undefined;
      this._headers = undefined;
      this._secretHeaders = undefined;
      this._url = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._body = value.body;
      this._headers = value.headers;
      this._secretHeaders = value.secretHeaders;
      this._url = value.url;
    }
  }

  // body - computed: false, optional: true, required: false
  private _body?: string; 
  public get body() {
    return this.getStringAttribute('body');
  }
  public set body(value: string) {
    this._body = value;
  }
  public resetBody() {
    this._body = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bodyInput() {
    return this._body;
  }

  // headers - computed: false, optional: true, required: false
  private _headers?: { [key: string]: string }; 
  public get headers() {
    return this.getStringMapAttribute('headers');
  }
  public set headers(value: { [key: string]: string }) {
    this._headers = value;
  }
  public resetHeaders() {
    this._headers = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get headersInput() {
    return this._headers;
  }

  // secret_headers - computed: false, optional: true, required: false
  private _secretHeaders?: { [key: string]: string }; 
  public get secretHeaders() {
    return this.getStringMapAttribute('secret_headers');
  }
  public set secretHeaders(value: { [key: string]: string }) {
    this._secretHeaders = value;
  }
  public resetSecretHeaders() {
    this._secretHeaders = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secretHeadersInput() {
    return this._secretHeaders;
  }

  // url - computed: false, optional: false, required: true
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }
}
export interface NotifierPropertiesEmail {
  /**
  * Recipients.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#emails Notifier#emails}
  */
  readonly emails: string[];
}

export function notifierPropertiesEmailToTerraform(struct?: NotifierPropertiesEmail | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    emails: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.emails),
  }
}


export function notifierPropertiesEmailToHclTerraform(struct?: NotifierPropertiesEmail | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    emails: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.emails),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesEmailOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesEmail | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._emails !== undefined) {
      hasAnyValues = true;
      internalValueResult.emails = this._emails;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesEmail | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._emails = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._emails = value.emails;
    }
  }

  // emails - computed: false, optional: false, required: true
  private _emails?: string[]; 
  public get emails() {
    return this.getListAttribute('emails');
  }
  public set emails(value: string[]) {
    this._emails = value;
  }
  // Temporarily expose input value. Use with caution.
  public get emailsInput() {
    return this._emails;
  }
}
export interface NotifierPropertiesIncidentA {
  /**
  * Integration API key (secret).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#api_key Notifier#api_key}
  */
  readonly apiKey: string;
  /**
  * Whether the account is in the EU region.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#is_eu Notifier#is_eu}
  */
  readonly isEu?: boolean | cdktf.IResolvable;
}

export function notifierPropertiesIncidentAToTerraform(struct?: NotifierPropertiesIncidentA | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    api_key: cdktf.stringToTerraform(struct!.apiKey),
    is_eu: cdktf.booleanToTerraform(struct!.isEu),
  }
}


export function notifierPropertiesIncidentAToHclTerraform(struct?: NotifierPropertiesIncidentA | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    api_key: {
      value: cdktf.stringToHclTerraform(struct!.apiKey),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    is_eu: {
      value: cdktf.booleanToHclTerraform(struct!.isEu),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesIncidentAOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesIncidentA | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._apiKey !== undefined) {
      hasAnyValues = true;
      internalValueResult.apiKey = this._apiKey;
    }
    if (this._isEu !== undefined) {
      hasAnyValues = true;
      internalValueResult.isEu = this._isEu;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesIncidentA | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._apiKey = undefined;
      this._isEu = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._apiKey = value.apiKey;
      this._isEu = value.isEu;
    }
  }

  // api_key - computed: false, optional: false, required: true
  private _apiKey?: string; 
  public get apiKey() {
    return this.getStringAttribute('api_key');
  }
  public set apiKey(value: string) {
    this._apiKey = value;
  }
  // Temporarily expose input value. Use with caution.
  public get apiKeyInput() {
    return this._apiKey;
  }

  // is_eu - computed: false, optional: true, required: false
  private _isEu?: boolean | cdktf.IResolvable; 
  public get isEu() {
    return this.getBooleanAttribute('is_eu');
  }
  public set isEu(value: boolean | cdktf.IResolvable) {
    this._isEu = value;
  }
  public resetIsEu() {
    this._isEu = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get isEuInput() {
    return this._isEu;
  }
}
export interface NotifierPropertiesIncidentB {
  /**
  * Routing key (secret).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#routing_key Notifier#routing_key}
  */
  readonly routingKey: string;
  /**
  * API token (secret).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#token Notifier#token}
  */
  readonly token?: string;
}

export function notifierPropertiesIncidentBToTerraform(struct?: NotifierPropertiesIncidentB | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    routing_key: cdktf.stringToTerraform(struct!.routingKey),
    token: cdktf.stringToTerraform(struct!.token),
  }
}


export function notifierPropertiesIncidentBToHclTerraform(struct?: NotifierPropertiesIncidentB | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    routing_key: {
      value: cdktf.stringToHclTerraform(struct!.routingKey),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    token: {
      value: cdktf.stringToHclTerraform(struct!.token),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesIncidentBOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesIncidentB | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._routingKey !== undefined) {
      hasAnyValues = true;
      internalValueResult.routingKey = this._routingKey;
    }
    if (this._token !== undefined) {
      hasAnyValues = true;
      internalValueResult.token = this._token;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesIncidentB | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._routingKey = undefined;
      this._token = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._routingKey = value.routingKey;
      this._token = value.token;
    }
  }

  // routing_key - computed: false, optional: false, required: true
  private _routingKey?: string; 
  public get routingKey() {
    return this.getStringAttribute('routing_key');
  }
  public set routingKey(value: string) {
    this._routingKey = value;
  }
  // Temporarily expose input value. Use with caution.
  public get routingKeyInput() {
    return this._routingKey;
  }

  // token - computed: false, optional: true, required: false
  private _token?: string; 
  public get token() {
    return this.getStringAttribute('token');
  }
  public set token(value: string) {
    this._token = value;
  }
  public resetToken() {
    this._token = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenInput() {
    return this._token;
  }
}
export interface NotifierPropertiesWebhook {
  /**
  * Where the alert is posted; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url Notifier#url}
  */
  readonly url: string;
}

export function notifierPropertiesWebhookToTerraform(struct?: NotifierPropertiesWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
  }
}


export function notifierPropertiesWebhookToHclTerraform(struct?: NotifierPropertiesWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesWebhookOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierPropertiesWebhook | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._url !== undefined) {
      hasAnyValues = true;
      internalValueResult.url = this._url;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesWebhook | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._url = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._url = value.url;
    }
  }

  // url - computed: false, optional: false, required: true
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }
}
export interface NotifierProperties {
  /**
  * Chat A channel.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_a Notifier#chat_a}
  */
  readonly chatA?: NotifierPropertiesChatA;
  /**
  * Chat B channel posted through its API.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b Notifier#chat_b}
  */
  readonly chatB?: NotifierPropertiesChatB;
  /**
  * Chat B channel through an incoming webhook.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_webhook Notifier#chat_b_webhook}
  */
  readonly chatBWebhook?: NotifierPropertiesChatBWebhook;
  /**
  * Chat C channel.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_c Notifier#chat_c}
  */
  readonly chatC?: NotifierPropertiesChatC;
  /**
  * A webhook with a custom body and headers.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#custom_webhook Notifier#custom_webhook}
  */
  readonly customWebhook?: NotifierPropertiesCustomWebhook;
  /**
  * E-mail delivery.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#email Notifier#email}
  */
  readonly email?: NotifierPropertiesEmail;
  /**
  * Incident management A.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#incident_a Notifier#incident_a}
  */
  readonly incidentA?: NotifierPropertiesIncidentA;
  /**
  * Incident management B.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#incident_b Notifier#incident_b}
  */
  readonly incidentB?: NotifierPropertiesIncidentB;
  /**
  * A plain webhook.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#webhook Notifier#webhook}
  */
  readonly webhook?: NotifierPropertiesWebhook;
}

export function notifierPropertiesToTerraform(struct?: NotifierProperties | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_a: notifierPropertiesChatAToTerraform(struct!.chatA),
    chat_b: notifierPropertiesChatBToTerraform(struct!.chatB),
    chat_b_webhook: notifierPropertiesChatBWebhookToTerraform(struct!.chatBWebhook),
    chat_c: notifierPropertiesChatCToTerraform(struct!.chatC),
    custom_webhook: notifierPropertiesCustomWebhookToTerraform(struct!.customWebhook),
    email: notifierPropertiesEmailToTerraform(struct!.email),
    incident_a: notifierPropertiesIncidentAToTerraform(struct!.incidentA),
    incident_b: notifierPropertiesIncidentBToTerraform(struct!.incidentB),
    webhook: notifierPropertiesWebhookToTerraform(struct!.webhook),
  }
}


export function notifierPropertiesToHclTerraform(struct?: NotifierProperties | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    chat_a: {
      value: notifierPropertiesChatAToHclTerraform(struct!.chatA),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesChatA",
    },
    chat_b: {
      value: notifierPropertiesChatBToHclTerraform(struct!.chatB),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesChatB",
    },
    chat_b_webhook: {
      value: notifierPropertiesChatBWebhookToHclTerraform(struct!.chatBWebhook),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesChatBWebhook",
    },
    chat_c: {
      value: notifierPropertiesChatCToHclTerraform(struct!.chatC),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesChatC",
    },
    custom_webhook: {
      value: notifierPropertiesCustomWebhookToHclTerraform(struct!.customWebhook),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesCustomWebhook",
    },
    email: {
      value: notifierPropertiesEmailToHclTerraform(struct!.email),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesEmail",
    },
    incident_a: {
      value: notifierPropertiesIncidentAToHclTerraform(struct!.incidentA),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesIncidentA",
    },
    incident_b: {
      value: notifierPropertiesIncidentBToHclTerraform(struct!.incidentB),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesIncidentB",
    },
    webhook: {
      value: notifierPropertiesWebhookToHclTerraform(struct!.webhook),
      isBlock: true,
      type: "struct",
      storageClassType: "NotifierPropertiesWebhook",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NotifierPropertiesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NotifierProperties | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._chatA?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatA = this._chatA?.internalValue;
    }
    if (this._chatB?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatB = this._chatB?.internalValue;
    }
    if (this._chatBWebhook?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBWebhook = this._chatBWebhook?.internalValue;
    }
    if (this._chatC?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatC = this._chatC?.internalValue;
    }
    if (this._customWebhook?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.customWebhook = this._customWebhook?.internalValue;
    }
    if (this._email?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.email = this._email?.internalValue;
    }
    if (this._incidentA?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.incidentA = this._incidentA?.internalValue;
    }
    if (this._incidentB?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.incidentB = this._incidentB?.internalValue;
    }
    if (this._webhook?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.webhook = this._webhook?.internalValue;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierProperties | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatA.internalValue = undefined;
      this._chatB.internalValue = undefined;
      this._chatBWebhook.internalValue = undefined;
      this._chatC.internalValue = undefined;
      this._customWebhook.internalValue = undefined;
      this._email.internalValue = undefined;
      this._incidentA.internalValue = undefined;
      this._incidentB.internalValue = undefined;
      this._webhook.internalValue = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatA.internalValue = value.chatA;
      this._chatB.internalValue = value.chatB;
      this._chatBWebhook.internalValue = value.chatBWebhook;
      this._chatC.internalValue = value.chatC;
      this._customWebhook.internalValue = value.customWebhook;
      this._email.internalValue = value.email;
      this._incidentA.internalValue = value.incidentA;
      this._incidentB.internalValue = value.incidentB;
      this._webhook.internalValue = value.webhook;
    }
  }

  // chat_a - computed: false, optional: true, required: false
  private _chatA = new NotifierPropertiesChatAOutputReference(this, "chat_a");
  public get chatA() {
    return this._chatA;
  }
  public putChatA(value: NotifierPropertiesChatA) {
    this._chatA.internalValue = value;
  }
  public resetChatA() {
    this._chatA.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatAInput() {
    return this._chatA.internalValue;
  }

  // chat_b - computed: false, optional: true, required: false
  private _chatB = new NotifierPropertiesChatBOutputReference(this, "chat_b");
  public get chatB() {
    return this._chatB;
  }
  public putChatB(value: NotifierPropertiesChatB) {
    this._chatB.internalValue = value;
  }
  public resetChatB() {
    this._chatB.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBInput() {
    return this._chatB.internalValue;
  }

  // chat_b_webhook - computed: false, optional: true, required: false
  private _chatBWebhook = new NotifierPropertiesChatBWebhookOutputReference(this, "chat_b_webhook");
  public get chatBWebhook() {
    return this._chatBWebhook;
  }
  public putChatBWebhook(value: NotifierPropertiesChatBWebhook) {
    this._chatBWebhook.internalValue = value;
  }
  public resetChatBWebhook() {
    this._chatBWebhook.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBWebhookInput() {
    return this._chatBWebhook.internalValue;
  }

  // chat_c - computed: false, optional: true, required: false
  private _chatC = new NotifierPropertiesChatCOutputReference(this, "chat_c");
  public get chatC() {
    return this._chatC;
  }
  public putChatC(value: NotifierPropertiesChatC) {
    this._chatC.internalValue = value;
  }
  public resetChatC() {
    this._chatC.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatCInput() {
    return this._chatC.internalValue;
  }

  // custom_webhook - computed: false, optional: true, required: false
  private _customWebhook = new NotifierPropertiesCustomWebhookOutputReference(this, "custom_webhook");
  public get customWebhook() {
    return this._customWebhook;
  }
  public putCustomWebhook(value: NotifierPropertiesCustomWebhook) {
    this._customWebhook.internalValue = value;
  }
  public resetCustomWebhook() {
    this._customWebhook.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get customWebhookInput() {
    return this._customWebhook.internalValue;
  }

  // email - computed: false, optional: true, required: false
  private _email = new NotifierPropertiesEmailOutputReference(this, "email");
  public get email() {
    return this._email;
  }
  public putEmail(value: NotifierPropertiesEmail) {
    this._email.internalValue = value;
  }
  public resetEmail() {
    this._email.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get emailInput() {
    return this._email.internalValue;
  }

  // incident_a - computed: false, optional: true, required: false
  private _incidentA = new NotifierPropertiesIncidentAOutputReference(this, "incident_a");
  public get incidentA() {
    return this._incidentA;
  }
  public putIncidentA(value: NotifierPropertiesIncidentA) {
    this._incidentA.internalValue = value;
  }
  public resetIncidentA() {
    this._incidentA.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get incidentAInput() {
    return this._incidentA.internalValue;
  }

  // incident_b - computed: false, optional: true, required: false
  private _incidentB = new NotifierPropertiesIncidentBOutputReference(this, "incident_b");
  public get incidentB() {
    return this._incidentB;
  }
  public putIncidentB(value: NotifierPropertiesIncidentB) {
    this._incidentB.internalValue = value;
  }
  public resetIncidentB() {
    this._incidentB.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get incidentBInput() {
    return this._incidentB.internalValue;
  }

  // webhook - computed: false, optional: true, required: false
  private _webhook = new NotifierPropertiesWebhookOutputReference(this, "webhook");
  public get webhook() {
    return this._webhook;
  }
  public putWebhook(value: NotifierPropertiesWebhook) {
    this._webhook.internalValue = value;
  }
  public resetWebhook() {
    this._webhook.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get webhookInput() {
    return this._webhook.internalValue;
  }
}

/**
* Represents a {@link ../../../docs/resources/notifier.md ods_notifier}
*/
export class Notifier extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "ods_notifier";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Notifier resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Notifier to import
  * @param importFromId The id of the existing Notifier that should be imported. Refer to the {@link ../../../docs/resources/notifier.md#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Notifier to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "ods_notifier", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link ../../../docs/resources/notifier.md ods_notifier} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options NotifierConfig
  */
  public constructor(scope: Construct, id: string, config: NotifierConfig) {
    super(scope, id, {
      terraformResourceType: 'ods_notifier',
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
    this._disabledUntil = config.disabledUntil;
    this._name = config.name;
    this._properties.internalValue = config.properties;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // created_by - computed: true, optional: false, required: false
  public get createdBy() {
    return this.getStringAttribute('created_by');
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

  // properties - computed: false, optional: false, required: true
  private _properties = new NotifierPropertiesOutputReference(this, "properties");
  public get properties() {
    return this._properties;
  }
  public putProperties(value: NotifierProperties) {
    this._properties.internalValue = value;
  }
  // Temporarily expose input value. Use with caution.
  public get propertiesInput() {
    return this._properties.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      disabled_until: cdktf.stringToTerraform(this._disabledUntil),
      name: cdktf.stringToTerraform(this._name),
      properties: notifierPropertiesToTerraform(this._properties.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      disabled_until: {
        value: cdktf.stringToHclTerraform(this._disabledUntil),
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
      properties: {
        value: notifierPropertiesToHclTerraform(this._properties.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "NotifierProperties",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
