/**
 * Three replicas behind HAProxy (deploy/local-cluster.sh, deploy/haproxy.cfg), 120 apps in
 * open mode: every app's API and control calls land on one replica (the x-emulator-replica
 * header HAProxy adds says which) and see that app's records; when one replica stops, the
 * apps on the two others still answer with their records intact, and the stopped replica's
 * apps start empty on another. Runs when haproxy is on the PATH (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { HAS_HAPROXY, startLocalCluster, stopProcess, type LocalCluster } from './local-cluster.js';

if (!HAS_HAPROXY)
  console.log(
    'Cluster test SKIPPED: no haproxy on the PATH. Enable it with `apt-get install haproxy` (Debian/Ubuntu) ' +
      'or `brew install haproxy` (macOS).',
  );

/**
 * Enough for every replica to hold many apps (about 40 each, 12 of them ids a query string
 * encodes) and for a call that strays to another replica to show; 300 proved nothing more
 * and took twice as long.
 */
const APPS = 120;
/** Apps exercised at once: enough to overlap, few enough for two shared cores and three replicas. */
const PARALLEL = 50;
const WELCOME = { key: 'welcome-message', variables: { name: 'Ada' } };
/** Each app's own clock starts here; its scheduled campaign fires an hour later on it. */
const APP_START = '2030-01-01T00:00:00.000Z';
const APP_FIRES_AT = '2030-01-01T01:00:00.000Z';

interface Answer<T> {
  status: number;
  replica: string | null;
  body: T;
}

interface AppState {
  appId: string;
  replica: string;
  notificationId: string;
  campaignIds: string[];
}

interface Campaign {
  id: string;
  status: string;
}

