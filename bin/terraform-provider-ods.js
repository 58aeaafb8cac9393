#!/usr/bin/env node
"use strict";
// The self-contained provider program that `npm run build` bundles (scripts/bundle-provider.js);
// `ods terraform install` packages the same file for Terraform's mirrors.
require("../lib/bundle/terraform-provider-ods.js");
