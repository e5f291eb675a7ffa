"""Sends one Live Activity `update` push to the simulator with kalyke-apns' LiveActivityClient.

Called by Tests/Compatibility/run.sh inside its virtualenv. Exits 0 when kalyke returns an apns-id
(it raises on any non-2xx answer), 1 otherwise (with the exception kalyke raised on stderr).

Usage: kalyke_push.py --url https://127.0.0.1:PORT --ca-file CA.pem --key-file KEY.p8 --key-id ID
                      --team-id ID --topic BUNDLE.push-type.liveactivity --token HEX
                      --content-state JSON [--timeout SECONDS]
"""

import argparse
import asyncio
import json
import os
import sys
from dataclasses import dataclass
from datetime import datetime

from kalyke import ApnsPriority, LiveActivityApnsConfig, LiveActivityClient, LiveActivityEvent, LiveActivityPayload


def simulator_client_class(url: str, ca_file: str) -> type[LiveActivityClient]:
    """The adapter: the only two things this test changes in kalyke-apns 1.5.0, and why.

    1. Host and port. kalyke builds every request URL from its `_base_url` property, fixed to
       "https://api.sandbox.push.apple.com" when use_sandbox=True (kalyke/clients/__init__.py); there
       is no parameter for it. The subclass below overrides only that property to return the
       simulator's URL (https://127.0.0.1:PORT), so `:authority` is 127.0.0.1:PORT (with no Apple
       host named, the simulator assumes sandbox, which is what use_sandbox=True means).
    2. Trust. kalyke creates `httpx2.AsyncClient(headers=..., http2=True)` with httpx2's default
       `verify=True`, `trust_env=True`; httpx2 (httpcore2.default_ssl_context) then builds its SSL
       context from the CA file named by the SSL_CERT_FILE environment variable. The test sets
       SSL_CERT_FILE to the simulator's CA in this process only. No kalyke or httpx2 code changes.

    Nothing else is changed: the JWT (with its string `iat`), headers, payload and error handling
    are kalyke's.
    """
    os.environ["SSL_CERT_FILE"] = ca_file

    @dataclass(frozen=True)
    class SimulatorLiveActivityClient(LiveActivityClient):
        @property
        def _base_url(self) -> str:
            return url.rstrip("/")

    return SimulatorLiveActivityClient


async def send(args: argparse.Namespace) -> int:
    client_class = simulator_client_class(args.url, args.ca_file)
    client = client_class(
        use_sandbox=True,
        team_id=args.team_id,
        auth_key_id=args.key_id,
        auth_key_filepath=args.key_file,
    )
    payload = LiveActivityPayload(
        timestamp=datetime.now(),
        event=LiveActivityEvent.UPDATE,
        content_state=json.loads(args.content_state),
    )
    config = LiveActivityApnsConfig(topic=args.topic, priority=ApnsPriority.IMMEDIATELY)
    try:
        apns_id = await asyncio.wait_for(
            client.send_message(device_token=args.token, payload=payload, apns_config=config),
            args.timeout,
        )
    except Exception as error:  # kalyke raises kalyke.exceptions.<APNs reason> for a non-2xx answer
        print(f"kalyke raised {type(error).__module__}.{type(error).__name__}: {error!r}", file=sys.stderr)
        return 1
    print(f"kalyke result: apns-id={apns_id}", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("url", "ca-file", "key-file", "key-id", "team-id", "topic", "token", "content-state"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--timeout", type=float, default=20)
    return asyncio.run(send(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
