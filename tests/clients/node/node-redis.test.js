// node-redis, unchanged, against kvserver: node node-redis.test.js /path/to/kvserver [redis|redis4|redis5]
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { requireLibrary, libraryVersion, startKvserver, kvserverBinary } = require('./kvserver');
const { recordConnects } = require('./recorder');

const binary = kvserverBinary();
const library = process.argv[3] || 'redis';
const redisLib = requireLibrary(library);
const { createClient, ErrorReply } = redisLib;
const version = libraryVersion(library);
const major = Number(version.split('.')[0]);
console.log(`# ${library} ${version}`);

let server;
const clients = [];
async function connect(options = {}) {
  const client = createClient({ socket: { host: '127.0.0.1', port: server.port }, ...options });
  client.on('error', () => {});  // reconnects are expected in one test
  clients.push(client);
  await client.connect();
  return client;
}

// v4 returns Buffers through commandOptions, v5 and later through a type mapping.
function getBuffer(client, key) {
  if (major < 5) return client.get(redisLib.commandOptions({ returnBuffers: true }), key);
  return client.withTypeMapping({ [redisLib.RESP_TYPES.BLOB_STRING]: Buffer }).get(key);
}

before(async () => { server = await startKvserver(binary); });
after(async () => {
  for (const c of clients) if (c.isOpen) await c.disconnect();
  await server.stop();
});

async function suite(client) {
  await client.flushAll();
  assert.equal(await client.set('a', '1'), 'OK');
  assert.equal(await client.get('a'), '1');
  assert.equal(await client.incr('a'), 2);
  assert.equal(await client.mSet(['b', 'x', 'c', 'y']), 'OK');
  assert.deepEqual(await client.mGet(['a', 'b', 'missing']), ['2', 'x', null]);
  assert.equal(Number(await client.expire('b', 100)), 1);
  const ttl = await client.ttl('b');
  assert.ok(ttl > 90 && ttl <= 100, `ttl ${ttl}`);
  assert.equal(await client.ttl('missing'), -2);
  assert.equal(await client.del(['a', 'b', 'missing']), 2);

  const value = Buffer.concat([Buffer.from([...Array(256).keys()]), Buffer.from('\r\n')]);
  await client.set('bin\0key', value);
  assert.deepEqual(await getBuffer(client, 'bin\0key'), value);

  await client.set('s', 'abc');
  await assert.rejects(client.incr('s'), (e) => {
    assert.ok(e instanceof ErrorReply, `${e} is an ErrorReply`);
    assert.equal(e.message, 'ERR value is not an integer or out of range');
    return true;
  });
  assert.equal(await client.get('s'), 'abc');
}

test('default connection', async () => {
  const client = await connect();
  assert.equal(await client.ping(), 'PONG');
  await suite(client);
  // Versions 4.6 and later name themselves at connect with CLIENT SETINFO; version 6 speaks
  // RESP3 (HELLO 3) by default.
  const resp = major >= 6 ? 3 : 2;
  assert.match(String(await client.sendCommand(['CLIENT', 'INFO'])),
               new RegExp(` resp=${resp} .*lib-name=node-redis lib-ver=\\d`));
});

test('RESP: 2 and RESP: 3', async (t) => {
  if (major < 5) {
    t.skip(`${library} ${version} has no RESP option (RESP2 only)`);
    return;
  }
  for (const RESP of [2, 3]) {
    const client = await connect({ RESP });
    await suite(client);
    assert.match(String(await client.sendCommand(['CLIENT', 'INFO'])), new RegExp(` resp=${RESP} `));
  }
});

