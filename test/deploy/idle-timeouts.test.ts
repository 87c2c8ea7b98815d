/**
 * Issue 34: the idle timeouts docs/deploy.md states for the load balancers in front of a companion
 * (AWS ALB 60 s, Cloudflare 100 s, Heroku 55 s) and the companion's heartbeat: every gap between
 * two writes on a status stream must stay comfortably under the smallest, and the guide must say
 * the heartbeat the code has. (The nginx test shows a stream outliving a 3 s read timeout on a
 * 1 s heartbeat, for real.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultHeartbeatMs, heartbeatBoundsMs } from '../../src/server/model/heartbeat.js';
import { defaultKeepAliveTimeoutMs as keepAliveTimeoutMs } from '../../src/server/commands/standalone-options.js';
import { guideBlock, guideText } from './guide.js';

/** The rows of the guide's table in section 6: what is in front, and its idle timeout in seconds. */
async function statedTimeouts(): Promise<Map<string, number>> {
  const text = await guideText();
  const section = text.slice(text.indexOf("## 6. Load balancers' idle timeouts"), text.indexOf('## What the tests replace'));
  assert.ok(section.length > 0, 'docs/deploy.md has its section 6 on idle timeouts');
  const rows = [...section.matchAll(/^\| ([^|]+?) \| (\d+) s\b[^|]*\| ([^|]+) \|$/gm)];
  return new Map(rows.map((row) => [row[1]!, Number(row[2])]));
}

describe("docs/deploy.md: load balancers' idle timeouts and the heartbeat", () => {
  it('states the idle timeouts of AWS ALB, Cloudflare and Heroku', async () => {
    const timeouts = await statedTimeouts();
    assert.equal(timeouts.get('AWS Application Load Balancer'), 60);
    assert.equal(timeouts.get('Cloudflare'), 100);
    assert.equal(timeouts.get('Heroku router'), 55);
  });

  it('keeps the default heartbeat comfortably under the smallest of them (at most a third)', async () => {
    const smallest = Math.min(...(await statedTimeouts()).values());
    assert.equal(smallest, 55);
    assert.ok(defaultHeartbeatMs * 3 <= smallest * 1000, `heartbeat ${defaultHeartbeatMs} ms against ${smallest} s`);
    assert.ok(heartbeatBoundsMs.max < smallest * 1000, `MOMO_HEARTBEAT_MS cannot be set to ${heartbeatBoundsMs.max} ms, at or past ${smallest} s`);
  });

  it('says the heartbeat the code has, and an nginx read timeout the heartbeat keeps', async () => {
    const text = await guideText();
    assert.match(text, new RegExp(`every \\*\\*${defaultHeartbeatMs / 1000} seconds\\*\\*`));
    assert.match(text, new RegExp(`default \`${defaultHeartbeatMs}\``));
    const readTimeout = /proxy_read_timeout (\d+)s;/.exec(await guideBlock('nginx.conf'));
    assert.ok(readTimeout, "the guide's nginx file sets proxy_read_timeout");
    assert.ok(defaultHeartbeatMs * 3 <= Number(readTimeout[1]) * 1000);
  });

  it("has nginx and Caddy close an idle kept-alive connection to serve before serve would (the sender closes, never mid-send)", async () => {
    // nginx's `keepalive_timeout` in each upstream block (its default, 60 s, outlasts serve's).
    for (const name of ['nginx.conf', 'nginx-upstream']) {
      const upstream = /upstream momo_checkout \{[^}]*\}/.exec(await guideBlock(name))?.[0] ?? '';
      const seconds = /^\s*keepalive_timeout (\d+)s;$/m.exec(upstream)?.[1];
      assert.ok(seconds, `${name}: the upstream sets keepalive_timeout`);
      assert.ok(Number(seconds) * 1000 < keepAliveTimeoutMs, `${name}: nginx lets go of an idle connection (${seconds} s) before serve closes it (${keepAliveTimeoutMs} ms)`);
    }
    // Caddy's `keepalive` in the transport of the block the notifications go through (its default, 2 min, outlasts it too).
    for (const name of ['Caddyfile', 'Caddyfile-momo']) {
      const momo = /handle \/momo\/\* \{[\s\S]*?\n\t\}/.exec(await guideBlock(name))?.[0] ?? '';
      const seconds = /transport http \{\s*keepalive (\d+)s\s*\}/.exec(momo)?.[1];
      assert.ok(seconds, `${name}: the /momo/* block's transport sets keepalive`);
      assert.ok(Number(seconds) * 1000 < keepAliveTimeoutMs, `${name}: Caddy lets go of an idle connection (${seconds} s) before serve closes it`);
    }
  });
});
