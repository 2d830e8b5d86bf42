// /v1/photo-tags request and answer schemas (document 3, Photo, photo tag, file).
import { type Static, Type } from '@sinclair/typebox';
import { Body, IdParam, Nullable } from '#platform/schemas.ts';

export const PhotoTagSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.String({ description: '#rrggbb' }),
  description: Nullable(Type.String()),
});

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'At most 100 characters' });
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb; default gray (#808080)' });
const Description = Nullable(
  Type.String({ maxLength: 2000, description: 'What the tag marks, for people and for photo analysis' }),
);

export const CreatePhotoTagBody = Body({ name: Name, color: Color, description: Description }, { required: ['name'] });
export const UpdatePhotoTagBody = Body({ name: Name, color: Color, description: Description });
export const PhotoTagParams = IdParam();

export type CreatePhotoTagInput = Static<typeof CreatePhotoTagBody>;
export type UpdatePhotoTagInput = Static<typeof UpdatePhotoTagBody>;
