import { call, segment } from './api.js';
import { drawLatency, drawOutcomes, milliseconds, outcomes } from './chart.js';
import { age, el, facts, fill, Pager, row, since } from './dom.js';

const $ = (id) => document.getElementById(id);
// The series has one point a minute: read again every 10 s, not on every 2-second refresh.
const seriesInterval = 10000;

export const overview = {
  seriesAt: 0,

  async refresh() {
    const data = await call('overview');
    facts($('rates'), outcomes.map((outcome) => [outcome, (data.pushesPerSecond[outcome] ?? 0).toFixed(2)]));
    $('rates').dataset.total = String(outcomes.reduce((sum, outcome) => sum + (data.pushesPerSecond[outcome] ?? 0), 0));
    facts($('backlog'), [
      ['outbox', data.outboxDepth],
      ['group sends being handed out', data.openGroupSends],
      ['webhook events', data.webhookDepth],
      ['priority-10 downgrades (hour)', data.downgradesLastHour],
    ]);
    fill($('failures').tBodies[0], data.failures.map((failure) =>
      row([failure.reason, String(failure.count), failure.remedy ?? ''], { data: { reason: failure.reason } })),
    'No push was refused, failed or expired in the last hour.');
    fill($('channels').tBodies[0], data.channels.map((entry) => {
      const meter = el('meter');
      meter.max = entry.limit;
      meter.value = entry.count;
      meter.high = entry.limit * 0.9;
      return row([entry.bundleId, `${entry.count} / ${entry.limit}`, meter]);
    }), 'No broadcast channel: none was created, or all were deleted.');
    fill($('instances').tBodies[0], data.instances.map((instance) =>
      row([instance.instanceId + (instance.thisInstance ? ' (this one)' : ''), String(instance.outbox), String(instance.groupPages),
        String(instance.webhooks), instance.leaseUntil ?? '—'], { data: { instanceId: instance.instanceId, this: instance.thisInstance } })),
    'No instance holds a lease.');
    if (Date.now() - this.seriesAt >= seriesInterval) {
      await this.charts();
      this.seriesAt = Date.now();
    }
  },

  async charts() {
    const data = await call('series');
    const minutes = data.minutes;
    const pushes = minutes.reduce((sum, minute) => sum + outcomes.reduce((total, outcome) => total + minute.counts[outcome], 0), 0);
    const empty = pushes === 0;
    $('charts').dataset.pushes = String(pushes);
    $('charts-empty').hidden = !empty;
    for (const figure of $('charts').querySelectorAll('figure')) figure.hidden = empty;
    if (empty) return;
    const totals = drawOutcomes($('chart-outcomes'), minutes);
    const unsent = totals.rejected + totals.failed + totals.expired;
    $('outcomes-summary').textContent = `${pushes} pushes in the last hour: `
      + outcomes.filter((outcome) => totals[outcome] > 0).map((outcome) => `${totals[outcome]} ${outcome}`).join(', ')
      + (unsent ? ` (${(100 * unsent / pushes).toFixed(1)} % not delivered)` : '');
    drawLatency($('chart-latency'), minutes);
    const last = [...minutes].reverse().find((minute) => minute.latencySamples > 0);
    $('latency-summary').textContent = last
      ? `Latest minute with pushes (${new Date(last.start).toLocaleTimeString()}): p50 ${milliseconds(last.latencyP50Ms)}, `
        + `p99 ${milliseconds(last.latencyP99Ms)} over ${last.latencySamples} pushes.`
      : 'Only coalesced pushes in the last hour: none was sent, so none has a latency.';
  },
};