// Pub/sub and transactions in each protocol the library offers (v4: RESP2 only).
for (const RESP of major >= 5 ? [2, 3] : [undefined]) {
  const label = RESP ? `RESP: ${RESP}` : 'RESP2';
  const options = RESP ? { RESP } : {};

  test(`pub/sub: channels, patterns, unsubscribe (${label})`, async () => {
    const sub = await connect(options);
    const pub = await connect(options);
    const messages = [];
    await sub.subscribe(['news', 'sport'], (message, channel) =>
      messages.push(['message', channel, message]));
    await sub.pSubscribe('n*', (message, channel) => messages.push(['pmessage', channel, message]));
    assert.equal(await pub.publish('news', 'hello'), 2);
    assert.equal(await pub.publish('sport', 'goal'), 1);
    assert.equal(await pub.publish('nothing', 'x'), 1);
    const deadline = Date.now() + 5000;
    while (messages.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(messages, [
      ['message', 'news', 'hello'],
      ['pmessage', 'news', 'hello'],
      ['message', 'sport', 'goal'],
      ['pmessage', 'nothing', 'x'],
    ]);
    assert.deepEqual(await pub.sendCommand(['PUBSUB', 'NUMSUB', 'news', 'none']),
      ['news', 1, 'none', 0]);
    assert.equal(await pub.sendCommand(['PUBSUB', 'NUMPAT']), 1);
    // (node-redis 4 and 5 wait forever on an UNSUBSCRIBE without names while patterns remain,
    // against Redis too: the channels are named.)
    await sub.unsubscribe(['news', 'sport']);
    await sub.pUnsubscribe('n*');
    assert.equal(await pub.publish('news', 'gone'), 0);
    // Out of subscribed mode, ordinary commands work again. (node-redis 6 in RESP2 hands this
    // reply back as a Buffer, against Redis too.)
    assert.equal(String(await sub.set('after', '1')), 'OK');
  });

  test(`MULTI/EXEC and WATCH (${label})`, async () => {
    const client = await connect(options);
    const other = await connect(options);
    await client.flushAll();
    assert.deepEqual(await client.multi().set('k', '1').incr('k').get('k').exec(), ['OK', 2, '2']);
    // A queueing error aborts the transaction with EXECABORT.
    await assert.rejects(client.multi().set('q', '1').addCommand(['NOSUCHCOMMAND']).exec(),
      (e) => { assert.match(String(e.message ?? e), /EXECABORT|unknown command/); return true; });
    assert.equal(await client.get('q'), null);
    // WATCH: a write by another client aborts EXEC (the library's WatchError).
    await client.watch('k');
    assert.equal(await other.set('k', 'changed'), 'OK');
    await assert.rejects(client.multi().set('k', 'mine').exec(), redisLib.WatchError);
    assert.equal(await client.get('k'), 'changed');
    await client.watch('k');
    assert.deepEqual(await client.multi().set('k', 'mine').exec(), ['OK']);
    assert.equal(await client.get('k'), 'mine');
  });
}

test('scanIterator over 1000 keys sees each once', async () => {
  const client = await connect();
  await client.flushAll();
  const keys = [];
  for (let i = 0; i < 1000; i++) keys.push(`key:${i}`, 'v');
  await client.mSet(keys);
  const seen = [];
  // v4 yields keys one by one, v5 and later a batch per SCAN reply.
  for await (const k of client.scanIterator({ COUNT: 50 })) seen.push(...(Array.isArray(k) ? k : [k]));
  assert.equal(seen.length, 1000);
  assert.equal(new Set(seen).size, 1000);
});

test('pipeline (execAsPipeline) and implicit pipelining', async () => {
  const client = await connect();
  await client.flushAll();
  const batch = client.multi();
  for (let i = 0; i < 500; i++) batch.set(`p:${i}`, String(i)).incr(`p:${i}`);
  const results = await batch.execAsPipeline();
  assert.equal(results.length, 1000);
  assert.equal(results[0], 'OK');
  assert.equal(results[999], 500);
  const many = await Promise.all([...Array(200).keys()].map((i) => client.get(`p:${i}`)));
  assert.equal(many[199], '200');
});

test('client name, database selection, reconnect after CLIENT KILL', async () => {
  const client = await connect({ name: 'compat-node-redis', database: 2 });
  assert.equal(await client.sendCommand(['CLIENT', 'GETNAME']), 'compat-node-redis');
  await client.set('in-db-2', 'x');
  const admin = await connect();
  assert.equal(await admin.get('in-db-2'), null);
  const id = await client.sendCommand(['CLIENT', 'ID']);
  const reconnected = new Promise((resolve) => client.once('ready', resolve));
  assert.equal(await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]), 1);
  await reconnected;  // node-redis reconnects, re-selects db 2 and sets its name again
  assert.equal(await client.get('in-db-2'), 'x');
  assert.notEqual(await client.sendCommand(['CLIENT', 'ID']), id);
  assert.equal(await client.sendCommand(['CLIENT', 'GETNAME']), 'compat-node-redis');
});

// What node-redis sends at connect, recorded by a proxy, in each mode it offers. With RESP3,
// versions 5.9 and later also send CLIENT MAINT_NOTIFICATIONS (Redis 8's maintenance push
// notifications): Redis 7.0.15 answers it with its unknown-subcommand error, and so does
// kvserver; node-redis ignores the error. Nothing else may be refused.
test('what it sends at connect', async () => {
  const admin = await connect();
  const modes = { default: {}, 'name, database': { name: 'n', database: 3 } };
  if (major >= 5) {
    modes['RESP: 2'] = { RESP: 2 };
    modes['RESP: 3'] = { RESP: 3 };
  }
  const { sent, errors } = await recordConnects(server.port, modes, async (port, options) => {
    const client = createClient({ socket: { host: '127.0.0.1', port }, ...options });
    await client.connect();
    assert.equal(await client.ping(), 'PONG');
    return client;
  }, (client) => client.disconnect(), () => admin.info('errorstats'));
  for (const mode of Object.keys(modes)) {
    console.log(`# ${library} ${version} at connect (${mode}): ${sent[mode].join('; ')}`);
  }
  const maint = 'CLIENT MAINT_NOTIFICATIONS ON moving-endpoint-type external-ip';
  for (const mode of Object.keys(modes)) {
    assert.equal(errors[mode], sent[mode].filter((c) => c === maint).length, mode);
  }
  // node-redis 4.7.1 sends LIB-VER 1.6.0 (the version its @redis/client 1.6.1 has written in).
  const libVer = major >= 5 ? version : '1.6.0';
  const setinfo = major >= 5
    ? [`CLIENT SETINFO LIB-VER ${libVer}`, 'CLIENT SETINFO LIB-NAME node-redis']
    : ['CLIENT SETINFO LIB-NAME node-redis', `CLIENT SETINFO LIB-VER ${libVer}`];
  const expected = {
    6: {
      default: ['HELLO 3', ...setinfo, maint],
      'name, database': ['HELLO 3 SETNAME n', 'SELECT 3', ...setinfo, maint],
      'RESP: 2': setinfo,
      'RESP: 3': ['HELLO 3', ...setinfo, maint],
    },
    5: {
      default: setinfo,
      'name, database': ['CLIENT SETNAME n', 'SELECT 3', ...setinfo],
      'RESP: 2': ['HELLO 2', ...setinfo],
      'RESP: 3': ['HELLO 3', ...setinfo, maint],
    },
    4: {
      default: setinfo,
      'name, database': ['CLIENT SETNAME n', ...setinfo, 'SELECT 3'],
    },
  };
  assert.deepEqual(sent, expected[major]);
});
