// Wire types of views, dashboards and annotations (API-CONTRACT-MONITORS.md).

export interface ViewInput {
  name: string;
  aplQuery: string;
  datasets?: string[];
  description?: string;
}

export interface View extends ViewInput {
  id: string;
  /** Read-only: the organization sharing the view. */
  sharedByOrg?: string;
  sharedByOrgName?: string;
}

/** The dashboard document, as the UI shows and copies it (charts, layout, time window...). */
export type DashboardDocument = Record<string, unknown>;

/** The write envelope of POST /v2/dashboards and PUT /v2/dashboards/uid/{uid}. */
export interface DashboardWrite {
  dashboard: DashboardDocument;
  uid?: string;
  /** The version the write is based on: the service refuses (412) when it is not the current one. */
  version?: number;
  /** Write although the version is not the current one, or the uid is taken. */
  overwrite?: boolean;
  message?: string;
}

export interface Dashboard {
  id: string;
  uid: string;
  version: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  dashboard: DashboardDocument;
}

export interface DashboardWriteAnswer {
  status: "created" | "updated";
  overwritten: boolean;
  dashboard: Dashboard;
}

export interface DashboardListPage {
  limit?: number;
  offset?: number;
}

export interface AnnotationInput {
  datasets: string[];
  type: string;
  time?: string;
  endTime?: string;
  title?: string;
  description?: string;
  url?: string;
}

export interface Annotation extends AnnotationInput {
  id: string;
}

export interface AnnotationFilter {
  datasets?: string[];
  start?: string;
  end?: string;
}
