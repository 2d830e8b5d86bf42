// The areas a page of shapes needs when it holds a hole (measurement/shapes/list.ts): only those
// carrying what the takeoff editor owns (a service, a spec, an item or a work area). A partial
// index holds just those, so the page reads them without walking every area of a 100,000-shape
// measurement (docs/performance.md, "Measurement"). The query names the same predicate with
// literals, so both engines can use it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index measurement_shapes_editable_areas on measurement_shapes (measurement_id, id)
    where kind = 'area' and (service_id is not null or spec is not null or item_key is not null or work_area is not null)`.execute(
    db,
  );
}