export const activities = {
  query: {},
  cursor: null,
  selected: null,
  history: null,

  // A search starts afresh: the previous selection goes with its detail, so that a selection that now
  // fails (an activity forgotten since) does not keep failing every refresh.
  async find(by, value) {
    this.cursor = null;
    this.selected = null;
    $('activity-detail').hidden = true;
    if (by === 'activityId' && value) {
      this.query = {};
      fill($('activity-list').tBodies[0], [], '');
      $('activity-list').hidden = true;
      $('activity-list').nextElementSibling.hidden = true;
      $('more-activities').hidden = true;
      await this.select(value);
      return;
    }
    this.query = value ? { [by]: value } : {};
    await this.page(false);
  },

  emptyText() {
    if (this.query.userId) return `No activity of user '${this.query.userId}'.`;
    if (this.query.groupId) return `No activity in group '${this.query.groupId}'.`;
    return 'No activity is registered on this server yet: apps register theirs with POST /v1/activities.';
  },

  async page(append) {
    const data = await call('activities', { query: { ...this.query, cursor: append ? this.cursor : null } });
    const rows = data.activities.map((activity) => {
      const line = row([activity.activityId, activity.userId ?? '', activity.groups.join(', '), activity.state,
        activity.token.valid ? 'valid' : `invalid: ${activity.token.reason ?? ''}`, since(activity.startedAt)],
        { className: 'activity-row', data: { activityId: activity.activityId } });
      line.addEventListener('click', () => this.select(activity.activityId).catch(report));
      return line;
    });
    const body = $('activity-list').tBodies[0];
    if (append) body.append(...rows); else fill(body, rows, this.emptyText());
    this.cursor = data.next ?? null;
    $('more-activities').hidden = !this.cursor;
    if (!append && data.activities.length === 1) await this.select(data.activities[0].activityId);
  },

  // Shows one activity; when it cannot be read, the previous selection stays (or none).
  async select(id) {
    await selectOrKeep(this, id, () => this.refresh(true), (previous) => {
      if (!previous) $('activity-detail').hidden = true;
    });
    $('test-confirm').value = '';
    $('test-result').textContent = '';
  },

  async refresh(fresh = false) {
    if (!this.selected) return;
    const data = await call(`activities/${segment(this.selected)}`);
    const activity = data.activity;
    for (const line of $('activity-list').tBodies[0].rows) line.classList.toggle('selected', line.dataset.activityId === activity.activityId);
    $('detail-id').textContent = activity.activityId;
    facts($('detail-facts'), [
      ['state', activity.state],
      ['user', activity.userId],
      ['groups', activity.groups.join(', ') || '—'],
      ['token', `${activity.pushToken} ${activity.token.valid ? 'valid' : `invalid (${activity.token.reason ?? ''})`}`],
      ['token age (since registered or rotated)', `${age(data.tokenAgeSeconds)} (since ${data.tokenSince})`],
      ['started', activity.startedAt],
      ['priority-10 budget left this hour', `${data.budget.left} of ${data.budget.limit}`],
      ['content-state', activity.lastContentState ? JSON.stringify(activity.lastContentState) : '—'],
    ]);
    fill($('detail-tokens').tBodies[0], data.pushToStartTokens.map((entry) =>
      row([entry.token.deviceId, entry.token.token, entry.token.source ?? '—', entry.token.valid ? 'yes' : 'no',
        age(entry.ageSeconds) + (entry.stale ? ' (stale)' : ''), entry.token.updatedAt, entry.token.refreshedAt ?? '—'],
        { data: { stale: entry.stale } })),
    activity.userId ? `User '${activity.userId}' has no push-to-start token stored.`
      : 'The activity has no user: push-to-start tokens are stored per user.');
    const fromConsole = new Set(data.consolePushIds);
    const pending = data.pending.map((push) => row([push.acceptedAt, push.kind, 'pending', '', push.lastError ?? '', '', '',
      String(push.attempts), String(push.priority), push.downgradeReason ?? '', fromConsole.has(push.pushId) ? 'console' : 'API'],
      { className: 'delivery', data: { outcome: 'pending', from: fromConsole.has(push.pushId) ? 'console' : 'api' } }));
    const done = data.deliveries.map((delivery) => row([delivery.acceptedAt, delivery.kind, delivery.outcome,
      delivery.status === undefined ? '' : String(delivery.status), delivery.reason ?? '', delivery.apnsId ?? '',
      delivery.apnsUniqueId ?? '', String(delivery.attempts), delivery.priority === delivery.requestedPriority ? String(delivery.priority)
        : `${delivery.priority} (asked ${delivery.requestedPriority})`, delivery.downgradeReason ?? '',
      fromConsole.has(delivery.pushId) ? 'console' : 'API'],
      { className: 'delivery', data: { outcome: delivery.outcome, from: fromConsole.has(delivery.pushId) ? 'console' : 'api' } }));
    // The history ten at a time, newest first; another activity starts at its newest.
    this.history ??= new Pager($('detail-deliveries').tBodies[0], {
      size: 10, empty: 'No push to this activity yet: nothing was sent to it, or its history was forgotten.',
    });
    fill($('detail-refusals').tBodies[0], (data.refusals ?? []).map((refusal) =>
      row([refusal.at, refusal.field, refusal.rule, refusal.message], { className: 'refusal', data: { field: refusal.field, rule: refusal.rule } })),
    'No send to this activity was refused for its content-state.');
    if (fresh) this.history.reset();
    this.history.show([...pending, ...done]);
    $('activity-detail').hidden = false;
  },

  async testPush(confirmation, contentText) {
    let contentState;
    try {
      contentState = JSON.parse(contentText);
    } catch {
      $('test-result').textContent = 'content-state is not JSON';
      return;
    }
    const answer = await call(`activities/${segment(this.selected)}/test-push`, {
      method: 'POST', body: { confirmActivityId: confirmation, contentState },
    });
    $('test-result').textContent = `accepted: push ${answer.pushIds.join(', ')}`;
    await this.refresh();
  },
};

