"""Sends one Live Activity `update` push to the simulator with aioapns (token-based client).

Called by Tests/Compatibility/run.sh inside its virtualenv. Exits 0 when aioapns reports success,
1 otherwise (with aioapns' own result or exception on stderr).

Usage: aioapns_push.py --url https://127.0.0.1:PORT --ca-file CA.pem --key-file KEY.p8 --key-id ID
                       --team-id ID --topic BUNDLE.push-type.liveactivity --token HEX
                       --content-state JSON [--timeout SECONDS]
"""

import argparse
import asyncio
import json
import logging
import socket
import ssl
import sys
import time
from urllib.parse import urlsplit

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsDevelopmentClientProtocol


def point_aioapns_at(url: str, ca_file: str) -> ssl.SSLContext:
    """The adapter: the only two things this test changes in aioapns 4.0, and why.

    1. Host and port. aioapns connects to `APNsDevelopmentClientProtocol.APNS_SERVER` (a class
       constant, "api.development.push.apple.com" with use_sandbox=True) on `APNS_PORT` (443); there
       is no parameter for either. The test sets both constants to the simulator's address
       (127.0.0.1 and its free port). aioapns also uses APNS_SERVER as the TLS server name and as
       the value of the `host` header it sends, so those say 127.0.0.1 too (the simulator's
       certificate names 127.0.0.1; with no Apple host named, the simulator assumes sandbox, which
       is what use_sandbox=True means).
    2. Trust. The returned SSL context is what aioapns builds by default,
       `ssl.create_default_context()`, plus the simulator's CA (`cafile=`); it is handed to aioapns
       through its public `ssl_context` parameter. No ALPN, verification or protocol setting is
       changed: aioapns sets no ALPN, and neither does this test.

    Nothing else is patched: the JWT, headers, HTTP/2 framing and response handling are aioapns'.
    """
    parts = urlsplit(url)
    APNsDevelopmentClientProtocol.APNS_SERVER = parts.hostname
    APNsDevelopmentClientProtocol.APNS_PORT = parts.port
    return ssl.create_default_context(cafile=ca_file)


def describe_connection(url: str, ssl_context: ssl.SSLContext) -> str:
    """For the failure report only: opens one TLS connection with the SSL context aioapns was given
    (so the same ALPN offer as aioapns: none), sends the HTTP/2 preface and an empty SETTINGS frame
    as aioapns does first, and says what the server did."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=5) as raw:
            with ssl_context.wrap_socket(raw, server_hostname=parts.hostname) as tls:
                tls.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes.fromhex("000000040000000000"))
                answer = tls.recv(4096)
                outcome = (
                    f"{len(answer)} bytes, first frame type {answer[3]}" if len(answer) > 3
                    else "nothing and closed the connection"
                )
                return (
                    f"TLS handshake completed ({tls.version()}, ALPN selected: "
                    f"{tls.selected_alpn_protocol()}); after the HTTP/2 preface the server sent {outcome}"
                )
    except Exception as error:
        return f"probe failed: {error!r}"


async def send(args: argparse.Namespace) -> int:
    ssl_context = point_aioapns_at(args.url, args.ca_file)
    with open(args.key_file) as key_file:
        key = key_file.read()  # aioapns passes `key` to PyJWT as the PEM text itself
    client = APNs(
        key=key,
        key_id=args.key_id,
        team_id=args.team_id,
        topic=args.topic,
        use_sandbox=True,
        ssl_context=ssl_context,
    )
    request = NotificationRequest(
        device_token=args.token,
        message={
            "aps": {
                "timestamp": int(time.time()),
                "event": "update",
                "content-state": json.loads(args.content_state),
            }
        },
        priority=10,
        push_type=PushType.LIVEACTIVITY,
    )
    try:
        result = await asyncio.wait_for(client.send_notification(request), args.timeout)
    except Exception as error:  # aioapns raises its own ConnectionError / MaxAttemptsExceeded
        print(f"aioapns raised {type(error).__module__}.{type(error).__name__}: {error!r}", file=sys.stderr)
        print(f"connection probe: {describe_connection(args.url, ssl_context)}", file=sys.stderr)
        return 1
    finally:
        client.pool.close()
    print(
        f"aioapns result: status={result.status} description={result.description} "
        f"apns-id={result.notification_id}",
        file=sys.stderr,
    )
    return 0 if result.is_successful else 1


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("url", "ca-file", "key-file", "key-id", "team-id", "topic", "token", "content-state"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--timeout", type=float, default=20)
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, format="%(name)s %(levelname)s %(message)s")
    for noisy in ("asyncio", "hpack", "h2"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return asyncio.run(send(args))


if __name__ == "__main__":
    sys.exit(main())
