// Runs s3rver in its own process for test/helpers/s3.ts (so its memory and event loop are not the
// test's), on 127.0.0.1 and a free port, which it reports to the parent once listening.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2) as [string, string];
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.send!({ port });
// The parent going away (a killed test run) ends the server too.
process.on('disconnect', () => process.exit(0));
