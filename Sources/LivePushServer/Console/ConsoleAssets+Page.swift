extension ConsoleAssets {
    /// `index.html`: the frame of the three views and the sign-in form. No inline script or style.
    static let page = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>LivePush console</title>
        <link rel="stylesheet" href="/console/console.css">
        <script type="module" src="/console/app.js"></script>
        </head>
        <body>
        <header>
          <h1>LivePush console</h1>
          <nav id="tabs" hidden>
            <button type="button" data-view="overview" aria-pressed="true">Overview</button>
            <button type="button" data-view="activities" aria-pressed="false">Activities</button>
            <button type="button" data-view="sends" aria-pressed="false">Sends</button>
          </nav>
          <span id="status" data-state="signed-out">signed out</span>
          <button type="button" id="sign-out" hidden>Sign out</button>
        </header>

        <section id="sign-in">
          <form id="sign-in-form" autocomplete="off">
            <label>Operator key <input id="key" type="password" autocomplete="off" required></label>
            <button type="submit">Open the console</button>
            <p class="hint">Create one with <code>livepush keys create --scope operator</code>. It stays in this tab only.</p>
            <p id="sign-in-error" role="alert"></p>
          </form>
        </section>

        <main id="views" hidden>
          <section id="overview" class="view">
            <h2>Overview</h2>
            <div class="cards">
              <div class="card"><h3>Pushes per second (last minute)</h3><dl id="rates"></dl></div>
              <div class="card"><h3>Backlog</h3><dl id="backlog"></dl></div>
            </div>
            <h3>Failures in the last hour</h3>
            <table id="failures"><thead><tr><th>Reason</th><th>Pushes</th><th>Remedy</th></tr></thead><tbody></tbody></table>
            <h3>Broadcast channels</h3>
            <table id="channels"><thead><tr><th>App</th><th>Channels</th><th>Of Apple's limit</th></tr></thead><tbody></tbody></table>
            <h3>Instances and their claims</h3>
            <table id="instances">
              <thead><tr><th>Instance</th><th>Outbox pushes</th><th>Group pages</th><th>Webhook events</th><th>Leases until</th></tr></thead>
              <tbody></tbody>
            </table>
          </section>

          <section id="activities" class="view" hidden>
            <h2>Activities</h2>
            <form id="find-form">
              <select id="find-by">
                <option value="activityId">Activity id</option>
                <option value="userId">User id</option>
                <option value="groupId">Group id</option>
              </select>
              <input id="find-value" placeholder="leave empty to list every activity">
              <button type="submit">Find</button>
            </form>
            <p id="find-error" role="alert"></p>
            <table id="activity-list">
              <thead><tr><th>Activity</th><th>User</th><th>Groups</th><th>State</th><th>Token</th><th>Started</th></tr></thead>
              <tbody></tbody>
            </table>
            <button type="button" id="more-activities" hidden>Next page</button>
            <article id="activity-detail" hidden>
              <h3>Activity <span id="detail-id"></span></h3>
              <dl id="detail-facts"></dl>
              <h4>Push-to-start tokens of the user</h4>
              <table id="detail-tokens">
                <thead><tr><th>Device</th><th>Token</th><th>Source</th><th>Valid</th><th>Age</th><th>Last report</th><th>Last refresh</th></tr></thead><tbody></tbody>
              </table>
              <h4>Delivery history</h4>
              <table id="detail-deliveries">
                <thead><tr><th>Accepted</th><th>Kind</th><th>Outcome</th><th>Status</th><th>Reason</th><th>apns-id</th>
                <th>apns-unique-id</th><th>Attempts</th><th>Priority</th><th>Downgrade</th><th>From</th></tr></thead><tbody></tbody>
              </table>
              <form id="test-push-form">
                <h4>Send a test update</h4>
                <label>content-state (JSON) <textarea id="test-content" rows="3">{"status":"test from the console"}</textarea></label>
                <label>Type the activity id to confirm <input id="test-confirm" autocomplete="off"></label>
                <button type="submit">Send test update</button>
                <p id="test-result" role="status"></p>
              </form>
            </article>
          </section>

          <section id="sends" class="view" hidden>
            <h2>Group sends</h2>
            <table id="send-list">
              <thead><tr><th>Group</th><th>Kind</th><th>State</th><th>Accepted</th><th>Progress</th><th>Counts</th></tr></thead>
              <tbody></tbody>
            </table>
            <button type="button" id="more-sends" hidden>Next page</button>
            <h2>Broadcasts</h2>
            <p class="hint">The newest broadcast channels, each with its broadcasts waiting and its last five sent: one request each, which APNs hands to every subscribed device.</p>
            <table id="broadcast-list">
              <thead><tr><th>Channel</th><th>App</th><th>Group</th><th>Kind</th><th>Accepted</th><th>State</th><th>Status</th><th>Reason</th>
              <th>Attempts</th><th>apns-id</th></tr></thead>
              <tbody></tbody>
            </table>
          </section>
        </main>
        </body>
        </html>

        """#

    /// `console.css`.
    static let style = #"""
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; font-size: 14px; }
        body { margin: 0; }
        header { display: flex; gap: 1rem; align-items: center; padding: .5rem 1rem; background: #1d2b3a; color: #fff; }
        header h1 { font-size: 1.1rem; margin: 0; }
        nav button[aria-pressed="true"] { font-weight: bold; text-decoration: underline; }
        #status { margin-left: auto; }
        #status[data-state="live"]::before { content: "● "; color: #3c3; }
        #status[data-state="paused"]::before { content: "● "; color: #cc3; }
        section { padding: 0 1rem 1rem; }
        .cards { display: flex; gap: 1rem; flex-wrap: wrap; }
        .card { border: 1px solid #8884; border-radius: 6px; padding: .5rem 1rem; min-width: 18rem; }
        dl { display: grid; grid-template-columns: auto auto; gap: .2rem 1rem; }
        dt { color: #888; }
        dd { margin: 0; font-variant-numeric: tabular-nums; }
        table { border-collapse: collapse; margin: .5rem 0; }
        th, td { border-bottom: 1px solid #8883; padding: .25rem .5rem; text-align: left; vertical-align: top; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        tr.selected { background: #4a90e222; }
        tr[data-stale="true"] td, tr[data-outcome="rejected"] td, tr[data-outcome="failed"] td { color: #c33; }
        tr[data-from="console"] td:last-child { font-weight: bold; }
        progress { width: 14rem; }
        [role="alert"] { color: #c33; }
        textarea { width: 30rem; display: block; }
        label { display: block; margin: .3rem 0; }
        #sign-in { padding: 2rem 1rem; }
        .hint { color: #888; }

        """#
}
