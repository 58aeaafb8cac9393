// Moved to src/automation (shared by ods test and the automation API).
export * from "../automation/slo-alert-tests";