export const sends = {
  cursor: null,
  selected: null,
  failed: null,
  skipped: null,

  async refresh(append = false) {
    const data = await call('sends', { query: { cursor: append ? this.cursor : null } });
    const rows = data.sends.map((send) => {
      const counts = send.counts;
      const progress = el('progress');
      progress.max = Math.max(counts.targeted, 1);
      progress.value = counts.sent + counts.failed + counts.coalesced + counts.skipped;
      const text = send.audience
        ? `sent ${counts.sent} · failed ${counts.failed} · no token ${counts.noToken ?? 0} · budget ${counts.budget ?? 0}`
          + ` · pending ${counts.pending} of ${counts.targeted}`
        : `sent ${counts.sent} · failed ${counts.failed} · coalesced ${counts.coalesced} · skipped ${counts.skipped}`
          + ` · pending ${counts.pending} of ${counts.targeted}`;
      const line = row([recipients(send), send.kind, send.state, send.acceptedAt, progress, text],
        { className: 'send-row', data: { sendId: send.sendId, state: send.state, kind: send.kind } });
      line.addEventListener('click', () => this.select(send.sendId).catch(report));
      return line;
    });
    const body = $('send-list').tBodies[0];
    if (append) body.append(...rows); else fill(body, rows,
      'No send yet: a backend sends to a group with POST /v1/groups/{groupId}/update or /end, or starts for an audience with POST /v1/starts.');
    this.cursor = data.next ?? null;
    $('more-sends').hidden = !this.cursor;
    if (!append) {
      fill($('broadcast-list').tBodies[0], data.broadcasts.flatMap(broadcastRows),
        'No broadcast channel: a backend creates one with POST /v1/channels.');
    }
    await this.detail();
  },

  // Shows one send's failed and skipped members; when it cannot be read, the previous one stays.
  async select(id) {
    await selectOrKeep(this, id, () => this.detail(true));
  },

  async detail(fresh = false) {
    if (!this.selected) return;
    const data = await call(`sends/${segment(this.selected)}`);
    const send = data.send;
    for (const line of $('send-list').tBodies[0].rows) line.classList.toggle('selected', line.dataset.sendId === send.sendId);
    $('send-audience-note').hidden = !send.audience;
    $('send-members').hidden = Boolean(send.audience);
    if (send.audience) {
      this.showStart(send);
      $('send-detail').hidden = false;
      return;
    }
    $('send-heading').textContent = 'Group send';
    $('send-title').textContent = `${send.kind} to group ${send.groupId}, accepted ${send.acceptedAt}`;
    facts($('send-facts'), [
      ['state', send.state],
      ['targeted', send.counts.targeted],
      ['sent', send.counts.sent],
      ['failed', send.counts.failed],
      ['skipped', send.counts.skipped],
      ['coalesced', send.counts.coalesced],
      ['pending', send.counts.pending],
    ]);
    this.failed ??= new Pager($('send-failed').tBodies[0], { size: 20, empty: 'No member failed.', previous: 'Previous', next: 'Next' });
    this.skipped ??= new Pager($('send-skipped').tBodies[0], { size: 20, empty: 'No member was skipped.', previous: 'Previous', next: 'Next' });
    if (fresh) {
      this.failed.reset();
      this.skipped.reset();
    }
    this.failed.show(data.failed.map((entry) => row([entry.activityId, entry.delivery.outcome,
      entry.delivery.status === undefined ? '' : String(entry.delivery.status), entry.delivery.reason ?? '', String(entry.delivery.attempts)],
      { className: 'member-row', data: { outcome: entry.delivery.outcome, activityId: entry.activityId } })));
    this.skipped.show(data.skipped.map((entry) => row([entry.activityId, entry.reason],
      { className: 'member-row', data: { activityId: entry.activityId } })));
    const unlisted = [];
    if (send.counts.failed > data.failed.length) unlisted.push(`${send.counts.failed - data.failed.length} failed`);
    if (send.counts.skipped > data.skipped.length) unlisted.push(`${send.counts.skipped - data.skipped.length} skipped`);
    $('send-unlisted').textContent = unlisted.length
      ? `Not listed: ${unlisted.join(' and ')} (beyond the first 200, out of the group since, or with a new token since).` : '';
    $('send-detail').hidden = false;
  },

  // An audience start: its counts by outcome and skip reason; its targets are not listed.
  showStart(send) {
    const counts = send.counts;
    $('send-heading').textContent = 'Audience start';
    $('send-title').textContent = `start to ${recipients(send)}, accepted ${send.acceptedAt}`;
    facts($('send-facts'), [
      ['state', send.state],
      ['attributes type', send.audience.attributesType],
      ['input push channel', send.audience.inputPushChannel ?? 'none'],
      ['accepted', send.acceptedAt],
      ['finished', send.finishedAt ?? 'not yet'],
      ['targeted', counts.targeted],
      ['sent', counts.sent],
      ['skipped: no token', counts.noToken ?? 0],
      ['skipped: budget', counts.budget ?? 0],
      ['failed', counts.failed],
      ['retrying', counts.retrying],
      ['pending', counts.pending],
    ]);
  },
};