describe.skipIf(!HAS_HAPROXY)('three replicas behind HAProxy', () => {
  let cluster: LocalCluster;
  const states: AppState[] = [];

  beforeAll(async () => {
    cluster = await startLocalCluster(3, ['--no-watch', '--log-level', 'warn', '--seed', '44']);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  async function call<T>(method: string, path: string, appId?: string, body?: unknown): Promise<Answer<T>> {
    const headers: Record<string, string> = appId ? { appid: appId, apikey: 'key' } : {};
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${cluster.url}${path}`, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, replica: res.headers.get('x-emulator-replica'), body: JSON.parse(text) as T };
  }

  /** A call that must answer `status`, from the app's replica when one is known. */
  async function expectCall<T>(
    state: { appId: string; replica?: string },
    method: string,
    path: string,
    options: { api?: boolean; body?: unknown; status?: number } = {},
  ): Promise<T> {
    const answer = await call<T>(method, path, options.api ? state.appId : undefined, options.body);
    const where = `answered by ${answer.replica}, the app's replica is ${state.replica ?? 'not known yet'}`;
    expect(answer.status, `${state.appId}: ${method} ${path} (${where}): ${JSON.stringify(answer.body)}`).toBe(
      options.status ?? 200,
    );
    expect(answer.replica, `${state.appId}: ${method} ${path} answered by`).toBe(state.replica ?? answer.replica);
    state.replica ??= answer.replica!;
    return answer.body;
  }

  async function campaignWithRecipients(state: { appId: string; replica?: string }, name: string): Promise<string> {
    const draft = await expectCall<Campaign>(state, 'POST', '/api/campaigns', {
      api: true,
      body: { name, templateId: 'welcome-message', deliveryMode: 'batch' },
    });
    const form = new FormData();
    form.append('file', new Blob([`user_id,name\n${state.appId}-a,Ada\n${state.appId}-b,Bo`]), 'r.csv');
    form.append('campaignId', draft.id);
    const uploaded = await expectCall<{ recipientsAdded: number }>(state, 'POST', '/api/campaigns/upload', {
      api: true,
      body: form,
    });
    expect(uploaded.recipientsAdded).toBe(2);
    return draft.id;
  }

  /** Every step of one app, all through the balancer; each call must reach the app's replica. */
  async function exerciseApp(appId: string): Promise<AppState> {
    const state: { appId: string; replica?: string } = { appId };
    const app = encodeURIComponent(appId);
    const sent = await expectCall<{ notificationId: string }>(state, 'POST', '/api/notifications/send', {
      api: true,
      body: { template: WELCOME, targets: [`${appId}-user`], mode: 'realtime' },
    });
    const realtime = await expectCall<{ total: number; items: { notificationId: string }[] }>(
      state,
      'GET',
      `/__inspect/deliveries?appId=${app}&waitFor=1&timeoutMs=10000`,
    );
    expect(realtime.total).toBe(1);
    expect(realtime.items[0]!.notificationId).toBe(sent.notificationId);

    const now = await campaignWithRecipients(state, 'now');
    await expectCall(state, 'POST', `/api/campaigns/${now}/send`, { api: true, body: {} });
    // The app's own clock on its replica (?appId= hashes like the header): scheduled for a fixed
    // instant, fired by moving that clock alone.
    await expectCall(state, 'POST', `/__clock?appId=${app}`, { body: { now: APP_START } });
    const later = await campaignWithRecipients(state, 'later');
    const scheduled = await expectCall<Campaign>(state, 'POST', `/api/campaigns/${later}/send`, {
      api: true,
      body: { scheduledAt: APP_FIRES_AT },
    });
    expect(scheduled.status).toBe('scheduled');
    const moved = await expectCall<{ now: string; scope: string }>(state, 'POST', `/__clock?appId=${app}`, {
      body: { advanceMs: 3_600_000 },
    });
    expect(moved).toMatchObject({ now: APP_FIRES_AT, scope: 'app' });
    for (const id of [now, later]) {
      const deliveries = await expectCall<{ total: number }>(
        state,
        'GET',
        `/__inspect/deliveries?appId=${app}&campaignId=${id}&waitFor=2&timeoutMs=20000`,
      );
      expect(deliveries.total).toBe(2);
    }
    // The app's own scenario set on its replica: one send shows it applies (user-9* deliveries fail).
    await expectCall(state, 'PUT', `/__scenarios/active?appId=${app}`, { body: { names: ['flaky-devices'] } });
    await expectCall(state, 'POST', '/api/notifications/send', {
      api: true,
      body: { template: WELCOME, targets: [`user-9-${appId}`], mode: 'realtime' },
    });
    const failed = await expectCall<{ items: { status: string; scenario: string | null }[] }>(
      state,
      'GET',
      `/__inspect/deliveries?appId=${app}&userId=user-9-${encodeURIComponent(appId)}&waitFor=1&timeoutMs=10000`,
    );
    expect(failed.items[0]).toMatchObject({ status: 'failed', scenario: 'flaky-devices' });
    return { appId, replica: state.replica!, notificationId: sent.notificationId, campaignIds: [now, later] };
  }

  /**
   * The app's records as its replica holds them: 6 deliveries, its 2 notifications, 2 sent
   * campaigns; its own clock and its own active set.
   */
  async function expectStateIntact(state: AppState): Promise<void> {
    const app = encodeURIComponent(state.appId);
    const deliveries = await expectCall<{ total: number }>(state, 'GET', `/__inspect/deliveries?appId=${app}`);
    expect(deliveries.total).toBe(6);
    const notifications = await expectCall<{ items: { notificationId: string }[] }>(
      state,
      'GET',
      `/__inspect/notifications?appId=${app}`,
    );
    expect(notifications.items.map((n) => n.notificationId)[0]).toBe(state.notificationId);
    expect(notifications.items).toHaveLength(2);
    const clock = await expectCall<{ now: string; scope: string }>(state, 'GET', `/__clock?appId=${app}`);
    expect(clock).toMatchObject({ now: APP_FIRES_AT, scope: 'app' });
    const scenarios = await expectCall<{ active: string[]; scope: string }>(state, 'GET', `/__scenarios?appId=${app}`);
    expect(scenarios).toMatchObject({ active: ['flaky-devices'], scope: 'app' });
    const campaigns = await expectCall<Campaign[]>(state, 'GET', '/api/campaigns', { api: true });
    expect(campaigns.map((c) => [c.id, c.status]).sort()).toEqual(state.campaignIds.map((id) => [id, 'sent']).sort());
  }

  /** On a failure, what HAProxy said (a replica marked down, say) and the replicas' startup output. */
  const showClusterOutput = () =>
    onTestFailed(() => console.log(`deploy/local-cluster.sh wrote on stderr:\n${cluster.stderr()}`));

  it('keeps each of 120 apps on one replica, with its sends, deliveries and campaigns', async () => {
    showClusterOutput();
    // Ids with characters a query string encodes: the header and ?appId= must hash alike.
    const appIds = Array.from({ length: APPS }, (_, i) => (i % 10 === 0 ? `team ${i}/x` : `app-${i}`));
    for (let i = 0; i < appIds.length; i += PARALLEL)
      states.push(...(await Promise.all(appIds.slice(i, i + PARALLEL).map(exerciseApp))));
    const perReplica = new Map<string, number>();
    for (const s of states) perReplica.set(s.replica, (perReplica.get(s.replica) ?? 0) + 1);
    expect([...perReplica.keys()].sort()).toEqual(cluster.replicas.map((r) => r.name).sort());
    // Consistent hashing spreads 120 ids roughly evenly (about 40 each; none starved).
    for (const [replica, apps] of perReplica) expect(apps, replica).toBeGreaterThan(20);
    // A call naming no app reaches any replica: a few /__health calls see more than one.
    const healthReplicas = new Set<string | null>();
    for (let i = 0; i < 12; i++) healthReplicas.add((await call('GET', '/__health')).replica);
    expect(healthReplicas.size).toBeGreaterThan(1);
  }, 240_000);

  it('keeps the apps of the two other replicas intact when one stops; its own apps start empty elsewhere', async () => {
    showClusterOutput();
    expect(states).toHaveLength(APPS);
    const stopped = cluster.replicas[1]!;
    await stopProcess(stopped.pid);
    const survivors = states.filter((s) => s.replica !== stopped.name);
    for (let i = 0; i < survivors.length; i += PARALLEL)
      await Promise.all(survivors.slice(i, i + PARALLEL).map(expectStateIntact));

    // An app of the stopped replica: answered by another (a failed connect is redispatched at
    // once, and health checks take the replica out within about two seconds), with no records.
    const orphan = states.find((s) => s.replica === stopped.name)!;
    const answer = await call<{ total: number }>(
      'GET',
      `/__inspect/deliveries?appId=${encodeURIComponent(orphan.appId)}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.replica).not.toBe(stopped.name);
    expect(answer.body.total).toBe(0);
  }, 120_000);
});
