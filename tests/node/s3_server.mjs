// A local S3 server for the /vsis3/ raster tests: s3rver on a loopback port (path-style buckets) whose only key pair
// is the one given, answering GETs with Range as S3 does. Usage: node s3_server.mjs DIR BUCKET KEY_ID SECRET.
// Prints {"port": N} once listening, then one JSON line per request (method, path, range, the signing scheme and key
// id of its Authorization); exits when its standard input closes.
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver');
const AWSAccount = require('s3rver/lib/models/account');

const [directory, bucket, keyId, secret] = process.argv.slice(2);
// s3rver checks that a request's key id is known (it does not check a SigV4 signature): only ours is.
AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
AWSAccount.DUMMY_ACCOUNT.createKeyPair(keyId, secret);

const s3 = new S3rver({ directory, silent: true, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
await s3.configureBuckets();
const handle = s3.getMiddleware();
const server = http.createServer((req, res) => {
  const auth = req.headers.authorization || '';
  const credential = /^(\S+) Credential=([^/]+)\//.exec(auth);
  process.stdout.write(JSON.stringify({
    method: req.method,
    path: req.url,
    range: req.headers.range || null,
    scheme: credential ? credential[1] : null,
    key_id: credential ? credential[2] : null,
  }) + '\n');
  handle(req, res);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
