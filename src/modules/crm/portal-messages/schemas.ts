// Request schemas of a job's portal messages (document 2: GET and POST
// /v1/jobs/{job_id}/portal-messages).
import { Type, type Static } from '@sinclair/typebox';
import { Body, RecordId } from '#platform/schemas.ts';

/** The most characters a message body takes (document 2: body max 2,000). */
export const MESSAGE_MAX = 2000;
export const DEFAULT_MESSAGES = 100;
export const MAX_MESSAGES = 200;

export const JobParams = Type.Object({ job_id: RecordId() });

export const ListPortalMessagesQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_MESSAGES,
      default: DEFAULT_MESSAGES,
      description: 'Keeps the most recent N messages (default 100, max 200); they are answered oldest first',
    }),
  ),
});

export const CreatePortalMessageBody = Body(
  { body: Type.String({ maxLength: MESSAGE_MAX, description: 'The message (max 2,000 characters)' }) },
  { required: ['body'] },
);
export type CreatePortalMessageInput = Static<typeof CreatePortalMessageBody>;
