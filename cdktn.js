// CDK Terrain (cdktn) users: import { notifier } from "cdktf-provider-ods/cdktn".
module.exports = require("./lib/cdktn");
