// /v1/library-folders request and answer schemas: the Company Library's folders
// (docs/api-decisions.md, Files and the Company Library).
import { type Static, Type } from '@sinclair/typebox';
import { Body, IdParam } from '#platform/schemas.ts';

export const FOLDER_NAME_MAX = 100;

export const LibraryFolderSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  file_count: Type.Integer({ description: 'Library files in the folder' }),
  created_at: Type.String({ description: 'UTC, Z, to the second' }),
  updated_at: Type.String({ description: 'UTC, Z, to the second' }),
});

const Name = Type.String({
  minLength: 1,
  maxLength: FOLDER_NAME_MAX,
  pattern: '\\S',
  description: `Unique in the workspace in any case; at most ${FOLDER_NAME_MAX} characters`,
});

export const CreateLibraryFolderBody = Body({ name: Name }, { required: ['name'] });
export const UpdateLibraryFolderBody = Body({ name: Name });
export const LibraryFolderParams = IdParam();

export type LibraryFolderObject = Static<typeof LibraryFolderSchema>;
export type CreateLibraryFolderInput = Static<typeof CreateLibraryFolderBody>;
export type UpdateLibraryFolderInput = Static<typeof UpdateLibraryFolderBody>;
