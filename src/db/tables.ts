// The database as Kysely sees it: every area's tables (db/tables/<area>.ts) composed into DB, and
// the row types code reads. A new area adds its file there and one `extends` here.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type {
  BillingTables,
  ChangeOrderAuditEventTable,
  ChangeOrderTable,
  ChangeOrderTables,
  InvoiceTable,
  JobContractTable,
  PaymentEventTable,
} from './tables/billing.ts';
import type { ConditionRatingTable, ConditionTables } from './tables/condition.ts';
import type {
  MeasurementHistoryTable,
  MeasurementItemTable,
  MeasurementShapeTable,
  MeasurementTable,
  MeasurementTables,
} from './tables/measurement.ts';
import type { CrmTables } from './tables/crm.ts';
import type {
  LandscapeHistoryTable,
  LandscapeItemTable,
  LandscapePlantTable,
  LandscapeRunTable,
  LandscapeSheetTable,
  LandscapeTables,
  LandscapeTakeoffTable,
} from './tables/landscape.ts';
import type { EstimatingTables } from './tables/estimating.ts';
import type {
  AssessmentPinTable,
  FieldTables,
  FileTable,
  LibraryFileJobTable,
  LibraryFolderTable,
  PhotoTable,
  PhotoTagTable,
  SiteAssessmentTable,
} from './tables/field.ts';
import type { IntegrationsTables } from './tables/integrations.ts';
import type {
  AllocationTable,
  CrewTable,
  DailyLogTable,
  DailyReportTable,
  JobCostTable,
  NotificationTable,
  OperationsTables,
  RebidCycleTable,
  RebidHistoryTable,
  RebidStateTable,
  ScheduleRequestTable,
  TimeEntryTable,
  WorkOrderTable,
} from './tables/operations.ts';
import type { PlatformTables } from './tables/platform.ts';
import type {
  AccountTaskTable,
  ReminderTable,
  ActivityTable,
  ClientAccountTable,
  ContactChannelTable,
  ContactLinkTable,
  ContactTable,
  CustomFieldDefinitionTable,
  JobActivityTable,
  JobStageTable,
  JobTable,
  LeadTable,
  JobTagTable,
  LocationTable,
  NoteTable,
  TaskTable,
} from './tables/crm.ts';
import type {
  CatalogCostLineTable,
  CatalogItemTable,
  CatalogServiceTable,
  EstimateAreaTable,
  EstimateCostLineTable,
  EstimateLineTable,
  EstimateRevisionTable,
  ProposalAuditEventTable,
  ProposalTable,
  ProposalTemplateTable,
  EstimateSnapshotTable,
  EstimateTable,
  EstimateTemplateTable,
  PriceListEntryTable,
  PriceListTable,
} from './tables/estimating.ts';
import type { ExportFileTable, WebhookDeliveryTable, WebhookSubscriptionTable } from './tables/integrations.ts';
import type { ApiKeyTable, EventTable, FirmTable, UserTable } from './tables/platform.ts';

export type * from './tables/billing.ts';
export type * from './tables/crm.ts';
export type * from './tables/estimating.ts';
export type * from './tables/field.ts';
export type * from './tables/integrations.ts';
export type * from './tables/operations.ts';
export type * from './tables/platform.ts';
export type { Flag } from './tables/shared.ts';

export interface DB
  extends PlatformTables,
    CrmTables,
    EstimatingTables,
    BillingTables,
    ChangeOrderTables,
    FieldTables,
    IntegrationsTables,
    OperationsTables,
    ConditionTables,
    MeasurementTables,
    LandscapeTables {}

