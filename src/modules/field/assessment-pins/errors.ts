// The pin module's own 404 (shared by the pin service and pin photos).
import { notFound } from '#platform/errors.ts';

export const pinNotFound = () => notFound('Pin not found');
