// ioredis, unchanged, against kvserver: node ioredis.test.js /path/to/kvserver [ioredis|ioredis5]
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { requireLibrary, libraryVersion, startKvserver, kvserverBinary } = require('./kvserver');
const { recordConnects } = require('./recorder');

const binary = kvserverBinary();
const library = process.argv[3] || 'ioredis';
const Redis = requireLibrary(library);
const { ReplyError } = Redis;
const version = libraryVersion(library);
const major = Number(version.split('.')[0]);
console.log(`# ${library} ${version}`);

let server;
const clients = [];
function connect(options = {}) {
  const client = new Redis({ host: '127.0.0.1', port: server.port, ...options });
  clients.push(client);
  return client;
}

before(async () => { server = await startKvserver(binary); });
after(async () => {
  for (const c of clients) c.disconnect();
  await server.stop();
});

async function suite(redis) {
  await redis.flushall();
  assert.equal(await redis.set('a', '1'), 'OK');
  assert.equal(await redis.get('a'), '1');
  assert.equal(await redis.incr('a'), 2);
  assert.equal(await redis.mset('b', 'x', 'c', 'y'), 'OK');
  assert.deepEqual(await redis.mget('a', 'b', 'missing'), ['2', 'x', null]);
  assert.equal(await redis.expire('b', 100), 1);
  const ttl = await redis.ttl('b');
  assert.ok(ttl > 90 && ttl <= 100, `ttl ${ttl}`);
  assert.equal(await redis.ttl('missing'), -2);
  assert.equal(await redis.del('a', 'b', 'missing'), 2);

  const value = Buffer.concat([Buffer.from([...Array(256).keys()]), Buffer.from('\r\n')]);
  await redis.set(Buffer.from('bin\0key'), value);
  assert.deepEqual(await redis.getBuffer(Buffer.from('bin\0key')), value);

  await redis.set('s', 'abc');
  await assert.rejects(redis.incr('s'), (e) => {
    assert.ok(e instanceof ReplyError, `${e} is a ReplyError`);
    assert.equal(e.message, 'ERR value is not an integer or out of range');
    return true;
  });
  assert.equal(await redis.get('s'), 'abc');
}

test('default connection (ready check through INFO)', async () => {
  const redis = connect();
  await new Promise((resolve, reject) => { redis.once('ready', resolve); redis.once('error', reject); });
  assert.equal(redis.status, 'ready');
  // The ready check parses INFO's "field:value" lines and waits while loading is not 0.
  const info = await redis.info();
  assert.match(info, /^redis_version:7\./m);
  assert.match(info, /^loading:0\r$/m);
  // CLIENT SETINFO at connect; ioredis 6 speaks RESP3 (HELLO 3) by default.
  const resp = major >= 6 ? 3 : 2;
  assert.match(await redis.client('INFO'), new RegExp(` resp=${resp} lib-name=ioredis lib-ver=\\d`));
  await suite(redis);
});

test('RESP3 (protocol: 3)', async (t) => {
  if (major < 6) {
    t.skip(`${library} ${version} has no RESP3 option`);
    return;
  }
  const redis = connect({ protocol: 3 });
  await suite(redis);
  assert.match(await redis.client('INFO'), / resp=3 /);
  assert.equal(await redis.config('GET', 'maxclients').then(String), 'maxclients,10000');
});

