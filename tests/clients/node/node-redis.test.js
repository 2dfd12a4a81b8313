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

// A script or function definition for node-redis: v4 maps a call's arguments with
// transformArguments, v5 and later push them (keys first) onto a command parser.
function definition(numberOfKeys, extra = {}) {
  const def = { NUMBER_OF_KEYS: numberOfKeys, ...extra };
  if (major < 5) {
    def.transformArguments = (...args) => args.map(String);
  } else {
    def.parseCommand = (parser, ...args) => args.forEach((a, i) =>
      (i < numberOfKeys ? parser.pushKey(String(a)) : parser.push(String(a))));
  }
  return def;
}

// INFO's count for `field` (e.g. errorstat_NOSCRIPT:count, cmdstat_evalsha:calls), 0 if absent.
async function infoCount(client, section, field) {
  const m = String(await client.info(section)).match(new RegExp(`${field}=(\\d+)`));
  return m ? Number(m[1]) : 0;
}

test('scripts: defineScript sends EVALSHA and falls back to EVAL on NOSCRIPT', async () => {
  const { defineScript } = redisLib;
  const incrBy = defineScript({
    ...definition(1), SCRIPT: "return redis.call('INCRBY', KEYS[1], ARGV[1])" });
  const client = await connect({
    scripts: {
      incrBy,
      // v5 and later send a read-only script as EVALSHA_RO.
      getRo: defineScript({
        ...definition(1, { IS_READ_ONLY: true }), SCRIPT: "return redis.call('GET', KEYS[1])" }),
      pair: defineScript({ ...definition(0), SCRIPT: 'return {ARGV[1], tonumber(ARGV[2]) * 2}' }),
      fails: defineScript({ ...definition(0), SCRIPT: "return redis.error_reply('MYERR custom')" }),
    },
  });
  await client.flushAll();
  await client.sendCommand(['SCRIPT', 'FLUSH']);
  await client.sendCommand(['CONFIG', 'RESETSTAT']);
  // Not cached: EVALSHA gets NOSCRIPT, node-redis sends EVAL, which caches the script.
  assert.equal(await client.incrBy('counter', 5), 5);
  assert.equal(await infoCount(client, 'errorstats', 'errorstat_NOSCRIPT:count'), 1);
  assert.equal(await infoCount(client, 'commandstats', 'cmdstat_eval:calls'), 1);
  assert.deepEqual(await client.sendCommand(['SCRIPT', 'EXISTS', incrBy.SHA1]), [1]);
  // Cached now: EVALSHA alone.
  assert.equal(await client.incrBy('counter', 2), 7);
  assert.equal(await infoCount(client, 'errorstats', 'errorstat_NOSCRIPT:count'), 1);
  assert.equal(await infoCount(client, 'commandstats', 'cmdstat_evalsha:calls'), 2);
  // A read-only script: v5 and later send EVALSHA_RO (and plain EVAL on NOSCRIPT), v4 EVALSHA.
  assert.equal(await client.getRo('counter'), '7');
  assert.equal(await infoCount(client, 'errorstats', 'errorstat_NOSCRIPT:count'), 2);
  assert.equal(await infoCount(client, 'commandstats', 'cmdstat_eval:calls'), 2);
  assert.equal(await infoCount(client, 'commandstats', 'cmdstat_evalsha_ro:calls'),
               major >= 5 ? 1 : 0);
  assert.deepEqual(await client.pair('x', 21), ['x', 42]);
  await assert.rejects(client.fails(), (e) => {
    assert.ok(e instanceof ErrorReply, `${e} is an ErrorReply`);
    assert.equal(e.message, 'MYERR custom');
    return true;
  });
  // After SCRIPT FLUSH the fallback runs again, in a transaction too (where node-redis sends
  // EVAL the first time a script is queued).
  await client.sendCommand(['SCRIPT', 'FLUSH']);
  assert.equal(await client.incrBy('counter', 1), 8);
  assert.equal(await infoCount(client, 'errorstats', 'errorstat_NOSCRIPT:count'), 5);
  await client.sendCommand(['SCRIPT', 'FLUSH']);
  assert.deepEqual(await client.multi().incrBy('counter', 10).get('counter').exec(), [18, '18']);
  assert.equal(await client.get('counter'), '18');
});

