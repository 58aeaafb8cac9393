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
  readonly chatAUrl?: string;
  /**
  * Write-only form of `chat_a_url` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `chat_a_url_wo_version` changes; set exactly one of `chat_a_url` and `chat_a_url_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_a_url_wo Notifier#chat_a_url_wo}
  */
  readonly chatAUrlWo?: string;
  /**
  * Version of `chat_a_url_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_a_url_wo_version Notifier#chat_a_url_wo_version}
  */
  readonly chatAUrlWoVersion?: number;
}

export function notifierPropertiesChatAToTerraform(struct?: NotifierPropertiesChatA | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_a_url: cdktf.stringToTerraform(struct!.chatAUrl),
    chat_a_url_wo: cdktf.stringToTerraform(struct!.chatAUrlWo),
    chat_a_url_wo_version: cdktf.numberToTerraform(struct!.chatAUrlWoVersion),
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
    chat_a_url_wo: {
      value: cdktf.stringToHclTerraform(struct!.chatAUrlWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    chat_a_url_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.chatAUrlWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._chatAUrlWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatAUrlWo = this._chatAUrlWo;
    }
    if (this._chatAUrlWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatAUrlWoVersion = this._chatAUrlWoVersion;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatA | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatAUrl = undefined;
      this._chatAUrlWo = undefined;
      this._chatAUrlWoVersion = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatAUrl = value.chatAUrl;
      this._chatAUrlWo = value.chatAUrlWo;
      this._chatAUrlWoVersion = value.chatAUrlWoVersion;
    }
  }

  // chat_a_url - computed: false, optional: true, required: false
  private _chatAUrl?: string; 
  public get chatAUrl() {
    return this.getStringAttribute('chat_a_url');
  }
  public set chatAUrl(value: string) {
    this._chatAUrl = value;
  }
  public resetChatAUrl() {
    this._chatAUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatAUrlInput() {
    return this._chatAUrl;
  }

  // chat_a_url_wo - computed: false, optional: true, required: false
  private _chatAUrlWo?: string; 
  public get chatAUrlWo() {
    return this.getStringAttribute('chat_a_url_wo');
  }
  public set chatAUrlWo(value: string) {
    this._chatAUrlWo = value;
  }
  public resetChatAUrlWo() {
    this._chatAUrlWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatAUrlWoInput() {
    return this._chatAUrlWo;
  }

  // chat_a_url_wo_version - computed: false, optional: true, required: false
  private _chatAUrlWoVersion?: number; 
  public get chatAUrlWoVersion() {
    return this.getNumberAttribute('chat_a_url_wo_version');
  }
  public set chatAUrlWoVersion(value: number) {
    this._chatAUrlWoVersion = value;
  }
  public resetChatAUrlWoVersion() {
    this._chatAUrlWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatAUrlWoVersionInput() {
    return this._chatAUrlWoVersion;
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
  readonly chatBToken?: string;
  /**
  * Write-only form of `chat_b_token` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `chat_b_token_wo_version` changes; set exactly one of `chat_b_token` and `chat_b_token_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_token_wo Notifier#chat_b_token_wo}
  */
  readonly chatBTokenWo?: string;
  /**
  * Version of `chat_b_token_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_token_wo_version Notifier#chat_b_token_wo_version}
  */
  readonly chatBTokenWoVersion?: number;
}

export function notifierPropertiesChatBToTerraform(struct?: NotifierPropertiesChatB | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_b_channel: cdktf.stringToTerraform(struct!.chatBChannel),
    chat_b_token: cdktf.stringToTerraform(struct!.chatBToken),
    chat_b_token_wo: cdktf.stringToTerraform(struct!.chatBTokenWo),
    chat_b_token_wo_version: cdktf.numberToTerraform(struct!.chatBTokenWoVersion),
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
    chat_b_token_wo: {
      value: cdktf.stringToHclTerraform(struct!.chatBTokenWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    chat_b_token_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.chatBTokenWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._chatBTokenWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBTokenWo = this._chatBTokenWo;
    }
    if (this._chatBTokenWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBTokenWoVersion = this._chatBTokenWoVersion;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatB | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatBChannel = undefined;
      this._chatBToken = undefined;
      this._chatBTokenWo = undefined;
      this._chatBTokenWoVersion = undefined;
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
      this._chatBTokenWo = value.chatBTokenWo;
      this._chatBTokenWoVersion = value.chatBTokenWoVersion;
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

  // chat_b_token - computed: false, optional: true, required: false
  private _chatBToken?: string; 
  public get chatBToken() {
    return this.getStringAttribute('chat_b_token');
  }
  public set chatBToken(value: string) {
    this._chatBToken = value;
  }
  public resetChatBToken() {
    this._chatBToken = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBTokenInput() {
    return this._chatBToken;
  }

  // chat_b_token_wo - computed: false, optional: true, required: false
  private _chatBTokenWo?: string; 
  public get chatBTokenWo() {
    return this.getStringAttribute('chat_b_token_wo');
  }
  public set chatBTokenWo(value: string) {
    this._chatBTokenWo = value;
  }
  public resetChatBTokenWo() {
    this._chatBTokenWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBTokenWoInput() {
    return this._chatBTokenWo;
  }

  // chat_b_token_wo_version - computed: false, optional: true, required: false
  private _chatBTokenWoVersion?: number; 
  public get chatBTokenWoVersion() {
    return this.getNumberAttribute('chat_b_token_wo_version');
  }
  public set chatBTokenWoVersion(value: number) {
    this._chatBTokenWoVersion = value;
  }
  public resetChatBTokenWoVersion() {
    this._chatBTokenWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBTokenWoVersionInput() {
    return this._chatBTokenWoVersion;
  }
}
export interface NotifierPropertiesChatBWebhook {
  /**
  * Incoming-webhook URL; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_webhook_url Notifier#chat_b_webhook_url}
  */
  readonly chatBWebhookUrl?: string;
  /**
  * Write-only form of `chat_b_webhook_url` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `chat_b_webhook_url_wo_version` changes; set exactly one of `chat_b_webhook_url` and `chat_b_webhook_url_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_webhook_url_wo Notifier#chat_b_webhook_url_wo}
  */
  readonly chatBWebhookUrlWo?: string;
  /**
  * Version of `chat_b_webhook_url_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_b_webhook_url_wo_version Notifier#chat_b_webhook_url_wo_version}
  */
  readonly chatBWebhookUrlWoVersion?: number;
}

export function notifierPropertiesChatBWebhookToTerraform(struct?: NotifierPropertiesChatBWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_b_webhook_url: cdktf.stringToTerraform(struct!.chatBWebhookUrl),
    chat_b_webhook_url_wo: cdktf.stringToTerraform(struct!.chatBWebhookUrlWo),
    chat_b_webhook_url_wo_version: cdktf.numberToTerraform(struct!.chatBWebhookUrlWoVersion),
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
    chat_b_webhook_url_wo: {
      value: cdktf.stringToHclTerraform(struct!.chatBWebhookUrlWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    chat_b_webhook_url_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.chatBWebhookUrlWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._chatBWebhookUrlWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBWebhookUrlWo = this._chatBWebhookUrlWo;
    }
    if (this._chatBWebhookUrlWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatBWebhookUrlWoVersion = this._chatBWebhookUrlWoVersion;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatBWebhook | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatBWebhookUrl = undefined;
      this._chatBWebhookUrlWo = undefined;
      this._chatBWebhookUrlWoVersion = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatBWebhookUrl = value.chatBWebhookUrl;
      this._chatBWebhookUrlWo = value.chatBWebhookUrlWo;
      this._chatBWebhookUrlWoVersion = value.chatBWebhookUrlWoVersion;
    }
  }

  // chat_b_webhook_url - computed: false, optional: true, required: false
  private _chatBWebhookUrl?: string; 
  public get chatBWebhookUrl() {
    return this.getStringAttribute('chat_b_webhook_url');
  }
  public set chatBWebhookUrl(value: string) {
    this._chatBWebhookUrl = value;
  }
  public resetChatBWebhookUrl() {
    this._chatBWebhookUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBWebhookUrlInput() {
    return this._chatBWebhookUrl;
  }

  // chat_b_webhook_url_wo - computed: false, optional: true, required: false
  private _chatBWebhookUrlWo?: string; 
  public get chatBWebhookUrlWo() {
    return this.getStringAttribute('chat_b_webhook_url_wo');
  }
  public set chatBWebhookUrlWo(value: string) {
    this._chatBWebhookUrlWo = value;
  }
  public resetChatBWebhookUrlWo() {
    this._chatBWebhookUrlWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBWebhookUrlWoInput() {
    return this._chatBWebhookUrlWo;
  }

  // chat_b_webhook_url_wo_version - computed: false, optional: true, required: false
  private _chatBWebhookUrlWoVersion?: number; 
  public get chatBWebhookUrlWoVersion() {
    return this.getNumberAttribute('chat_b_webhook_url_wo_version');
  }
  public set chatBWebhookUrlWoVersion(value: number) {
    this._chatBWebhookUrlWoVersion = value;
  }
  public resetChatBWebhookUrlWoVersion() {
    this._chatBWebhookUrlWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatBWebhookUrlWoVersionInput() {
    return this._chatBWebhookUrlWoVersion;
  }
}
export interface NotifierPropertiesChatC {
  /**
  * Webhook URL; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_c_url Notifier#chat_c_url}
  */
  readonly chatCUrl?: string;
  /**
  * Write-only form of `chat_c_url` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `chat_c_url_wo_version` changes; set exactly one of `chat_c_url` and `chat_c_url_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_c_url_wo Notifier#chat_c_url_wo}
  */
  readonly chatCUrlWo?: string;
  /**
  * Version of `chat_c_url_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#chat_c_url_wo_version Notifier#chat_c_url_wo_version}
  */
  readonly chatCUrlWoVersion?: number;
}

export function notifierPropertiesChatCToTerraform(struct?: NotifierPropertiesChatC | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    chat_c_url: cdktf.stringToTerraform(struct!.chatCUrl),
    chat_c_url_wo: cdktf.stringToTerraform(struct!.chatCUrlWo),
    chat_c_url_wo_version: cdktf.numberToTerraform(struct!.chatCUrlWoVersion),
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
    chat_c_url_wo: {
      value: cdktf.stringToHclTerraform(struct!.chatCUrlWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    chat_c_url_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.chatCUrlWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._chatCUrlWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatCUrlWo = this._chatCUrlWo;
    }
    if (this._chatCUrlWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.chatCUrlWoVersion = this._chatCUrlWoVersion;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesChatC | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._chatCUrl = undefined;
      this._chatCUrlWo = undefined;
      this._chatCUrlWoVersion = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._chatCUrl = value.chatCUrl;
      this._chatCUrlWo = value.chatCUrlWo;
      this._chatCUrlWoVersion = value.chatCUrlWoVersion;
    }
  }

  // chat_c_url - computed: false, optional: true, required: false
  private _chatCUrl?: string; 
  public get chatCUrl() {
    return this.getStringAttribute('chat_c_url');
  }
  public set chatCUrl(value: string) {
    this._chatCUrl = value;
  }
  public resetChatCUrl() {
    this._chatCUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatCUrlInput() {
    return this._chatCUrl;
  }

  // chat_c_url_wo - computed: false, optional: true, required: false
  private _chatCUrlWo?: string; 
  public get chatCUrlWo() {
    return this.getStringAttribute('chat_c_url_wo');
  }
  public set chatCUrlWo(value: string) {
    this._chatCUrlWo = value;
  }
  public resetChatCUrlWo() {
    this._chatCUrlWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatCUrlWoInput() {
    return this._chatCUrlWo;
  }

  // chat_c_url_wo_version - computed: false, optional: true, required: false
  private _chatCUrlWoVersion?: number; 
  public get chatCUrlWoVersion() {
    return this.getNumberAttribute('chat_c_url_wo_version');
  }
  public set chatCUrlWoVersion(value: number) {
    this._chatCUrlWoVersion = value;
  }
  public resetChatCUrlWoVersion() {
    this._chatCUrlWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get chatCUrlWoVersionInput() {
    return this._chatCUrlWoVersion;
  }
}
export interface NotifierPropertiesCustomWebhook {
  /**
  * Request body template (Go text/template syntax) over the alert: {{.Action}} (Open or Closed), {{.Title}} (the monitor's name), {{.Value}}, {{.Body}}, {{.GroupValues}} and more; jsonObject and jsonArray write a value as JSON.
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
  * Write-only form of `secret_headers` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `secret_headers_wo_version` changes; set exactly one of `secret_headers` and `secret_headers_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#secret_headers_wo Notifier#secret_headers_wo}
  */
  readonly secretHeadersWo?: { [key: string]: string };
  /**
  * Version of `secret_headers_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#secret_headers_wo_version Notifier#secret_headers_wo_version}
  */
  readonly secretHeadersWoVersion?: number;
  /**
  * Where the request is sent (a credential: shown as sensitive).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url Notifier#url}
  */
  readonly url?: string;
  /**
  * Write-only form of `url` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `url_wo_version` changes; set exactly one of `url` and `url_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url_wo Notifier#url_wo}
  */
  readonly urlWo?: string;
  /**
  * Version of `url_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url_wo_version Notifier#url_wo_version}
  */
  readonly urlWoVersion?: number;
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
    secret_headers_wo: cdktf.hashMapper(cdktf.stringToTerraform)(struct!.secretHeadersWo),
    secret_headers_wo_version: cdktf.numberToTerraform(struct!.secretHeadersWoVersion),
    url: cdktf.stringToTerraform(struct!.url),
    url_wo: cdktf.stringToTerraform(struct!.urlWo),
    url_wo_version: cdktf.numberToTerraform(struct!.urlWoVersion),
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
    secret_headers_wo: {
      value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(struct!.secretHeadersWo),
      isBlock: false,
      type: "map",
      storageClassType: "stringMap",
    },
    secret_headers_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.secretHeadersWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    url_wo: {
      value: cdktf.stringToHclTerraform(struct!.urlWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    url_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.urlWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._secretHeadersWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.secretHeadersWo = this._secretHeadersWo;
    }
    if (this._secretHeadersWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.secretHeadersWoVersion = this._secretHeadersWoVersion;
    }
    if (this._url !== undefined) {
      hasAnyValues = true;
      internalValueResult.url = this._url;
    }
    if (this._urlWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.urlWo = this._urlWo;
    }
    if (this._urlWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.urlWoVersion = this._urlWoVersion;
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
      this._secretHeadersWo = undefined;
      this._secretHeadersWoVersion = undefined;
      this._url = undefined;
      this._urlWo = undefined;
      this._urlWoVersion = undefined;
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
      this._secretHeadersWo = value.secretHeadersWo;
      this._secretHeadersWoVersion = value.secretHeadersWoVersion;
      this._url = value.url;
      this._urlWo = value.urlWo;
      this._urlWoVersion = value.urlWoVersion;
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

  // secret_headers_wo - computed: false, optional: true, required: false
  private _secretHeadersWo?: { [key: string]: string }; 
  public get secretHeadersWo() {
    return this.getStringMapAttribute('secret_headers_wo');
  }
  public set secretHeadersWo(value: { [key: string]: string }) {
    this._secretHeadersWo = value;
  }
  public resetSecretHeadersWo() {
    this._secretHeadersWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secretHeadersWoInput() {
    return this._secretHeadersWo;
  }

  // secret_headers_wo_version - computed: false, optional: true, required: false
  private _secretHeadersWoVersion?: number; 
  public get secretHeadersWoVersion() {
    return this.getNumberAttribute('secret_headers_wo_version');
  }
  public set secretHeadersWoVersion(value: number) {
    this._secretHeadersWoVersion = value;
  }
  public resetSecretHeadersWoVersion() {
    this._secretHeadersWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secretHeadersWoVersionInput() {
    return this._secretHeadersWoVersion;
  }

  // url - computed: false, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // url_wo - computed: false, optional: true, required: false
  private _urlWo?: string; 
  public get urlWo() {
    return this.getStringAttribute('url_wo');
  }
  public set urlWo(value: string) {
    this._urlWo = value;
  }
  public resetUrlWo() {
    this._urlWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlWoInput() {
    return this._urlWo;
  }

  // url_wo_version - computed: false, optional: true, required: false
  private _urlWoVersion?: number; 
  public get urlWoVersion() {
    return this.getNumberAttribute('url_wo_version');
  }
  public set urlWoVersion(value: number) {
    this._urlWoVersion = value;
  }
  public resetUrlWoVersion() {
    this._urlWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlWoVersionInput() {
    return this._urlWoVersion;
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
  readonly apiKey?: string;
  /**
  * Write-only form of `api_key` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `api_key_wo_version` changes; set exactly one of `api_key` and `api_key_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#api_key_wo Notifier#api_key_wo}
  */
  readonly apiKeyWo?: string;
  /**
  * Version of `api_key_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#api_key_wo_version Notifier#api_key_wo_version}
  */
  readonly apiKeyWoVersion?: number;
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
    api_key_wo: cdktf.stringToTerraform(struct!.apiKeyWo),
    api_key_wo_version: cdktf.numberToTerraform(struct!.apiKeyWoVersion),
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
    api_key_wo: {
      value: cdktf.stringToHclTerraform(struct!.apiKeyWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    api_key_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.apiKeyWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._apiKeyWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.apiKeyWo = this._apiKeyWo;
    }
    if (this._apiKeyWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.apiKeyWoVersion = this._apiKeyWoVersion;
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
      this._apiKeyWo = undefined;
      this._apiKeyWoVersion = undefined;
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
      this._apiKeyWo = value.apiKeyWo;
      this._apiKeyWoVersion = value.apiKeyWoVersion;
      this._isEu = value.isEu;
    }
  }

  // api_key - computed: false, optional: true, required: false
  private _apiKey?: string; 
  public get apiKey() {
    return this.getStringAttribute('api_key');
  }
  public set apiKey(value: string) {
    this._apiKey = value;
  }
  public resetApiKey() {
    this._apiKey = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get apiKeyInput() {
    return this._apiKey;
  }

  // api_key_wo - computed: false, optional: true, required: false
  private _apiKeyWo?: string; 
  public get apiKeyWo() {
    return this.getStringAttribute('api_key_wo');
  }
  public set apiKeyWo(value: string) {
    this._apiKeyWo = value;
  }
  public resetApiKeyWo() {
    this._apiKeyWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get apiKeyWoInput() {
    return this._apiKeyWo;
  }

  // api_key_wo_version - computed: false, optional: true, required: false
  private _apiKeyWoVersion?: number; 
  public get apiKeyWoVersion() {
    return this.getNumberAttribute('api_key_wo_version');
  }
  public set apiKeyWoVersion(value: number) {
    this._apiKeyWoVersion = value;
  }
  public resetApiKeyWoVersion() {
    this._apiKeyWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get apiKeyWoVersionInput() {
    return this._apiKeyWoVersion;
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
  readonly routingKey?: string;
  /**
  * Write-only form of `routing_key` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `routing_key_wo_version` changes; set exactly one of `routing_key` and `routing_key_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#routing_key_wo Notifier#routing_key_wo}
  */
  readonly routingKeyWo?: string;
  /**
  * Version of `routing_key_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#routing_key_wo_version Notifier#routing_key_wo_version}
  */
  readonly routingKeyWoVersion?: number;
  /**
  * API token (secret).
  *
  * Reference: {@link ../../../docs/resources/notifier.md#token Notifier#token}
  */
  readonly token?: string;
  /**
  * Write-only form of `token` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `token_wo_version` changes; set exactly one of `token` and `token_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#token_wo Notifier#token_wo}
  */
  readonly tokenWo?: string;
  /**
  * Version of `token_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#token_wo_version Notifier#token_wo_version}
  */
  readonly tokenWoVersion?: number;
}

export function notifierPropertiesIncidentBToTerraform(struct?: NotifierPropertiesIncidentB | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    routing_key: cdktf.stringToTerraform(struct!.routingKey),
    routing_key_wo: cdktf.stringToTerraform(struct!.routingKeyWo),
    routing_key_wo_version: cdktf.numberToTerraform(struct!.routingKeyWoVersion),
    token: cdktf.stringToTerraform(struct!.token),
    token_wo: cdktf.stringToTerraform(struct!.tokenWo),
    token_wo_version: cdktf.numberToTerraform(struct!.tokenWoVersion),
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
    routing_key_wo: {
      value: cdktf.stringToHclTerraform(struct!.routingKeyWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    routing_key_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.routingKeyWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    token: {
      value: cdktf.stringToHclTerraform(struct!.token),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    token_wo: {
      value: cdktf.stringToHclTerraform(struct!.tokenWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    token_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.tokenWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._routingKeyWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.routingKeyWo = this._routingKeyWo;
    }
    if (this._routingKeyWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.routingKeyWoVersion = this._routingKeyWoVersion;
    }
    if (this._token !== undefined) {
      hasAnyValues = true;
      internalValueResult.token = this._token;
    }
    if (this._tokenWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.tokenWo = this._tokenWo;
    }
    if (this._tokenWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.tokenWoVersion = this._tokenWoVersion;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesIncidentB | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._routingKey = undefined;
      this._routingKeyWo = undefined;
      this._routingKeyWoVersion = undefined;
      this._token = undefined;
      this._tokenWo = undefined;
      this._tokenWoVersion = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._routingKey = value.routingKey;
      this._routingKeyWo = value.routingKeyWo;
      this._routingKeyWoVersion = value.routingKeyWoVersion;
      this._token = value.token;
      this._tokenWo = value.tokenWo;
      this._tokenWoVersion = value.tokenWoVersion;
    }
  }

  // routing_key - computed: false, optional: true, required: false
  private _routingKey?: string; 
  public get routingKey() {
    return this.getStringAttribute('routing_key');
  }
  public set routingKey(value: string) {
    this._routingKey = value;
  }
  public resetRoutingKey() {
    this._routingKey = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get routingKeyInput() {
    return this._routingKey;
  }

  // routing_key_wo - computed: false, optional: true, required: false
  private _routingKeyWo?: string; 
  public get routingKeyWo() {
    return this.getStringAttribute('routing_key_wo');
  }
  public set routingKeyWo(value: string) {
    this._routingKeyWo = value;
  }
  public resetRoutingKeyWo() {
    this._routingKeyWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get routingKeyWoInput() {
    return this._routingKeyWo;
  }

  // routing_key_wo_version - computed: false, optional: true, required: false
  private _routingKeyWoVersion?: number; 
  public get routingKeyWoVersion() {
    return this.getNumberAttribute('routing_key_wo_version');
  }
  public set routingKeyWoVersion(value: number) {
    this._routingKeyWoVersion = value;
  }
  public resetRoutingKeyWoVersion() {
    this._routingKeyWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get routingKeyWoVersionInput() {
    return this._routingKeyWoVersion;
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

  // token_wo - computed: false, optional: true, required: false
  private _tokenWo?: string; 
  public get tokenWo() {
    return this.getStringAttribute('token_wo');
  }
  public set tokenWo(value: string) {
    this._tokenWo = value;
  }
  public resetTokenWo() {
    this._tokenWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenWoInput() {
    return this._tokenWo;
  }

  // token_wo_version - computed: false, optional: true, required: false
  private _tokenWoVersion?: number; 
  public get tokenWoVersion() {
    return this.getNumberAttribute('token_wo_version');
  }
  public set tokenWoVersion(value: number) {
    this._tokenWoVersion = value;
  }
  public resetTokenWoVersion() {
    this._tokenWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenWoVersionInput() {
    return this._tokenWoVersion;
  }
}
export interface NotifierPropertiesWebhook {
  /**
  * Where the alert is posted; it carries a credential.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url Notifier#url}
  */
  readonly url?: string;
  /**
  * Write-only form of `url` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when `url_wo_version` changes; set exactly one of `url` and `url_wo`.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url_wo Notifier#url_wo}
  */
  readonly urlWo?: string;
  /**
  * Version of `url_wo`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.
  *
  * Reference: {@link ../../../docs/resources/notifier.md#url_wo_version Notifier#url_wo_version}
  */
  readonly urlWoVersion?: number;
}

export function notifierPropertiesWebhookToTerraform(struct?: NotifierPropertiesWebhook | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    url_wo: cdktf.stringToTerraform(struct!.urlWo),
    url_wo_version: cdktf.numberToTerraform(struct!.urlWoVersion),
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
    url_wo: {
      value: cdktf.stringToHclTerraform(struct!.urlWo),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    url_wo_version: {
      value: cdktf.numberToHclTerraform(struct!.urlWoVersion),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
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
    if (this._urlWo !== undefined) {
      hasAnyValues = true;
      internalValueResult.urlWo = this._urlWo;
    }
    if (this._urlWoVersion !== undefined) {
      hasAnyValues = true;
      internalValueResult.urlWoVersion = this._urlWoVersion;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NotifierPropertiesWebhook | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._url = undefined;
      this._urlWo = undefined;
      this._urlWoVersion = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._url = value.url;
      this._urlWo = value.urlWo;
      this._urlWoVersion = value.urlWoVersion;
    }
  }

  // url - computed: false, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // url_wo - computed: false, optional: true, required: false
  private _urlWo?: string; 
  public get urlWo() {
    return this.getStringAttribute('url_wo');
  }
  public set urlWo(value: string) {
    this._urlWo = value;
  }
  public resetUrlWo() {
    this._urlWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlWoInput() {
    return this._urlWo;
  }

  // url_wo_version - computed: false, optional: true, required: false
  private _urlWoVersion?: number; 
  public get urlWoVersion() {
    return this.getNumberAttribute('url_wo_version');
  }
  public set urlWoVersion(value: number) {
    this._urlWoVersion = value;
  }
  public resetUrlWoVersion() {
    this._urlWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlWoVersionInput() {
    return this._urlWoVersion;
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
