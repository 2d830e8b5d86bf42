// File request and answer schemas (document 3, File; Photos, photo tags, files). The uploads are
// multipart/form-data read part by part in upload.ts; the form schemas here describe them in the
// OpenAPI document (a multipart body reaches no validator: the parts are read as they stream).
import { type Static, Type } from '@sinclair/typebox';
import {
  Body,
  IdParam,
  Nullable,
  NullableObject,
  PageQuery,
  RecordId,
  StringEnum,
  withMessage,
} from '#platform/schemas.ts';
import { FILE_MAX_BYTES } from './kinds.ts';

export const SOURCES = ['job', 'customer', 'contact', 'library', 'proposal', 'work_order'] as const;
export const AUDIENCES = ['office', 'field'] as const;
export type Source = (typeof SOURCES)[number];
export type Audience = (typeof AUDIENCES)[number];

export const DESCRIPTION_MAX = 2000;
export const FILENAME_MAX = 255;

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const FileSchema = Type.Object({
  id: Type.Integer(),
  filename: Type.String(),
  content_type: Type.String({ description: 'Told from the first bytes and the extension, never from the client' }),
  size_bytes: Type.Integer(),
  description: Nullable(Type.String()),
  document_type: Nullable(
    Type.String({
      description: 'Set for files the service made (executed_proposal, executed_agreement); null for uploads',
    }),
  ),
  source: StringEnum(SOURCES),
  audience: StringEnum(AUDIENCES, { description: 'field: crews see it in the field app and dispatch packets' }),
  customer_visible: Type.Boolean(),
  job_id: Nullable(Type.Integer()),
  client_account_id: Nullable(Type.Integer({ description: 'The customer of a customer file' })),
  contact_id: Nullable(Type.Integer()),
  work_order_id: Nullable(Type.Integer()),
  folder: NullableObject(Ref),
  uploaded_by: NullableObject(Ref),
  download_url: Type.String({ description: 'API path that redirects to the file; needs the key' }),
  signed_url: Nullable(
    Type.String({ description: 'GET /v1/files/{id} only: a keyless link that works for one hour; null elsewhere' }),
  ),
  signed_url_expires_at: Nullable(Type.String({ description: 'UTC, Z, to the second; null with signed_url' })),
  attachment: NullableObject(
    Type.Object(
      {
        id: Type.Integer(),
        job_id: Type.Integer(),
        attached_by_rule: Nullable(Type.String({ description: 'null: attached by hand' })),
        created_at: Type.String({ description: 'UTC, Z, to the second' }),
      },
      { description: "A Company Library file in a job's list: how it is linked to the job; null elsewhere" },
    ),
  ),
  created_at: Type.String({ description: 'UTC, Z, to the second' }),
});

const Description = Nullable(Type.String({ maxLength: DESCRIPTION_MAX }));
const Binary = Type.String({
  format: 'binary',
  description: `One file, up to ${FILE_MAX_BYTES / 1024 / 1024} MB: PDF, Word, Excel, PowerPoint, text, CSV, RTF, JPEG, PNG, WebP, GIF, HEIC, ZIP, RAR or 7z`,
});

/** The multipart forms, for the OpenAPI document only (see the file's header). */
export const JobFileForm = Type.Object(
  {
    file: Binary,
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
    audience: Type.Optional(StringEnum(AUDIENCES, { description: 'Default office' })),
    customer_visible: Type.Optional(
      Type.Boolean({ description: 'true needs the job linked to a customer whose portal is on; default false' }),
    ),
  },
  { required: ['file'] },
);
export const CustomerFileForm = Type.Object({
  file: Binary,
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
});
export const LibraryFileForm = Type.Object({
  file: Binary,
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
  folder_id: Type.Optional(
    RecordId({ description: 'A library folder (GET /v1/library-folders); default the top level' }),
  ),
});

export const UpdateFileBody = Body({
  description: Description,
  // The spec's words (document 3, Errors), as the upload's form field answers them (errors.ts).
  audience: withMessage(StringEnum(AUDIENCES, { description: 'Job files only' }), 'audience must be office or field'),
  customer_visible: Type.Boolean({
    description: 'Job files only; true needs the job linked to a customer whose portal is on',
  }),
  folder_id: Nullable(RecordId({ description: 'Library files only: move to this folder, or null for the top level' })),
});

export const AttachLibraryFileBody = Body(
  { file_id: RecordId({ description: 'A Company Library file' }) },
  { required: ['file_id'] },
);

export const FileParams = IdParam();
export const JobFilesParams = IdParam('job_id');
export const AccountFilesParams = IdParam('account_id');
export const JobLibraryFileParams = Type.Object({ job_id: RecordId(), file_id: RecordId() });

export const FileListQuery = Type.Object({
  job_id: Type.Optional(RecordId({ description: "The job's own files (not the library files linked to it)" })),
  client_account_id: Type.Optional(RecordId()),
  contact_id: Type.Optional(RecordId()),
  source: Type.Optional(StringEnum(SOURCES)),
  folder_id: Type.Optional(RecordId({ description: 'Library files in this folder' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'In the filename or description, any case' })),
  created_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; oldest first' })),
  ...PageQuery(200),
});

/** The fields an upload carries besides the file (upload.ts reads the form into it). */
export interface FileFields {
  description?: string | null;
  audience?: Audience;
  customer_visible?: boolean;
  folder_id?: number | null;
}

export type FileObject = Static<typeof FileSchema>;
export type UpdateFileInput = Static<typeof UpdateFileBody>;
export type FileListInput = Static<typeof FileListQuery>;
