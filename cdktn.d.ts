// CDK Terrain (cdktn) users: import { notifier } from "cdktf-provider-ods/cdktn".
export * from "./lib/cdktn";
