"""A local SMTP sink for the tests (aiosmtpd, from PyPI): accepts every message on
127.0.0.1 and writes each, decoded, to DIR/N.json as {"to": [...], "subject": ..., "body": ...}
(the console's mail is quoted-printable text). Prints its port on the first line, then serves
until its stdin closes. Run by tests/api/mail_sink.rs.

Usage: smtp_sink.py DIR
"""
import email
import email.policy
import itertools
import json
import os
import socket
import sys

from aiosmtpd.controller import Controller

DIR = sys.argv[1]
COUNT = itertools.count(1)


class Save:
    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        record = {"to": envelope.rcpt_tos, "subject": str(message["subject"]),
                  "body": message.get_body(("plain",)).get_content()}
        path = os.path.join(DIR, f"{next(COUNT):04}.json")
        with open(path + ".tmp", "w") as out:
            json.dump(record, out)
        os.rename(path + ".tmp", path)
        return "250 OK"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    os.makedirs(DIR, exist_ok=True)
    port = free_port()
    controller = Controller(Save(), hostname="127.0.0.1", port=port)
    controller.start()
    print(port, flush=True)
    sys.stdin.read()
    controller.stop()


if __name__ == "__main__":
    main()
