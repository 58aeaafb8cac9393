// Moved to src/automation (shared by ods test, ods slo import and the automation API).
export * from "../automation/file-problems";
