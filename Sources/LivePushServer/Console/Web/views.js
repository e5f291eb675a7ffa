import { call, segment } from './api.js';
import { age, el, facts, fill, row, since } from './dom.js';

const $ = (id) => document.getElementById(id);
const outcomes = ['accepted', 'rejected', 'failed', 'expired', 'coalesced'];

export const overview = {
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
      row([failure.reason, String(failure.count), failure.remedy ?? ''], { data: { reason: failure.reason } })));
    fill($('channels').tBodies[0], data.channels.map((entry) => {
      const meter = el('meter');
      meter.max = entry.limit;
      meter.value = entry.count;
      meter.high = entry.limit * 0.9;
      return row([entry.bundleId, `${entry.count} / ${entry.limit}`, meter]);
    }));
    fill($('instances').tBodies[0], data.instances.map((instance) =>
      row([instance.instanceId + (instance.thisInstance ? ' (this one)' : ''), String(instance.outbox), String(instance.groupPages),
        String(instance.webhooks), instance.leaseUntil ?? '—'], { data: { instanceId: instance.instanceId, this: instance.thisInstance } })));
  },
};

export const activities = {
  query: {},
  cursor: null,
  selected: null,

  async find(by, value) {
    this.cursor = null;
    if (by === 'activityId' && value) {
      this.query = {};
      fill($('activity-list').tBodies[0], []);
      $('more-activities').hidden = true;
      await this.select(value);
      return;
    }
    this.query = value ? { [by]: value } : {};
    await this.page(false);
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
    if (append) body.append(...rows); else fill(body, rows);
    this.cursor = data.next ?? null;
    $('more-activities').hidden = !this.cursor;
    if (!append && data.activities.length === 1) await this.select(data.activities[0].activityId);
  },

  async select(id) {
    this.selected = id;
    $('test-confirm').value = '';
    $('test-result').textContent = '';
    await this.refresh();
  },

  async refresh() {
    if (!this.selected) return;
    let data;
    try {
      data = await call(`activities/${segment(this.selected)}`);
    } catch (error) {
      $('activity-detail').hidden = true;
      throw error;
    }
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
        { data: { stale: entry.stale } })));
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
    fill($('detail-deliveries').tBodies[0], [...pending, ...done]);
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

  async refresh(append = false) {
    const data = await call('sends', { query: { cursor: append ? this.cursor : null } });
    const rows = data.sends.map((send) => {
      const counts = send.counts;
      const progress = el('progress');
      progress.max = Math.max(counts.targeted, 1);
      progress.value = counts.sent + counts.failed + counts.coalesced + counts.skipped;
      const text = `sent ${counts.sent} · failed ${counts.failed} · coalesced ${counts.coalesced} · skipped ${counts.skipped}`
        + ` · pending ${counts.pending} of ${counts.targeted}`;
      return row([send.groupId, send.kind, send.state, send.acceptedAt, progress, text],
        { className: 'send-row', data: { sendId: send.sendId, state: send.state } });
    });
    const body = $('send-list').tBodies[0];
    if (append) body.append(...rows); else fill(body, rows);
    this.cursor = data.next ?? null;
    $('more-sends').hidden = !this.cursor;
    if (!append) fill($('broadcast-list').tBodies[0], data.broadcasts.flatMap(broadcastRows));
  },
};

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

export function report(error) {
  document.dispatchEvent(new CustomEvent('console-error', { detail: error }));
}