// Who a send is for: its group, or an audience start's users ("N users" or "everyone").
// Makes `id` the view's selection and shows it with `show`; when it cannot be shown, the previous selection
// stays (`restored` is told which, to hide what it no longer shows) and the error goes on.
async function selectOrKeep(view, id, show, restored = () => {}) {
  const previous = view.selected;
  view.selected = id;
  try {
    await show();
  } catch (error) {
    view.selected = previous;
    restored(previous);
    throw error;
  }
}

function recipients(send) {
  if (!send.audience) return send.groupId;
  if (send.audience.everyone) return 'everyone';
  const count = send.audience.userCount ?? 0;
  return `${count} ${count === 1 ? 'user' : 'users'}`;
}

// A channel's rows: its waiting broadcasts, then its newest done ones; one row when it has none.
function broadcastRows(channel) {
  const names = [channel.name, channel.bundleId, channel.groupId ?? ''];
  const options = (state, pushId) => ({ className: 'broadcast-row', data: { channelId: channel.channelId, state, pushId: pushId ?? '' } });
  const pending = channel.pending.map((push) =>
    row([...names, push.kind, push.acceptedAt, 'pending', '', push.lastError ?? '', String(push.attempts), ''], options('pending', push.pushId)));
  const done = channel.deliveries.map((delivery) =>
    row([...names, delivery.kind, delivery.acceptedAt, delivery.outcome, delivery.status === undefined ? '' : String(delivery.status),
      delivery.reason ?? '', String(delivery.attempts), delivery.apnsId ?? ''], options(delivery.outcome, delivery.pushId)));
  const rows = [...pending, ...done];
  return rows.length ? rows : [row([...names, '', '', 'no broadcast yet', '', '', '', ''], options('none'))];
}

