// Moved to src/automation/alert-tests (the alert tests run by ods test and the automation API's test()).
export * from "../../automation/alert-tests/report";
