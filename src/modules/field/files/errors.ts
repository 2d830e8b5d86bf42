// The files module's refusals (document 3, Errors: photo and file uploads, lookups, file upload
// and customer_visible), shared by the upload reader, the services and the routes.
import { ApiError, badRequest, conflict, invalidField, notFound } from '#platform/errors.ts';
import { FILE_MAX_BYTES } from './kinds.ts';

export const fileNotFound = () => notFound('File not found');
export const fileNotOnJob = () =>
  notFound('File not found on this job', { message: 'That library file is not linked to this job' });
export const folderNotFound = () => notFound('Library folder not found');

export const uploadWithMultipart = () =>
  badRequest('Upload with multipart/form-data', {
    code: 'invalid_request',
    message: 'Send the file as multipart/form-data, in a file part named file',
  });
export const noFile = (message = 'Send the file in a file part named file') =>
  badRequest('No file provided', { code: 'invalid_request', message });
export const oneFile = () =>
  badRequest('One file per request', { code: 'invalid_request', message: 'Send one file part named file' });
export const invalidFile = (message: string) => badRequest('Invalid file', { code: 'invalid_request', message });
export const fileTooLarge = () =>
  new ApiError(413, 'File too large', {
    code: 'invalid_request',
    message: `Files may be at most ${FILE_MAX_BYTES / 1024 / 1024} MB`,
  });

export const audienceInvalid = () => invalidField('audience', 'audience must be office or field');
/** audience and customer_visible belong to job files (document 3: 400 for non-job files). */
export const jobFilesOnly = (field: 'audience' | 'customer_visible') =>
  invalidField(field, `${field} applies to job files only`, {
    message: `Only a job's files have ${field}; this is not a job file`,
  });
export const libraryFilesOnly = () =>
  invalidField('folder_id', 'folder_id applies to library files only', {
    message: 'Only Company Library files sit in folders',
  });
export const notALibraryFile = () =>
  invalidField('file_id', 'file_id must be a Company Library file', {
    message: 'Only Company Library files are linked to jobs; upload a file to the job instead',
  });

export type PortalStatus = 'job_not_linked' | 'account_archived' | 'portal_disabled';

const PORTAL_MESSAGES: Record<PortalStatus, string> = {
  job_not_linked: 'The job is not linked to a customer: set its client_account_id first',
  account_archived: "The job's customer is archived",
  portal_disabled: 'The customer portal is turned off for this workspace (setting customer_portal_enabled)',
};

/** 409: customer_visible needs the job linked to a customer whose portal is on. */
export const portalNotReady = (status: PortalStatus) =>
  conflict('Customer portal not ready', {
    code: 'portal_not_ready',
    message: PORTAL_MESSAGES[status],
    portal_status: status,
  });