// `hp: number, note?: string or null, hero: {name: string}`: the top-level properties of a shape.
function properties(shape) {
  const required = new Set(shape.required ?? []);
  const describe = (node) => {
    const types = [node.type ?? 'any'].flat();
    if (node.properties) return `{${Object.entries(node.properties).map(([name, inner]) => `${name}: ${describe(inner)}`).join(', ')}}`;
    if (node.items) return `[${describe(node.items)}]`;
    return types.join(' or ') + (node.contentEncoding ? ' (base64)' : '');
  };
  return Object.entries(shape.properties ?? {})
    .map(([name, node]) => `${name}${required.has(name) ? '' : '?'}: ${describe(node)}`).join(', ') || '—';
}

export const shapes = {
  async refresh() {
    const data = await call('content-states');
    fill($('shape-list').tBodies[0], data.shapes.map((entry) =>
      row([entry.bundleId, entry.attributesType, properties(entry.shape), entry.source, String(entry.revision), since(entry.updatedAt)],
        { data: { attributesType: entry.attributesType } })),
    'No shape is stored: no send is checked. LivePushKit sends one with each registration, or PUT one.');
    fill($('refusal-list').tBodies[0], data.refusals.map((entry) =>
      row([entry.bundleId, entry.attributesType, entry.field, entry.rule, String(entry.refusals), since(entry.lastAt), entry.lastTarget,
        entry.lastMessage], { data: { field: entry.field, rule: entry.rule } })),
    'No send was refused for its content-state.');
  },
};

// A Live Activity kept by key, looked up by user and key; refreshed while shown.
export const resources = {
  selected: null,

  // One read per lookup: the answer is shown, and kept as the selection only once it was found.
  async find(user, key) {
    this.selected = null;
    $('resource-detail').hidden = true;
    const data = await call(this.path(user, key));
    this.selected = { user, key };
    this.show(data);
  },

  async refresh() {
    if (!this.selected) return;
    this.show(await call(this.path(this.selected.user, this.selected.key)));
  },

  path(user, key) {
    return `users/${segment(user)}/live-activities/${segment(key)}`;
  },

  show(data) {
    facts($('resource-facts'), [
      ['state', data.state + (data.reason ? ` (${data.reason})` : '')],
      ['attributes', `${data.attributesType} ${JSON.stringify(data.attributes)}`],
      ['wanted content state', JSON.stringify(data.contentState) + (data.pending ? ' (waiting for the app to register the activity)' : '')],
      ['running activity', data.activityId],
      ['activities it has had', data.activityIds.join(', ') || '—'],
      ['renewal', data.renewBefore ? `renewed ${data.renewBefore} after each start` : '—'],
      ['updated', since(data.updatedAt)],
    ]);
    fill($('resource-history').tBodies[0], data.history.map((step) =>
      row([since(step.at), step.outcome, step.activityId ?? '', step.reason ?? '', step.contentState ? JSON.stringify(step.contentState) : ''],
        { data: { outcome: step.outcome } })),
    'Nothing recorded yet.');
    $('resource-detail').hidden = false;
  },
};

export function report(error) {
  document.dispatchEvent(new CustomEvent('console-error', { detail: error }));
}
