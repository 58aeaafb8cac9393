// A read-only stack: what an organization holds, read through every data source and
// shown as outputs. It declares no resource, so applying it changes nothing; run it
// after `npm start` (the demo's objects are what it finds) or against any organization.
// In your own project, import from "cdktf-provider-ods" instead of "../../lib".
import { App, TerraformOutput, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import {
  dataOdsCurrentUser,
  dataOdsDashboard,
  dataOdsDashboards,
  dataOdsDataset,
  dataOdsDatasetFields,
  dataOdsDatasets,
  dataOdsMonitor,
  dataOdsMonitors,
  dataOdsNotifier,
  dataOdsNotifiers,
  dataOdsOrganization,
  dataOdsRole,
  dataOdsRoles,
  dataOdsStarredQueries,
  dataOdsUser,
  dataOdsUsers,
  dataOdsView,
  dataOdsViews,
  dataOdsVirtualFields,
  provider,
} from "../../lib";

/** The dataset the demo fills with sample events, and the names examples/basic gives its objects. */
const DATASET = process.env.INVENTORY_DATASET ?? "web-requests";
const NOTIFIER = process.env.INVENTORY_NOTIFIER ?? "checkout-oncall";
const ROLE = process.env.INVENTORY_ROLE ?? "checkout-readers";
const MONITOR = process.env.INVENTORY_MONITOR ?? "Checkout server errors";
const VIEW = process.env.INVENTORY_VIEW ?? "checkout-server-errors";
const DASHBOARD = process.env.INVENTORY_DASHBOARD ?? "checkout-health";

export class InventoryStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new provider.OdsProvider(this, "ods", {}); // url and token from ODS_URL / ODS_TOKEN

    const org = new dataOdsOrganization.DataOdsOrganization(this, "org", {});
    const me = new dataOdsCurrentUser.DataOdsCurrentUser(this, "me", {});
    const meAgain = new dataOdsUser.DataOdsUser(this, "me_by_email", { email: me.email });
    const users = new dataOdsUsers.DataOdsUsers(this, "users", {});
    const datasets = new dataOdsDatasets.DataOdsDatasets(this, "datasets", {});
    const sample = new dataOdsDataset.DataOdsDataset(this, "sample", { name: DATASET });
    const fields = new dataOdsDatasetFields.DataOdsDatasetFields(this, "fields", { dataset: sample.name });
    const vfields = new dataOdsVirtualFields.DataOdsVirtualFields(this, "virtual_fields", { dataset: sample.name });
    const queries = new dataOdsStarredQueries.DataOdsStarredQueries(this, "queries", { dataset: sample.name });
    const notifiers = new dataOdsNotifiers.DataOdsNotifiers(this, "notifiers", {});
    const oncall = new dataOdsNotifier.DataOdsNotifier(this, "oncall", { name: NOTIFIER });
    const roles = new dataOdsRoles.DataOdsRoles(this, "roles", { namePrefix: "checkout-" });
    const readers = new dataOdsRole.DataOdsRole(this, "readers", { name: ROLE });
    const monitors = new dataOdsMonitors.DataOdsMonitors(this, "monitors", { namePrefix: "Checkout" });
    const errors = new dataOdsMonitor.DataOdsMonitor(this, "errors_monitor", { name: MONITOR });
    const views = new dataOdsViews.DataOdsViews(this, "views", {});
    const serverErrors = new dataOdsView.DataOdsView(this, "server_errors_view", { name: VIEW });
    const dashboards = new dataOdsDashboards.DataOdsDashboards(this, "dashboards", {});
    const health = new dataOdsDashboard.DataOdsDashboard(this, "health", { uid: DASHBOARD });

    new TerraformOutput(this, "organization", { value: org.name });
    new TerraformOutput(this, "caller", { value: meAgain.name });
    new TerraformOutput(this, "all_users", { value: users.users });
    new TerraformOutput(this, "all_datasets", { value: datasets.datasets });
    new TerraformOutput(this, "sample_fields", { value: fields.fields });
    new TerraformOutput(this, "sample_virtual_fields", { value: vfields.virtualFields });
    new TerraformOutput(this, "sample_starred_queries", { value: queries.starredQueries });
    // Notifiers carry their credentials (sensitive): the output must say so, as Terraform requires.
    new TerraformOutput(this, "all_notifiers", { value: notifiers.notifiers, sensitive: true });
    new TerraformOutput(this, "oncall_notifier_id", { value: oncall.id });
    new TerraformOutput(this, "checkout_roles", { value: roles.roles });
    new TerraformOutput(this, "readers_role_id", { value: readers.id });
    new TerraformOutput(this, "checkout_monitors", { value: monitors.monitors });
    new TerraformOutput(this, "errors_monitor_id", { value: errors.id });
    new TerraformOutput(this, "all_views", { value: views.views });
    new TerraformOutput(this, "server_errors_view_id", { value: serverErrors.id });
    new TerraformOutput(this, "all_dashboards", { value: dashboards.dashboards });
    new TerraformOutput(this, "health_dashboard_version", { value: health.version });
  }
}

const app = new App();
new InventoryStack(app, "inventory");
app.synth();
