#!/usr/bin/env node
// PostgreSQL restarted mid-game (pg_ctl stop -m immediate, as in a crash, then started again):
// nothing acknowledged is lost (every acknowledged command is in the journal, in order; every
// client's states go on without gap or duplicate; a room whose write failed goes back to its journal
// and sends its members the state they have again) and service comes back: every room plays on.
// The test has a PostgreSQL of its own (it crashes it).
//
//   node postgres_restart.test.mjs --server PATH      (TINSEL_CLUSTER_ROOMS: rooms of 4, default 9)
import { clusterTest, startCluster } from '../support/cluster.mjs';
import { openFamilies, progress, settle, checkOrder, checkSameGame, checkJournal } from './play.mjs';

const ROOMS = Number(process.env.TINSEL_CLUSTER_ROOMS || 9);

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server, ownPostgres: true });
  const families = await openFamilies(cluster, ROOMS);
  for (const f of families) await f.start();
  await progress(families, 6, 90000, 'every room to play 6 states');

  const acked = () => families.reduce((n, f) => n + f.players.reduce((m, p) => m + p.acks.length, 0), 0);
  const before = acked();
  cluster.pg.crash();
  console.log(`PostgreSQL stopped (immediate) after ${before} acknowledged commands`);
  await new Promise((r) => setTimeout(r, 1000));
  cluster.pg.restart();
  console.log('PostgreSQL started again');
  await progress(families, 6, 90000, 'every room to play on after the restart');
  await settle(families);
  const resumes = checkOrder(families, { rebuilds: true });
  checkSameGame(families);
  const checked = await checkJournal(cluster, families);
  const refused = families.flatMap((f) => f.players.flatMap((p) => p.refused));
  console.log(`ok: ${acked() - before} commands acknowledged after the restart; refused meanwhile: ${refused.length} (${[...new Set(refused)].join(', ')}); ${resumes} resumes; ${checked} acknowledged commands in the journal in order`);
  for (const f of families) f.close();
});