test('functions: the functions option sends FCALL and FCALL_RO; FUNCTION DUMP and RESTORE',
     async () => {
  const admin = await connect();
  const code = [
    '#!lua name=kvlib',
    "redis.register_function('kv_add', function(keys, args)",
    "  return redis.call('INCRBY', keys[1], args[1]) end)",
    "redis.register_function{function_name='kv_get', flags={'no-writes'},",
    "  callback=function(keys) return redis.call('GET', keys[1]) end}",
    "redis.register_function('kv_fail', function() return redis.call('INCR', 'text') end)",
  ].join('\n');
  await admin.functionFlush();
  assert.equal(await admin.functionLoad(code), 'kvlib');
  await assert.rejects(admin.functionLoad(code), (e) => {
    assert.equal(e.message, "ERR Library 'kvlib' already exists");
    return true;
  });
  assert.equal(await admin.functionLoad(code, { REPLACE: true }), 'kvlib');
  const client = await connect({
    functions: {
      kvlib: {
        kv_add: definition(1),
        kv_get: definition(1, { IS_READ_ONLY: true }),
        kv_fail: definition(0),
      },
    },
  });
  await client.flushAll();
  await client.sendCommand(['CONFIG', 'RESETSTAT']);
  assert.equal(await client.kvlib.kv_add('n', 3), 3);
  assert.equal(await client.kvlib.kv_add('n', 4), 7);
  assert.equal(await client.kvlib.kv_get('n'), '7');
  assert.equal(await infoCount(client, 'commandstats', 'cmdstat_fcall:calls'), 2);
  assert.equal(await infoCount(client, 'commandstats', 'cmdstat_fcall_ro:calls'), 1);
  await client.set('text', 'abc');
  await assert.rejects(client.kvlib.kv_fail(), (e) => {
    assert.ok(e instanceof ErrorReply, `${e} is an ErrorReply`);
    assert.match(e.message, /^ERR value is not an integer or out of range script: kv_fail/);
    return true;
  });
  // The built-in FCALL and FUNCTION LIST.
  assert.equal(await client.fCall('kv_add', { keys: ['n'], arguments: ['1'] }), 8);
  const [library] = await client.functionList();
  assert.equal(library.library_name ?? library.libraryName, 'kvlib');
  assert.deepEqual(library.functions.map((f) => f.name).sort(), ['kv_add', 'kv_fail', 'kv_get']);

  // FUNCTION DUMP (binary: read as a Buffer), FLUSH, RESTORE.
  const dump = major < 5
    ? await admin.functionDump(redisLib.commandOptions({ returnBuffers: true }))
    : await admin.withTypeMapping({ [redisLib.RESP_TYPES.BLOB_STRING]: Buffer }).functionDump();
  assert.ok(Buffer.isBuffer(dump) && dump.length > 10, `dump ${dump}`);
  assert.equal(await admin.functionFlush(), 'OK');
  await assert.rejects(client.kvlib.kv_get('n'), (e) => {
    assert.equal(e.message, 'ERR Function not found');
    return true;
  });
  assert.equal(await admin.functionRestore(dump), 'OK');
  await assert.rejects(admin.functionRestore(dump), (e) => {
    assert.equal(e.message, 'ERR Library kvlib already exists');
    return true;
  });
  assert.equal(await (major < 5 ? admin.functionRestore(dump, 'REPLACE')
                                : admin.functionRestore(dump, { mode: 'REPLACE' })), 'OK');
  assert.equal(await client.kvlib.kv_get('n'), '8');
  await assert.rejects(admin.functionRestore(Buffer.from('not a payload')), (e) => {
    assert.equal(e.message, 'ERR DUMP payload version or checksum are wrong');
    return true;
  });
  await admin.functionFlush();
});
