// Route schemas compiled when a route is first called, not when the app is built. Building the app
// compiled a validator (ajv) and a response serializer (fast-json-stringify) for every route, about
// 4 s of CPU at every start of a server, worker process, CLI command and test file, though a
// process calls few of its ~500 routes. Each compiled function is kept once made. A schema that
// cannot compile now fails on its route's first call instead of at start, so
// test/platform/schemas-compile.test.ts builds an app that compiles them all at once
// (`eagerSchemas`), and so fails as start-up did.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Compiled = ((...args: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * A validator that compiles on its first use. Fastify reads `schemaEnv` before calling and
 * `errors` after, so both pass through to the compiled function.
 */
export function lazyValidator(make: () => Compiled): Compiled {
  let compiled: Compiled | undefined;
  const get = () => (compiled ??= make());
  const wrapper = ((...args: unknown[]) => get()(...args)) as Compiled;
  Object.defineProperty(wrapper, 'errors', { get: () => get().errors });
  Object.defineProperty(wrapper, 'schemaEnv', { get: () => get().schemaEnv });
  return wrapper;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own serializer compiler (fast-json-stringify), each route's serializer made on its first answer. */
export function lazySerializers(): SerializerFactory {
  const real = SerializerSelector();
  return ((externalSchemas: unknown, options: unknown) => {
    const build = (real as (...a: unknown[]) => (route: unknown) => (data: unknown) => string)(
      externalSchemas,
      options,
    );
    return (route: unknown) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => {
        serialize ??= build(route);
        return serialize(data);
      };
    };
  }) as unknown as SerializerFactory;
}
