// The shape-edit refusals (document 3's error table, "shape edits"), each naming the operation
// that was refused (operation_index) so a client can fix that one and send the save again.
import { ApiError, type ErrorCode } from '#platform/errors.ts';
import { MISSING_PERMISSION_MESSAGE } from '#platform/permissions.ts';

const refused = (status: number, error: string, code: ErrorCode, index: number, message: string, extra = {}) =>
  new ApiError(status, error, { code, message, operation_index: index, ...extra });

export const invalidOperation = (index: number, message: string, field?: string) =>
  refused(400, 'Invalid operation', 'invalid_operation', index, message, field === undefined ? {} : { field });

export const unknownOpFields = (index: number, fields: string[]) =>
  refused(
    400,
    `Unknown fields: ${fields.join(', ')}`,
    'unknown_fields',
    index,
    `Operation ${index} does not take ${fields.join(', ')}`,
    { fields },
  );

export const unknownCategory = (index: number, category: string, allowed: readonly string[]) =>
  refused(400, 'Unknown category', 'unknown_category', index, `${category} is not one of ${allowed.join(', ')}`, {
    field: 'category',
  });

export const wrongShapeForItem = (index: number, item: string, type: string) =>
  refused(400, 'Wrong shape for item', 'wrong_shape_for_item', index, `${item} is measured as a ${type}`);

export const itemTypeRequired = (index: number, item: string) =>
  refused(
    400,
    'item_type is required',
    'item_type_required',
    index,
    `${item} is a new item: send item_type point, line or polygon`,
    {
      field: 'item_type',
    },
  );

export const farFromTakeoff = (index: number, km: number) =>
  refused(
    400,
    'Shape is far from the takeoff',
    'shape_far_from_takeoff',
    index,
    `The shape is ${km.toFixed(1)} km from the takeoff; check the coordinates and coordinate_order`,
  );

export const shapeNotFound = (index: number, id: unknown) =>
  refused(404, 'Shape not found', 'shape_not_found', index, `No shape ${String(id)} on this measurement`);

export const editInEditor = (index: number, message: string) =>
  refused(422, 'Edit in the takeoff editor', 'edit_in_takeoff_editor', index, message);

export const unknownType = (index: number, spec: string, category: string, allowed: readonly string[]) =>
  refused(
    422,
    'Unknown type',
    'unknown_type',
    index,
    allowed.length === 0
      ? `${category} takes no type`
      : `${spec} is not a type of ${category}: one of ${allowed.join(', ')}`,
    { field: 'spec' },
  );

export const lacksDelete = (index: number) =>
  refused(
    403,
    MISSING_PERMISSION_MESSAGE.delete_records,
    'missing_permission',
    index,
    'Removing shapes also needs Delete records',
    {
      permission: 'delete_records',
    },
  );
