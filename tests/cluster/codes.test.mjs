#!/usr/bin/env node
// 1,000 rooms created on three instances at once (each instance directly, 8 connections each):
// every code distinct, each claimed in the database by the instance that answered create_room.
//
//   node codes.test.mjs --server PATH      (TINSEL_CLUSTER_CODES: how many, default 1000)
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient } from '../../clients/js/index.js';
import { clusterTest, startCluster } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';

const CODES = Number(process.env.TINSEL_CLUSTER_CODES || 1000);
const PER_INSTANCE = 8;

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server });
  const ids = [...cluster.instances.keys()];
  const connections = ids.flatMap((id) => Array.from({ length: PER_INSTANCE }, () => id));
  const share = Math.ceil(CODES / connections.length);
  const created = []; // [code, instance]
  await within(240000, Promise.all(connections.map(async (id, k) => {
    const c = new TinselClient({ url: cluster.direct(id), name: `Host ${k}`, WebSocket });
    await c.connect();
    assert.equal(c.welcome.server.instance, id);
    for (let n = 0; n < share && k * share + n < CODES; n++) {
      const { room } = await c.createRoom('happy_holidays');
      created.push([room, id]);
      await c.leaveRoom();
    }
    c.close();
  })), `${CODES} rooms to be created`);
  assert.equal(created.length, CODES);
  const codes = new Set(created.map(([code]) => code));
  assert.equal(codes.size, CODES, `${CODES - codes.size} codes were handed out twice`);
  const rows = await cluster.query('SELECT code, owner FROM rooms');
  const owner = new Map(rows.map(([code, o]) => [code, o]));
  for (const [code, id] of created) assert.equal(owner.get(code), id, `${code}, created on ${id}, is owned by ${owner.get(code)}`);
  console.log(`ok: ${CODES} rooms on ${ids.length} instances, every code distinct and claimed by its creator`);
});