export type Firm = Selectable<FirmTable>;
export type User = Selectable<UserTable>;
export type ApiKey = Selectable<ApiKeyTable>;
export type JobStage = Selectable<JobStageTable>;
export type ClientAccount = Selectable<ClientAccountTable>;
export type Location = Selectable<LocationTable>;
export type Contact = Selectable<ContactTable>;
export type ContactChannel = Selectable<ContactChannelTable>;
export type ContactLink = Selectable<ContactLinkTable>;
export type CustomFieldDefinition = Selectable<CustomFieldDefinitionTable>;
export type Note = Selectable<NoteTable>;
export type Activity = Selectable<ActivityTable>;
export type Task = Selectable<TaskTable>;
export type AccountTask = Selectable<AccountTaskTable>;
export type Reminder = Selectable<ReminderTable>;
export type JobActivity = Selectable<JobActivityTable>;
export type Job = Selectable<JobTable>;
export type Lead = Selectable<LeadTable>;
export type SiteAssessment = Selectable<SiteAssessmentTable>;
export type AssessmentPin = Selectable<AssessmentPinTable>;
export type Photo = Selectable<PhotoTable>;
export type NewJob = Insertable<JobTable>;
export type JobUpdate = Updateable<JobTable>;
export type JobTag = Selectable<JobTagTable>;
export type NewUser = Insertable<UserTable>;
export type Event = Selectable<EventTable>;
export type WebhookSubscription = Selectable<WebhookSubscriptionTable>;
export type WebhookDelivery = Selectable<WebhookDeliveryTable>;
export type ExportFile = Selectable<ExportFileTable>;
export type CatalogItem = Selectable<CatalogItemTable>;
export type CatalogService = Selectable<CatalogServiceTable>;
export type CatalogCostLine = Selectable<CatalogCostLineTable>;
export type PriceList = Selectable<PriceListTable>;
export type PriceListEntry = Selectable<PriceListEntryTable>;
export type EstimateTemplate = Selectable<EstimateTemplateTable>;
export type Estimate = Selectable<EstimateTable>;
export type EstimateArea = Selectable<EstimateAreaTable>;
export type EstimateLine = Selectable<EstimateLineTable>;
export type EstimateCostLine = Selectable<EstimateCostLineTable>;
export type EstimateSnapshot = Selectable<EstimateSnapshotTable>;
export type EstimateRevision = Selectable<EstimateRevisionTable>;
export type Proposal = Selectable<ProposalTable>;
export type ProposalAuditEvent = Selectable<ProposalAuditEventTable>;
export type ProposalTemplate = Selectable<ProposalTemplateTable>;
export type PhotoTag = Selectable<PhotoTagTable>;
export type StoredFile = Selectable<FileTable>;
export type LibraryFolder = Selectable<LibraryFolderTable>;
export type LibraryFileJob = Selectable<LibraryFileJobTable>;
export type Invoice = Selectable<InvoiceTable>;
export type PaymentEventRow = Selectable<PaymentEventTable>;
export type ChangeOrder = Selectable<ChangeOrderTable>;
export type ChangeOrderAuditEvent = Selectable<ChangeOrderAuditEventTable>;
export type JobContract = Selectable<JobContractTable>;
export type Crew = Selectable<CrewTable>;
export type WorkOrder = Selectable<WorkOrderTable>;
export type Allocation = Selectable<AllocationTable>;
export type ScheduleRequest = Selectable<ScheduleRequestTable>;
export type Notification = Selectable<NotificationTable>;
export type DailyLog = Selectable<DailyLogTable>;
export type DailyReport = Selectable<DailyReportTable>;
export type TimeEntry = Selectable<TimeEntryTable>;
export type JobCost = Selectable<JobCostTable>;
export type RebidCycle = Selectable<RebidCycleTable>;
export type ConditionRating = Selectable<ConditionRatingTable>;
export type Measurement = Selectable<MeasurementTable>;
export type MeasurementShape = Selectable<MeasurementShapeTable>;
export type MeasurementItem = Selectable<MeasurementItemTable>;
export type MeasurementHistory = Selectable<MeasurementHistoryTable>;
export type LandscapeTakeoff = Selectable<LandscapeTakeoffTable>;
export type LandscapeItem = Selectable<LandscapeItemTable>;
export type LandscapeHistory = Selectable<LandscapeHistoryTable>;
export type LandscapeRun = Selectable<LandscapeRunTable>;
export type LandscapeSheet = Selectable<LandscapeSheetTable>;
export type LandscapePlant = Selectable<LandscapePlantTable>;
export type RebidHistory = Selectable<RebidHistoryTable>;
export type RebidState = Selectable<RebidStateTable>;