// Pub/sub and transactions in each protocol the library offers.
const protocols = major >= 6 ? [2, 3] : [undefined];
for (const protocol of protocols) {
  const label = protocol ? `protocol: ${protocol}` : 'default protocol';
  const options = protocol ? { protocol } : {};

  test(`pub/sub: channels, patterns, unsubscribe (${label})`, async () => {
    const sub = connect(options);
    const pub = connect(options);
    const messages = [];
    sub.on('message', (channel, message) => messages.push(['message', channel, message]));
    sub.on('pmessage', (pattern, channel, message) =>
      messages.push(['pmessage', pattern, channel, message]));
    assert.equal(await sub.subscribe('news', 'sport'), 2);
    assert.equal(await sub.psubscribe('n*'), 3);
    assert.equal(await pub.publish('news', 'hello'), 2);
    assert.equal(await pub.publish('sport', 'goal'), 1);
    assert.equal(await pub.publish('nothing', 'x'), 1);
    const deadline = Date.now() + 5000;
    while (messages.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(messages, [
      ['message', 'news', 'hello'],
      ['pmessage', 'n*', 'news', 'hello'],
      ['message', 'sport', 'goal'],
      ['pmessage', 'n*', 'nothing', 'x'],
    ]);
    assert.deepEqual(await pub.pubsub('NUMSUB', 'news', 'sport', 'none'),
      ['news', 1, 'sport', 1, 'none', 0]);
    assert.equal(await pub.pubsub('NUMPAT'), 1);
    // (ioredis waits forever on an UNSUBSCRIBE without names while patterns remain, against Redis
    // too: the channels are named.)
    assert.equal(await sub.unsubscribe('news', 'sport'), 1);
    assert.equal(await sub.punsubscribe('n*'), 0);
    assert.equal(await pub.publish('news', 'gone'), 0);
    // Back out of subscribed mode: ordinary commands work again.
    assert.equal(await sub.set('after', '1'), 'OK');
  });

  test(`MULTI/EXEC and WATCH (${label})`, async () => {
    const redis = connect(options);
    const other = connect(options);
    await redis.flushall();
    assert.deepEqual(await redis.multi().set('k', '1').incr('k').get('k').exec(),
      [[null, 'OK'], [null, 2], [null, '2']]);
    // A runtime error is one of the results.
    const results = await redis.multi().set('s', 'x').incr('s').exec();
    assert.equal(results[0][1], 'OK');
    assert.ok(results[1][0] instanceof ReplyError);
    assert.equal(results[1][0].message, 'ERR value is not an integer or out of range');
    // A queueing error aborts with EXECABORT.
    await assert.rejects(redis.multi().set('q', '1').call('NOSUCHCOMMAND').exec(),
      (e) => { assert.match(e.message, /EXECABORT/); return true; });
    assert.equal(await redis.get('q'), null);
    // WATCH: a write by another client makes EXEC return null.
    assert.equal(await redis.watch('k'), 'OK');
    assert.equal(await other.set('k', 'changed'), 'OK');
    assert.equal(await redis.multi().set('k', 'mine').exec(), null);
    assert.equal(await redis.get('k'), 'changed');
    // Without interference it goes through.
    await redis.watch('k');
    assert.deepEqual(await redis.multi().set('k', 'mine').exec(), [[null, 'OK']]);
    assert.equal(await redis.get('k'), 'mine');
  });
}

test('scanStream over 1000 keys sees each once', async () => {
  const redis = connect();
  await redis.flushall();
  const keys = [];
  for (let i = 0; i < 1000; i++) keys.push(`key:${i}`, 'v');
  await redis.mset(...keys);
  const seen = [];
  await new Promise((resolve, reject) => {
    const stream = redis.scanStream({ count: 50 });
    stream.on('data', (batch) => seen.push(...batch));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  assert.equal(seen.length, 1000);
  assert.equal(new Set(seen).size, 1000);
});

test('pipeline and auto-pipelining', async () => {
  const redis = connect({ enableAutoPipelining: true });
  await redis.flushall();
  const pipeline = redis.pipeline();
  for (let i = 0; i < 500; i++) pipeline.set(`p:${i}`, i).incr(`p:${i}`);
  pipeline.incr('p:missing-int').set('p:s', 'x').incr('p:s');
  const results = await pipeline.exec();
  assert.equal(results.length, 1003);
  assert.deepEqual(results[0], [null, 'OK']);
  assert.deepEqual(results[999], [null, 500]);
  assert.ok(results[1002][0] instanceof ReplyError);
  const many = await Promise.all([...Array(200).keys()].map((i) => redis.get(`p:${i}`)));
  assert.equal(many[199], '200');
});

test('connection name, database selection, reconnect after CLIENT KILL', async () => {
  const redis = connect({ connectionName: 'compat-ioredis', db: 2 });
  assert.equal(await redis.client('GETNAME'), 'compat-ioredis');
  await redis.set('in-db-2', 'x');
  const admin = connect();
  assert.equal(await admin.get('in-db-2'), null);
  const id = await redis.client('ID');
  const reconnected = new Promise((resolve) => redis.once('ready', resolve));
  assert.equal(await admin.client('KILL', 'ID', String(id)), 1);
  // ioredis reconnects, re-selects db 2 and sets its name again.
  await reconnected;
  assert.equal(await redis.get('in-db-2'), 'x');
  assert.notEqual(await redis.client('ID'), id);
  assert.equal(await redis.client('GETNAME'), 'compat-ioredis');
});

// What ioredis sends at connect, recorded by a proxy, in each mode it offers; none of it may be
// refused (INFO errorstats must not move).
test('what it sends at connect', async () => {
  const admin = connect();
  const modes = { default: {}, 'connectionName, db': { connectionName: 'n', db: 3 } };
  if (major >= 6) {
    modes['protocol: 2'] = { protocol: 2 };
    modes['protocol: 3'] = { protocol: 3 };
  }
  const { sent, errors } = await recordConnects(server.port, modes, async (port, options) => {
    const client = new Redis({ host: '127.0.0.1', port, ...options });
    assert.equal(await client.ping(), 'PONG');
    return client;
  }, (client) => client.disconnect(), () => admin.info('errorstats'));
  for (const mode of Object.keys(modes)) {
    console.log(`# ${library} ${version} at connect (${mode}): ${sent[mode].join('; ')}`);
  }
  // ioredis 6 names its version first, 5 its name first; INFO is the ready check.
  const setinfo = major >= 6
    ? [`client SETINFO LIB-VER ${version}`, 'client SETINFO LIB-NAME ioredis']
    : ['client SETINFO LIB-NAME ioredis', `client SETINFO LIB-VER ${version}`];
  assert.deepEqual(sent, major >= 6 ? {
    default: ['hello 3', ...setinfo, 'info'],
    'connectionName, db': ['hello 3', 'select 3', 'client setname n', ...setinfo, 'info'],
    'protocol: 2': [...setinfo, 'info'],
    'protocol: 3': ['hello 3', ...setinfo, 'info'],
  } : {
    default: [...setinfo, 'info'],
    'connectionName, db': ['select 3', 'client setname n', ...setinfo, 'info'],
  });
  assert.deepEqual(Object.values(errors), Object.keys(modes).map(() => 0));
});

test('defineCommand: EVALSHA, then EVAL on NOSCRIPT', async () => {
  const redis = connect();
  await redis.script('FLUSH');
  redis.defineCommand('incrTwice', {
    numberOfKeys: 1,
    lua: "redis.call('incrby', KEYS[1], ARGV[1]) return redis.call('incrby', KEYS[1], ARGV[1])",
  });
  await redis.del('counter');
  assert.equal(await redis.incrTwice('counter', 3), 6);
  assert.equal(await redis.incrTwice('counter', 1), 8);
  // In a pipeline too (ioredis loads the script first there).
  const results = await redis.pipeline().incrTwice('counter', 1).incrTwice('counter', 1).exec();
  assert.deepEqual(results, [[null, 10], [null, 12]]);
  await assert.rejects(redis.eval("error('boom')", 0), (e) => {
    assert.ok(e instanceof ReplyError);
    assert.match(e.message, /^ERR user_script:1: boom script: [0-9a-f]{40}, on @user_script:1\.$/);
    return true;
  });
});
