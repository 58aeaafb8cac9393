// cdktf-provider-ods/automation: the project's engine and emulator from code.
export {
  startEmulator,
  EmulatorOptionError,
  type CreateTokenOptions,
  type CreatedToken,
  type DeliveriesOptions,
  type EmulatorInstance,
  type FaultSpec,
  type LicenseSettings,
  type StartEmulatorOptions,
  type WebhookDelivery,
} from "./emulator";
export type { Capabilities, IngestEvent, IngestResult } from "../api";
